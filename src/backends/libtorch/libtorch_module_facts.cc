#include "backends/libtorch/libtorch_module_facts.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <torch/csrc/jit/passes/inliner.h>

namespace edgebench {
namespace {

Result<DType> TorchDescriptionDType(const std::string& name, const std::string& where) {
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kInt8, DType::kUInt8, DType::kInt32,
                      DType::kInt64, DType::kBool}) {
    if (DTypeName(dtype) == name) return dtype;
  }
  return Status::Error(where + " has dtype '" + name + "', which edgebench cannot feed");
}

Result<TensorSpec> TorchDescriptionSpec(const nlohmann::json& entry, const std::string& where) {
  TensorSpec spec;
  spec.name = entry.at("name").get<std::string>();
  auto dtype = TorchDescriptionDType(entry.at("dtype").get<std::string>(), where);
  if (!dtype.ok()) return dtype.status();
  spec.dtype = dtype.value();
  const nlohmann::json dynamic = entry.value("dynamic_dims", nlohmann::json::object());
  const auto& shape = entry.at("shape");
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    if (dynamic.contains(std::to_string(axis))) {
      spec.shape.push_back(Dim::Symbol("batch"));
    } else {
      spec.shape.push_back(Dim::Fixed(shape[axis].get<int64_t>()));
    }
  }
  return spec;
}

}  // namespace

Result<Signature> SignatureFromTorchScriptDescription(const std::string& json_text,
                                                      const std::string& path) {
  const std::string where = std::string(kTorchScriptDescriptionFile) + " in " + path;
  const auto json = nlohmann::json::parse(json_text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return Status::Error(where + " is not JSON; re-export the model with scripts/models/export-torch-models");
  }
  Signature signature;
  try {
    for (const char* kind : {"inputs", "outputs"}) {
      for (const auto& entry : json.at(kind)) {
        auto spec = TorchDescriptionSpec(entry, where);
        if (!spec.ok()) return spec.status();
        (std::string(kind) == "inputs" ? signature.inputs : signature.outputs).push_back(spec.value());
      }
    }
  } catch (const std::exception& e) {
    return Status::Error(where + " does not describe the inputs and outputs as the export writes "
                         "them (" + e.what() + "); re-export the model with scripts/models/export-torch-models");
  }
  if (signature.inputs.empty()) return Status::Error(where + " names no inputs");
  return signature;
}

TorchScriptGraphFacts ReadTorchScriptGraph(const torch::jit::Module& module) {
  TorchScriptGraphFacts facts;
  std::shared_ptr<torch::jit::Graph> graph = module.get_method("forward").graph()->copy();
  torch::jit::Inline(*graph);
  // Every block, nested ones (prim::If, prim::Loop) included.
  std::vector<torch::jit::Block*> blocks{graph->block()};
  while (!blocks.empty()) {
    torch::jit::Block* block = blocks.back();
    blocks.pop_back();
    for (torch::jit::Node* node : block->nodes()) {
      for (torch::jit::Block* inner : node->blocks()) blocks.push_back(inner);
      const c10::Symbol kind = node->kind();
      if (kind == c10::prim::fork) ++facts.forks;
      if (kind.is_aten()) {
        ++facts.operators[kind.toQualString()];
        ++facts.operator_nodes;
      } else {
        ++facts.bookkeeping_nodes;
      }
    }
  }
  return facts;
}

std::string MappedBlasNote() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const size_t at = line.find('/');
    if (at == std::string::npos || line.find("libblas.so", at) == std::string::npos) continue;
    const std::string path = line.substr(at);
    std::error_code error;
    const std::string real = std::filesystem::canonical(path, error).string();
    std::string note = "BLAS behind LibTorch's matrix products (aten::linear, aten::matmul): " +
                       (error ? path : real);
    // Debian's libblas3 (netlib's reference BLAS) lives in .../blas/; OpenBLAS, BLIS and others
    // in directories of their own names.
    if (!error && std::filesystem::path(real).parent_path().filename() == "blas") {
      note += " (Debian's reference BLAS from libblas3, unoptimized: install libopenblas0-pthread or "
              "libblis4-pthread so the libblas.so.3 alternative points at an optimized one)";
    }
    return note;
  }
  return "";
}

std::string TorchErrorText(const std::exception& error) {
  const auto* torch_error = dynamic_cast<const c10::Error*>(&error);
  std::string text = torch_error ? torch_error->what_without_backtrace() : error.what();
  // TorchScript's errors quote the serialized code's lines after the message.
  const size_t trace = text.find("\nException raised from");
  if (trace != std::string::npos) text.resize(trace);
  std::string line;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      if (!line.empty() && line.back() != ' ') line += ' ';
    } else {
      line += c;
    }
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

DType FromTorchScalarType(c10::ScalarType type) {
  switch (type) {
    case c10::ScalarType::Float: return DType::kFloat32;
    case c10::ScalarType::Half: return DType::kFloat16;
    case c10::ScalarType::Char: return DType::kInt8;
    case c10::ScalarType::Byte: return DType::kUInt8;
    case c10::ScalarType::Int: return DType::kInt32;
    case c10::ScalarType::Long: return DType::kInt64;
    case c10::ScalarType::Bool: return DType::kBool;
    default: return DType::kUnknown;
  }
}

Result<c10::ScalarType> ToTorchScalarType(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return c10::ScalarType::Float;
    case DType::kFloat16: return c10::ScalarType::Half;
    case DType::kInt8: return c10::ScalarType::Char;
    case DType::kUInt8: return c10::ScalarType::Byte;
    case DType::kInt32: return c10::ScalarType::Int;
    case DType::kInt64: return c10::ScalarType::Long;
    case DType::kBool: return c10::ScalarType::Bool;
    default: return Status::Error("dtype " + DTypeName(dtype) + " has no ATen scalar type");
  }
}

}  // namespace edgebench
