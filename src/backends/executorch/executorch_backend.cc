#include "backends/executorch/executorch_backend.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/platform.h>
#include <executorch/runtime/platform/runtime.h>
#include <nlohmann/json.hpp>

#include "core/log.h"

// The wheel ships the thread pool's library but not its header (threadpool.h); these are the
// two member functions edgebench calls, declared as the library defines them (non-virtual
// members: the calls do not depend on the class's layout).
namespace executorch::extension::threadpool {
class ThreadPool {
 public:
  size_t get_thread_count() const;
  bool _unsafe_reset_threadpool(uint32_t num_threads);
};
ThreadPool* get_threadpool();
}  // namespace executorch::extension::threadpool

namespace edgebench {
namespace {

namespace et = ::executorch::runtime;
using ::executorch::aten::ScalarType;

constexpr const char* kMethod = "forward";
constexpr const char* kXnnpackBackend = "XnnpackBackend";

// ExecuTorch logs through its platform layer (ET_LOG), to stderr by default. edgebench routes
// those messages here: a failing call's error then carries ExecuTorch's own words ("Attempted to
// resize a bounded tensor..."), and -vv shows them all.
class LogCapture {
 public:
  static LogCapture& Get() {
    static LogCapture capture;
    return capture;
  }
  // Messages since the last Take(), joined with "; ".
  std::string Take() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string text;
    for (const std::string& m : messages_) text += (text.empty() ? "" : "; ") + m;
    messages_.clear();
    return text;
  }
  void Add(std::string message) {
    Log(LogLevel::kDebug, "executorch: " + message);
    std::lock_guard<std::mutex> lock(mutex_);
    if (messages_.size() < 64) messages_.push_back(std::move(message));
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> messages_;
};

void EmitLogMessage(et_timestamp_t, et_pal_log_level_t, const char*, const char*, size_t,
                    const char* message, size_t length) {
  std::string text(message, length);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  LogCapture::Get().Add(std::move(text));
}

// Once per process: ExecuTorch's platform layer, with its log messages routed to LogCapture.
void InitRuntime() {
  static std::once_flag once;
  std::call_once(once, [] {
    et::register_pal(et::PalImpl::create(EmitLogMessage, __FILE__));
    et::runtime_init();
  });
}

// "what failed: ExecuTorch error NAME (code); ExecuTorch said: ...".
std::string Describe(const std::string& what, et::Error error) {
  std::string text = what + ": ExecuTorch error " + et::to_string(error) + " (" +
                     std::to_string(static_cast<int>(error)) + ")";
  const std::string said = LogCapture::Get().Take();
  if (!said.empty()) text += "; ExecuTorch said: " + said;
  return text;
}

DType FromScalarType(ScalarType type) {
  switch (type) {
    case ScalarType::Float: return DType::kFloat32;
    case ScalarType::Half: return DType::kFloat16;
    case ScalarType::Char: return DType::kInt8;
    case ScalarType::Byte: return DType::kUInt8;
    case ScalarType::Int: return DType::kInt32;
    case ScalarType::Long: return DType::kInt64;
    case ScalarType::Bool: return DType::kBool;
    default: return DType::kUnknown;
  }
}

Result<ScalarType> ToScalarType(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return ScalarType::Float;
    case DType::kFloat16: return ScalarType::Half;
    case DType::kInt8: return ScalarType::Char;
    case DType::kUInt8: return ScalarType::Byte;
    case DType::kInt32: return ScalarType::Int;
    case DType::kInt64: return ScalarType::Long;
    case DType::kBool: return ScalarType::Bool;
    default: return Status::Error("dtype " + DTypeName(dtype) + " has no ExecuTorch scalar type");
  }
}

// What the export step's manifest says about one .pte: the input's dynamic dimensions and,
// from get_delegation_info, how many of the model's nodes were delegated, by op type. Our
// exporter names artifacts NETWORK.VARIANT.pte beside NETWORK.json; other .pte files have none.
struct ManifestFacts {
  bool found = false;
  std::map<int, std::pair<int64_t, int64_t>> dynamic_dims;  // input 0's axis -> [min, max]
  std::optional<int> delegated_nodes;
  std::optional<int> non_delegated_nodes;
  std::map<std::string, int> non_delegated_ops;  // op type -> nodes left on the kernels
};

ManifestFacts ReadManifest(const std::string& pte_path) {
  ManifestFacts facts;
  const std::filesystem::path path(pte_path);
  const std::string file = path.filename().string();
  const std::string network = file.substr(0, file.find('.'));
  std::ifstream in(path.parent_path() / (network + ".json"));
  if (!in) return facts;
  const auto json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.contains("artifacts")) return facts;
  try {
    for (const auto& artifact : json["artifacts"]) {
      if (artifact.value("path", "") != file) continue;
      facts.found = true;
      if (json.contains("inputs") && !json["inputs"].empty() &&
          json["inputs"][0].contains("dynamic_dims")) {
        for (const auto& [axis, bounds] : json["inputs"][0]["dynamic_dims"].items()) {
          facts.dynamic_dims[std::stoi(axis)] = {bounds.at("min").get<int64_t>(),
                                                 bounds.at("max").get<int64_t>()};
        }
      }
      if (artifact.contains("delegation")) {
        const auto& d = artifact["delegation"];
        facts.delegated_nodes = d.at("delegated_nodes").get<int>();
        facts.non_delegated_nodes = d.at("non_delegated_nodes").get<int>();
        for (const auto& [op, counts] : d.at("by_op").items()) {
          const int left = counts.at("not_delegated").get<int>();
          if (left > 0) facts.non_delegated_ops[op] = left;
        }
      }
    }
  } catch (const std::exception& e) {
    Log(LogLevel::kWarning, "executorch: ignoring the manifest beside " + pte_path + ": " + e.what());
    return ManifestFacts{};
  }
  return facts;
}

