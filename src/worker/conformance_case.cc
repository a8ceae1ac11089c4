#include "worker/conformance_case.h"

#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <thread>

#include "core/clock.h"
#include "core/placement.h"
#include "core/strings.h"
#include "diagnose/conformance_check.h"
#include "plan/resolve_target.h"

namespace edgebench {

namespace {

// The planted misbehaviour of `case_name` (kConformancePlantVariable), "" for none.
std::string ConformancePlantFor(const std::string& case_name) {
  const char* value = std::getenv(kConformancePlantVariable);
  if (value == nullptr) return "";
  for (const std::string& entry : SplitList(value)) {
    const auto colon = entry.find(':');
    if (colon != std::string::npos && entry.substr(colon + 1) == case_name) return entry.substr(0, colon);
  }
  return "";
}

void SetConformanceAlarm(int64_t ms) {
  itimerval timer{};
  timer.it_value.tv_sec = ms / 1000;
  timer.it_value.tv_usec = static_cast<suseconds_t>((ms % 1000) * 1000);
  ::setitimer(ITIMER_REAL, &timer, nullptr);
}

ConformanceCell FinishConformanceCell(ConformanceCell cell, ConformanceState state, std::string detail) {
  cell.state = state;
  cell.detail = std::move(detail);
  return cell;
}

// The case's inputs in the session's order: by name where the names match, else by position.
Result<std::vector<Tensor>> ConformanceInputsInOrder(std::vector<Tensor> given, const Signature& signature) {
  if (given.size() != signature.inputs.size()) {
    return Status::Error("the runtime's model takes " + std::to_string(signature.inputs.size()) +
                         " inputs where the case gives " + std::to_string(given.size()));
  }
  std::vector<Tensor> ordered;
  for (const TensorSpec& spec : signature.inputs) {
    auto it = std::find_if(given.begin(), given.end(), [&](const Tensor& t) { return t.name == spec.name; });
    if (it == given.end()) return given;  // the runtime renames inputs: the case's order is the graph's
    ordered.push_back(std::move(*it));
    given.erase(it);
  }
  return ordered;
}

ConformanceCell RunOneConformanceCase(const ConformanceCase& c, const ConformanceRequest& request, const ResolvedTarget& target,
                           ConformanceCell cell) {
  const std::string plant = ConformancePlantFor(c.name);
  if (plant == "crash") std::abort();
  if (plant == "hang") {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  const std::string model = (std::filesystem::path(request.cases_dir) / c.model).string();
  auto session = target.backend->Load(Artifact{model}, target.target);
  if (!session.ok()) return FinishConformanceCell(cell, ConformanceState::kRefused, session.error());
  Session& s = *session.value();
  const Placement placement = s.GetPlacement();
  cell.ran_on = PlacementText(placement, target.target.device);
  cell.fell_back = target.target.device != "cpu" && CpuFallbackText(placement, target.target.device).has_value();
  for (size_t k = 0; k < c.data_sets.size(); ++k) {
    const ConformanceDataSet& set = c.data_sets[k];
    const std::string which = c.data_sets.size() > 1 ? "data set " + std::to_string(k) + ": " : "";
    std::vector<Tensor> inputs;
    std::vector<Tensor> expected;
    for (const ConformanceTensor& t : set.inputs) {
      auto tensor = ReadConformanceTensor(request.cases_dir, t);
      if (!tensor.ok()) return FinishConformanceCell(cell, ConformanceState::kError, which + tensor.error());
      inputs.push_back(tensor.take());
    }
    for (const ConformanceTensor& t : set.outputs) {
      auto tensor = ReadConformanceTensor(request.cases_dir, t);
      if (!tensor.ok()) return FinishConformanceCell(cell, ConformanceState::kError, which + tensor.error());
      expected.push_back(tensor.take());
    }
    auto ordered = ConformanceInputsInOrder(std::move(inputs), s.signature());
    if (!ordered.ok()) return FinishConformanceCell(cell, ConformanceState::kError, which + ordered.error());
    std::vector<std::vector<int64_t>> shapes;
    for (const Tensor& t : ordered.value()) shapes.push_back(t.shape);
    if (Status prepared = s.Prepare(shapes); !prepared.ok()) {
      return FinishConformanceCell(cell, ConformanceState::kError, which + "prepare: " + prepared.message());
    }
    std::vector<Tensor> outputs;
    const auto start = SteadyClock::now();
    Status ran = s.Run(ordered.value(), outputs);
    if (k == 0) cell.run_ms = static_cast<double>(ElapsedNs(start, SteadyClock::now())) / 1e6;
    if (!ran.ok()) return FinishConformanceCell(cell, ConformanceState::kError, which + "run: " + ran.message());
    if (plant == "wrong" && !outputs.empty() && !outputs[0].data.empty()) {
      // A mutant answer: the first value one larger, in the output's own type.
      Tensor& first = outputs[0];
      switch (first.dtype) {
        case DType::kFloat32: first.as<float>()[0] += 1.0f; break;
        case DType::kInt64: first.as<int64_t>()[0] += 1; break;
        case DType::kInt32: first.as<int32_t>()[0] += 1; break;
        default: first.data[0] = static_cast<std::byte>(static_cast<unsigned char>(first.data[0]) ^ 0x01); break;
      }
    }
    const OutputVerdict verdict = CompareOutputs(outputs, expected, {c.rtol, c.atol});
    if (!verdict.pass) {
      cell.max_error = verdict.max_error;
      return FinishConformanceCell(cell, ConformanceState::kWrong, which + verdict.detail);
    }
  }
  return FinishConformanceCell(cell, ConformanceState::kPass, "");
}

}  // namespace

nlohmann::json ConformanceRequestToJson(const ConformanceRequest& request) {
  nlohmann::json cases = nlohmann::json::array();
  for (const ConformanceCase& c : request.cases) cases.push_back(ConformanceCaseToJson(c));
  return {{"mode", "conformance"},
          {"target", request.target},
          {"cases_dir", request.cases_dir},
          {"onnx_version", request.onnx_version},
          {"case_timeout_ms", request.case_timeout_ms},
          {"cases", cases}};
}

Result<ConformanceRequest> ConformanceRequestFromJson(const nlohmann::json& json) {
  ConformanceRequest request;
  try {
    request.target = json.at("target").get<std::string>();
    request.cases_dir = json.at("cases_dir").get<std::string>();
    request.onnx_version = json.at("onnx_version").get<std::string>();
    request.case_timeout_ms = json.at("case_timeout_ms").get<int64_t>();
    for (const auto& c : json.at("cases")) {
      auto parsed = ConformanceCaseFromJson(c);
      if (!parsed.ok()) return Status::Error("malformed conformance request: " + parsed.error());
      request.cases.push_back(parsed.take());
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed conformance request: ") + e.what());
  }
  return request;
}

ConformanceCell BlankConformanceCell(const ConformanceCase& c, const ConformanceRuntime& runtime,
                                     const std::string& onnx_version) {
  ConformanceCell cell;
  cell.target = runtime.target;
  cell.runtime = runtime.runtime;
  cell.runtime_version = runtime.version;
  cell.onnx_version = onnx_version;
  cell.case_name = c.name;
  cell.op = c.op;
  cell.domain = c.domain;
  cell.family = c.family;
  cell.expanded = c.expanded;
  return cell;
}

void RunConformanceCases(const ConformanceRequest& request, Registry& registry, const ConformanceCallbacks& callbacks) {
  ConformanceRuntime runtime;
  auto parsed = ParseTarget(request.target);
  std::optional<ResolvedTarget> target;
  if (!parsed.ok()) {
    runtime.target = request.target;
    runtime.error = parsed.error();
  } else {
    runtime.target = parsed.value().Canonical();
    const TargetResolution resolution = ResolveTarget(parsed.value(), registry, SessionKind::kTensor);
    if (resolution.resolved) {
      target = resolution.resolved;
      runtime.runtime = target->backend_info.runtime;
      runtime.version = target->backend_info.version;
      const auto& extensions = target->backend_info.artifact_extensions;
      if (std::find(extensions.begin(), extensions.end(), ".onnx") == extensions.end()) {
        std::string reads;
        for (const std::string& e : extensions) reads += (reads.empty() ? "" : ", ") + e;
        runtime.error = runtime.runtime + " reads " + (reads.empty() ? "no model files" : reads) +
                        ", not ONNX models: ONNX's node tests run on targets that read .onnx (ort, openvino, opencv)";
        target.reset();
      }
    } else {
      runtime.error = resolution.error;
    }
  }
  if (callbacks.runtime) callbacks.runtime(runtime);
  if (!target) return;
  for (size_t i = 0; i < request.cases.size(); ++i) {
    const ConformanceCase& c = request.cases[i];
    if (callbacks.begin) callbacks.begin(i);
    if (request.case_timeout_ms > 0) SetConformanceAlarm(request.case_timeout_ms);
    ConformanceCell cell = RunOneConformanceCase(c, request, *target, BlankConformanceCell(c, runtime, request.onnx_version));
    SetConformanceAlarm(0);
    if (callbacks.cell) callbacks.cell(i, cell);
  }
}

}  // namespace edgebench