class ExecuTorchSession : public Session {
 public:
  static Result<std::unique_ptr<Session>> Create(const Artifact& artifact, const Target& target) {
    TargetOptions options(target);
    auto threads = options.Int("threads", 0, 0, 1024);
    if (!threads.ok()) return threads.status();
    auto fallback = options.Choice("fallback", "allow", {"allow", "fail"});
    if (!fallback.ok()) return fallback.status();
    if (Status s = options.CheckAllUsed(); !s.ok()) return s;

    InitRuntime();
    LogCapture::Get().Take();
    auto session = std::unique_ptr<ExecuTorchSession>(new ExecuTorchSession());
    session->target_ = target;
    session->threads_ = threads.value();
    session->fallback_ = fallback.value();
    auto* pool = ::executorch::extension::threadpool::get_threadpool();
    if (threads.value() > 0 &&
        (pool == nullptr || !pool->_unsafe_reset_threadpool(static_cast<uint32_t>(threads.value())))) {
      return Status::Error("cannot set ExecuTorch's thread pool to " +
                           std::to_string(threads.value()) + " threads");
    }
    // The pool is the process's: the record states the size in force, default or asked for.
    if (pool != nullptr) session->threads_ = static_cast<int>(pool->get_thread_count());
    if (Status s = session->Open(artifact.path); !s.ok()) return s;
    return std::unique_ptr<Session>(std::move(session));
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) override {
    if (input_shapes.size() != signature_.inputs.size()) {
      return Status::Error("executorch: " + std::to_string(input_shapes.size()) +
                           " input shapes given; the method has " +
                           std::to_string(signature_.inputs.size()) + " inputs");
    }
    // Zero-filled inputs of the asked shapes, set now: ExecuTorch resizes its planned inputs
    // here, and refuses (with its reason) a shape beyond the bounds the model was exported with.
    std::vector<Tensor> zeros;
    for (size_t i = 0; i < input_shapes.size(); ++i) {
      auto size = CheckedSize(input_shapes[i], signature_.inputs[i].dtype, INT32_MAX,
                              "input '" + signature_.inputs[i].name + "'");
      if (!size.ok()) return size.status();
      Tensor t{signature_.inputs[i].name, signature_.inputs[i].dtype, input_shapes[i], {}};
      t.data.resize(static_cast<size_t>(size.value().second));
      zeros.push_back(std::move(t));
    }
    if (Status s = SetInputs(zeros); !s.ok()) return s;
    prepared_shapes_ = input_shapes;
    return Status::Ok();
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    if (Status s = SetInputs(inputs); !s.ok()) return s;
    if (et::Error e = method_->execute(); e != et::Error::Ok) {
      return Status::Error(Describe("executorch: running " + path_ + " failed", e));
    }
    const size_t count = method_->outputs_size();
    outputs.resize(count);
    for (size_t i = 0; i < count; ++i) {
      const et::EValue& value = method_->get_output(i);
      if (!value.isTensor()) {
        return Status::Error("executorch: output " + std::to_string(i) + " of " + path_ +
                             " is not a tensor; edgebench compares tensors only");
      }
      const auto& tensor = value.toTensor();
      Tensor& out = outputs[i];
      out.name = i < signature_.outputs.size() ? signature_.outputs[i].name : "output_" + std::to_string(i);
      out.dtype = FromScalarType(tensor.scalar_type());
      out.shape.assign(tensor.sizes().begin(), tensor.sizes().end());
      out.data.resize(tensor.nbytes());
      std::memcpy(out.data.data(), tensor.const_data_ptr(), tensor.nbytes());
    }
    return Status::Ok();
  }

  std::vector<std::vector<int64_t>> PreparedInputShapes() const override { return prepared_shapes_; }

  Placement GetPlacement() const override { return placement_; }

  std::vector<std::string> notes() const override { return notes_; }

  std::map<std::string, std::string> effective_options() const override {
    return {{"threads", std::to_string(threads_)}, {"fallback", fallback_}};
  }

 private:
  ExecuTorchSession() = default;

  Status Open(const std::string& path) {
    path_ = path;
    auto loader = ::executorch::extension::FileDataLoader::from(path.c_str());
    if (!loader.ok()) return Status::Error(Describe("executorch: cannot open " + path, loader.error()));
    loader_ = std::make_unique<::executorch::extension::FileDataLoader>(std::move(loader.get()));
    auto program = et::Program::load(loader_.get(), et::Program::Verification::InternalConsistency);
    if (!program.ok()) {
      return Status::Error(Describe("executorch: " + path + " is not a loadable ExecuTorch program "
                                    "(truncated or not a .pte?)", program.error()));
    }
    program_ = std::make_unique<et::Program>(std::move(program.get()));
    auto meta = program_->method_meta(kMethod);
    if (!meta.ok()) {
      return Status::Error(Describe("executorch: " + path + " has no method 'forward'", meta.error()));
    }
    if (Status s = ReadSignature(meta.get()); !s.ok()) return s;
    if (Status s = CheckDelegates(meta.get()); !s.ok()) return s;

    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
      planned_buffers_.emplace_back(static_cast<size_t>(meta->memory_planned_buffer_size(i).get()));
    }
    for (auto& buffer : planned_buffers_) planned_spans_.emplace_back(buffer.data(), buffer.size());
    planned_memory_ = std::make_unique<et::HierarchicalAllocator>(
        et::Span<et::Span<uint8_t>>(planned_spans_.data(), planned_spans_.size()));
    memory_manager_ = std::make_unique<et::MemoryManager>(&method_allocator_, planned_memory_.get(),
                                                          &temp_allocator_);
    auto method = program_->load_method(kMethod, memory_manager_.get());
    if (!method.ok()) {
      return Status::Error(Describe("executorch: cannot load method 'forward' of " + path, method.error()));
    }
    method_ = std::make_unique<et::Method>(std::move(method.get()));
    const std::string said = LogCapture::Get().Take();
    if (!said.empty()) notes_.push_back("ExecuTorch: " + said);
    return Status::Ok();
  }

  Status ReadSignature(const et::MethodMeta& meta) {
    manifest_ = ReadManifest(path_);
    for (size_t i = 0; i < meta.num_inputs(); ++i) {
      auto info = meta.input_tensor_meta(i);
      if (!info.ok()) {
        return Status::Error("executorch: input " + std::to_string(i) + " of " + path_ +
                             " is not a tensor; edgebench feeds tensors only");
      }
      TensorSpec spec;
      spec.name = info->name().empty() ? "input_" + std::to_string(i) : std::string(info->name());
      spec.dtype = FromScalarType(info->scalar_type());
      // MethodMeta gives the planned (largest) sizes only; which axes are dynamic comes from
      // the export step's manifest where there is one.
      int axis = 0;
      for (int32_t size : info->sizes()) {
        if (i == 0 && manifest_.dynamic_dims.count(axis)) {
          spec.shape.push_back(Dim::Symbol("batch"));
        } else {
          spec.shape.push_back(Dim::Fixed(size));
        }
        ++axis;
      }
      signature_.inputs.push_back(spec);
    }
    for (size_t i = 0; i < meta.num_outputs(); ++i) {
      auto info = meta.output_tensor_meta(i);
      TensorSpec spec;
      spec.name = info.ok() && !info->name().empty() ? std::string(info->name())
                                                      : "output_" + std::to_string(i);
      if (info.ok()) {
        spec.dtype = FromScalarType(info->scalar_type());
        for (int32_t size : info->sizes()) spec.shape.push_back(Dim::Fixed(size));
      }
      signature_.outputs.push_back(spec);
    }
    return Status::Ok();
  }

  // Placement from the method's delegated blocks (at run time) and the manifest's per-node
  // counts (at export); the target's checks: cpu takes no delegates, xnnpack needs them.
  Status CheckDelegates(const et::MethodMeta& meta) {
    std::map<std::string, int> blocks;  // backend -> delegated blocks
    for (size_t i = 0; i < meta.num_backends(); ++i) {
      auto name = meta.get_backend_name(i);
      if (name.ok()) ++blocks[name.get()];
    }
    const int xnnpack_blocks = blocks.count(kXnnpackBackend) ? blocks[kXnnpackBackend] : 0;
    placement_.known = true;
    for (const auto& [backend, count] : blocks) {
      const std::string device = backend == kXnnpackBackend ? "xnnpack" : backend;
      placement_.partitions_by_device[device] = count;
      placement_.nodes_by_device[device] = count;
      placement_.devices_used.push_back(device);
    }
    placement_.delegate_partitions = xnnpack_blocks;
    if (manifest_.delegated_nodes) {
      placement_.model_nodes = *manifest_.delegated_nodes + *manifest_.non_delegated_nodes;
      if (*manifest_.delegated_nodes > 0) placement_.original_nodes_by_device["xnnpack"] = *manifest_.delegated_nodes;
      placement_.original_nodes_by_device["cpu"] = *manifest_.non_delegated_nodes;
      placement_.cpu_op_types = manifest_.non_delegated_ops;
      if (*manifest_.non_delegated_nodes > 0) placement_.devices_used.push_back("cpu");
    }

    if (target_.device == "cpu" && !blocks.empty()) {
      std::string list;
      for (const auto& [backend, count] : blocks) {
        list += (list.empty() ? "" : ", ") + std::to_string(count) + " to " + backend;
      }
      return Status::Error("executorch:cpu runs a .pte without delegates, and " + path_ +
                           " delegates blocks (" + list + "); run it on executorch:xnnpack, or "
                           "export it without a partitioner");
    }
    if (target_.device == "xnnpack") {
      if (xnnpack_blocks == 0) {
        return Status::Error("executorch:xnnpack runs an XNNPACK-lowered .pte, and " + path_ +
                             " has no block delegated to XNNPACK; run it on executorch:cpu, or "
                             "export it with XnnpackPartitioner");
      }
      if (fallback_ == "fail") {
        if (manifest_.non_delegated_nodes && *manifest_.non_delegated_nodes > 0) {
          return Status::Error("fallback=fail: " + std::to_string(*manifest_.non_delegated_nodes) +
                               " of the model's nodes stay on ExecuTorch's CPU kernels, outside "
                               "XNNPACK (op types: " + OpTypeCountsText(manifest_.non_delegated_ops) +
                               "; per the export manifest)");
        }
        if (!manifest_.non_delegated_nodes) {
          return Status::Error("fallback=fail: " + path_ + " has " + std::to_string(xnnpack_blocks) +
                               " XNNPACK blocks, and which nodes stay outside them is unknown: "
                               "ExecuTorch's program does not tell, and no export manifest "
                               "(NETWORK.json beside it) does");
        }
      }
    }
    return Status::Ok();
  }

  Status SetInputs(const std::vector<Tensor>& inputs) {
    if (inputs.size() != signature_.inputs.size()) {
      return Status::Error("executorch: " + std::to_string(inputs.size()) + " inputs given; " +
                           path_ + " takes " + std::to_string(signature_.inputs.size()));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto type = ToScalarType(inputs[i].dtype);
      if (!type.ok()) return type.status();
      std::vector<::executorch::aten::SizesType> sizes(inputs[i].shape.begin(), inputs[i].shape.end());
      // ExecuTorch copies from this tensor into its own planned input; it never writes to it.
      auto tensor = ::executorch::extension::from_blob(
          const_cast<std::byte*>(inputs[i].data.data()), std::move(sizes), type.value());
      if (et::Error e = method_->set_input(et::EValue(*tensor), i); e != et::Error::Ok) {
        return Status::Error(Describe("executorch: input '" + signature_.inputs[i].name +
                                      "' of shape " + ShapeToString(inputs[i].shape) +
                                      " does not fit " + path_, e));
      }
    }
    return Status::Ok();
  }

  Target target_;
  int threads_ = 0;
  std::string fallback_;
  std::string path_;
  Signature signature_;
  ManifestFacts manifest_;
  Placement placement_;
  std::vector<std::string> notes_;
  std::vector<std::vector<int64_t>> prepared_shapes_;
  // Declared in the order ExecuTorch's objects depend on each other; destroyed in reverse.
  std::unique_ptr<::executorch::extension::FileDataLoader> loader_;
  std::unique_ptr<et::Program> program_;
  std::vector<std::vector<uint8_t>> planned_buffers_;
  std::vector<et::Span<uint8_t>> planned_spans_;
  std::unique_ptr<et::HierarchicalAllocator> planned_memory_;
  ::executorch::extension::MallocMemoryAllocator method_allocator_;
  ::executorch::extension::MallocMemoryAllocator temp_allocator_;
  std::unique_ptr<et::MemoryManager> memory_manager_;
  std::unique_ptr<et::Method> method_;
};

class ExecuTorchBackend : public Backend {
 public:
  BackendInfo Info() const override {
    InitRuntime();
    BackendInfo info = InfoFromDescription(DescribeExecuTorchBackend());
    info.version = EDGEBENCH_EXECUTORCH_VERSION;
    DeviceInfo cpu;
    cpu.name = "cpu";
    cpu.description = "ExecuTorch's optimized and portable kernels (a .pte without delegates)";
    cpu.available = true;
    cpu.capabilities.dynamic_shapes = true;
    cpu.capabilities.placement = true;
    cpu.capabilities.max_dim = INT32_MAX;
    DeviceInfo xnnpack = cpu;
    xnnpack.name = "xnnpack";
    xnnpack.description = "XnnpackBackend (an XNNPACK-lowered .pte)";
    xnnpack.available = et::get_backend_class(kXnnpackBackend) != nullptr;
    if (!xnnpack.available) {
      xnnpack.reason = "the runtime has no XnnpackBackend registered (libexecutorch_backend_xnnpack "
                       "was not loaded)";
    }
    info.devices = {cpu, xnnpack};
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override {
    if (target.device != "cpu" && target.device != "xnnpack") {
      return Status::Error("backend 'executorch' has devices cpu and xnnpack, not '" +
                           target.device + "'");
    }
    return ExecuTorchSession::Create(artifact, target);
  }
};

}  // namespace

BackendDescription DescribeExecuTorchBackend() {
  return {"executorch", "ExecuTorch", {".pte"}, "", ""};
}

std::unique_ptr<Backend> MakeExecuTorchBackend() { return std::make_unique<ExecuTorchBackend>(); }

}  // namespace edgebench
