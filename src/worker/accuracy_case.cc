#include "worker/accuracy_case.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/clock.h"
#include "core/dequantize.h"
#include "core/strings.h"
#include "core/layout.h"
#include "inputs/image_input.h"
#include "inputs/labelled_input.h"
#include "plan/resolve_target.h"
#include "stats/accuracy.h"

namespace edgebench {
namespace {

AccuracyResult Fail(AccuracyResult r, const std::string& status, const std::string& stage, const std::string& error) {
  r.status = status;
  r.stage = stage;
  r.error = error;
  return r;
}

// The class-score output: the only output, or the one shaped [1, classes] (or [classes]); float,
// or int8/uint8 with its quantization declared (`declared`: the signature's outputs).
Result<size_t> ScoresOutput(const std::vector<Tensor>& outputs, const std::vector<TensorSpec>& declared) {
  auto is_scores = [](const Tensor& t) {
    return !t.shape.empty() && t.shape.back() >= 2 && t.element_count() == t.shape.back();
  };
  std::vector<size_t> candidates;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (is_scores(outputs[i])) candidates.push_back(i);
  }
  std::string listed;
  for (const Tensor& t : outputs) listed += (listed.empty() ? "" : ", ") + t.name + " " + ShapeToString(t.shape);
  if (candidates.size() != 1) {
    return Status::Error(candidates.empty()
                             ? "no output is class scores shaped [1, classes] (the model gives " + listed + ")"
                             : "several outputs look like class scores [1, classes] (" + listed +
                                   "); accuracy reads one");
  }
  const Tensor& scores = outputs[candidates[0]];
  const bool dequantizable = IsQuantizedType(scores.dtype) && candidates[0] < declared.size() &&
                             !declared[candidates[0]].quantization.empty();
  if (scores.dtype != DType::kFloat32 && !dequantizable) {
    return Status::Error(std::string(kQuantizedWithoutParameters) + ": output '" + scores.name + "' is " +
                         DTypeName(scores.dtype) + " and its runtime declares no quantization for it");
  }
  return candidates[0];
}

}  // namespace

nlohmann::json AccuracyRequestToJson(const AccuracyRequest& r) {
  return {{"mode", "accuracy"},
          {"model", r.model},
          {"artifact", r.artifact.path},
          {"artifact_layout", LayoutName(r.artifact.layout)},
          {"target", r.target.text},
          {"data", DataSetSpecToJson(r.data)},
          {"preprocess", r.preprocess},
          {"labels", r.labels},
          {"warmup", r.warmup}};
}

Result<AccuracyRequest> AccuracyRequestFromJson(const nlohmann::json& j) {
  try {
    AccuracyRequest r;
    r.model = j.at("model").get<std::string>();
    r.artifact.path = j.at("artifact").get<std::string>();
    auto layout = ParseLayout(j.at("artifact_layout").get<std::string>(), "the artifact");
    if (!layout.ok()) return layout.status();
    r.artifact.layout = layout.value();
    auto target = ReadCaseTarget(j);
    if (!target.ok()) return target.status();
    r.target = target.take();
    r.data = DataSetSpecFromJson(j.at("data"));
    r.preprocess = j.at("preprocess").get<std::string>();
    r.labels = j.at("labels").get<std::vector<std::string>>();
    r.warmup = j.at("warmup").get<int64_t>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed accuracy request: ") + e.what());
  }
}

nlohmann::json AccuracyResultToJson(const AccuracyResult& r) {
  return {{"status", r.status},
          {"stage", r.stage},
          {"error", r.error},
          {"effective_target", r.effective_target},
          {"artifact", r.artifact},
          {"placement", {{"known", r.placement.known}, {"nodes_by_device", r.placement.nodes_by_device}}},
          {"notes", r.notes},
          {"data_description", r.data_description},
          {"data_total", r.data_total},
          {"data_classes", r.data_classes},
          {"input", r.input},
          {"output", r.output},
          {"classes", r.classes},
          {"load_ns", r.load_ns},
          {"warmup", r.warmup},
          {"labels", r.labels},
          {"top1", r.top1},
          {"in_top5", r.in_top5},
          {"preprocess_ns", r.preprocess_ns},
          {"inference_ns", r.inference_ns},
          {"nonfinite_outputs", r.nonfinite_outputs}};
}

Result<AccuracyResult> AccuracyResultFromJson(const nlohmann::json& j) {
  try {
    AccuracyResult r;
    r.status = j.at("status").get<std::string>();
    r.stage = j.at("stage").get<std::string>();
    r.error = j.at("error").get<std::string>();
    r.effective_target = j.at("effective_target").get<std::string>();
    r.artifact = j.at("artifact").get<std::string>();
    r.placement.known = j.at("placement").at("known").get<bool>();
    r.placement.nodes_by_device = j.at("placement").at("nodes_by_device").get<std::map<std::string, int>>();
    r.notes = j.at("notes").get<std::vector<std::string>>();
    r.data_description = j.at("data_description").get<std::string>();
    r.data_total = j.at("data_total").get<int64_t>();
    r.data_classes = j.at("data_classes").get<int32_t>();
    r.input = j.at("input").get<std::string>();
    r.output = j.at("output").get<std::string>();
    r.classes = j.at("classes").get<int64_t>();
    r.load_ns = j.at("load_ns").get<int64_t>();
    r.warmup = j.at("warmup").get<int64_t>();
    r.labels = j.at("labels").get<std::vector<int32_t>>();
    r.top1 = j.at("top1").get<std::vector<int32_t>>();
    r.in_top5 = j.at("in_top5").get<std::vector<bool>>();
    r.preprocess_ns = j.at("preprocess_ns").get<std::vector<int64_t>>();
    r.inference_ns = j.at("inference_ns").get<std::vector<int64_t>>();
    r.nonfinite_outputs = j.at("nonfinite_outputs").get<int64_t>();
    const size_t n = r.labels.size();
    if (r.top1.size() != n || r.in_top5.size() != n || r.preprocess_ns.size() != n || r.inference_ns.size() != n) {
      return Status::Error("malformed accuracy result: per-image lists of different lengths");
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed accuracy result: ") + e.what());
  }
}

AccuracyResult RunAccuracyCase(const AccuracyRequest& request, Registry& registry, const StageCallback& on_stage) {
  auto stage = [&](const std::string& name) {
    if (on_stage) on_stage(name);
  };
  AccuracyResult r;
  r.artifact = request.artifact.path;
  r.effective_target = request.target.text;
  auto preprocess = ParseImagePreprocess(request.preprocess);
  if (!preprocess.ok()) return Fail(r, "failed", "inputs", "--preprocess: " + preprocess.error());
  const TargetResolution resolution = ResolveTarget(request.target, registry, SessionKind::kTensor);
  if (!resolution.resolved) return Fail(r, CaseStatusName(resolution.status), "target", resolution.error);
  const ResolvedTarget& target = *resolution.resolved;

  stage("load");
  const int64_t load_start = NowNs();
  auto session = target.backend->Load(Artifact{request.artifact.path}, target.target);
  if (!session.ok()) return Fail(r, "failed", "load", session.error());
  r.load_ns = NowNs() - load_start;
  Session& s = *session.value();
  r.placement = s.GetPlacement();
  Target effective = target.target;
  for (const auto& [key, value] : s.effective_options()) effective.options[key] = value;
  r.effective_target = effective.Canonical();

  stage("data");
  auto data = LoadLabelledImages(request.data);
  if (!data.ok()) return Fail(r, "failed", "data", data.error());
  const LabelledImages& images = data.value();
  r.data_description = images.description;
  r.data_total = images.total;
  r.data_classes = images.classes;

  stage("inputs");
  const Signature& signature = s.signature();
  if (signature.inputs.size() != 1) {
    return Fail(r, "failed", "inputs",
                "the model has " + std::to_string(signature.inputs.size()) +
                    " inputs; accuracy feeds an image classifier's one image input");
  }
  auto plan = PlanLabelledInput(signature.inputs[0], images, preprocess.value(), request.artifact.layout);
  if (!plan.ok()) return Fail(r, "failed", "inputs", plan.error());
  r.input = plan.value().description;
  for (const std::string& note : plan.value().notes) r.notes.push_back(note);
  auto make_input = [&](int64_t index) { return LabelledInput(plan.value(), images, index); };

  stage("prepare");
  if (Status p = s.Prepare({plan.value().shape}); !p.ok()) return Fail(r, "failed", "prepare", p.message());

  stage("warmup");
  std::vector<Tensor> outputs;
  auto first = make_input(0);
  if (!first.ok()) return Fail(r, "failed", "inputs", first.error());
  const std::vector<Tensor> first_inputs = {first.take()};
  for (int64_t i = 0; i < std::max<int64_t>(request.warmup, 1); ++i) {
    if (Status run = s.Run(first_inputs, outputs); !run.ok()) return Fail(r, "failed", "warmup", run.message());
    ++r.warmup;
  }
  auto scores_index = ScoresOutput(outputs, signature.outputs);
  if (!scores_index.ok()) return Fail(r, "failed", "outputs", scores_index.error());
  const size_t scores = scores_index.value();
  r.classes = outputs[scores].shape.back();
  r.output = outputs[scores].name + " " + ShapeToString(outputs[scores].shape);
  // Quantized class scores are dequantized before ranking (the ranking is the same, but ties
  // and the values in errors are the real ones).
  const TensorQuantization scores_quantization =
      outputs[scores].dtype != DType::kFloat32 ? signature.outputs[scores].quantization : TensorQuantization{};
  if (!scores_quantization.empty()) {
    r.notes.push_back("output '" + outputs[scores].name + "' is " + DTypeName(outputs[scores].dtype) +
                      ": dequantized with the model's scale " + FormatNumber("%.6g", scores_quantization.scales[0]) +
                      " and zero point " + std::to_string(scores_quantization.zero_points[0]) + " before ranking");
  }
  const int64_t max_label = *std::max_element(images.labels.begin(), images.labels.end());
  if (!request.labels.empty() && static_cast<int64_t>(request.labels.size()) != r.classes) {
    return Fail(r, "failed", "outputs",
                "output '" + outputs[scores].name + "' has " + std::to_string(r.classes) +
                    " classes but the manifest names " + std::to_string(request.labels.size()) +
                    " labels: the manifest's labels or the model are wrong");
  }
  if (r.classes < images.classes || r.classes <= max_label) {
    return Fail(r, "failed", "outputs",
                "output '" + outputs[scores].name + "' has " + std::to_string(r.classes) + " classes but the data set (" +
                    images.description + ") has " + std::to_string(std::max<int64_t>(images.classes, max_label + 1)) +
                    " (labels up to " + std::to_string(max_label) + "): is this model trained on this data set?");
  }
  if (r.classes > images.classes && images.classes > 0) {
    r.notes.push_back("the model has " + std::to_string(r.classes) + " classes, the data set " +
                      std::to_string(images.classes) + ": predictions of the others count as wrong");
  }

  stage("run");
  const auto n = static_cast<size_t>(images.count);
  r.labels = images.labels;
  r.top1.reserve(n);
  r.in_top5.reserve(n);
  r.preprocess_ns.reserve(n);
  r.inference_ns.reserve(n);
  std::vector<Tensor> inputs(1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t t0 = NowNs();
    auto tensor = make_input(static_cast<int64_t>(i));
    const int64_t t1 = NowNs();
    if (!tensor.ok()) return Fail(r, "failed", "inputs", tensor.error());
    inputs[0] = tensor.take();
    const int64_t t2 = NowNs();
    Status run = s.Run(inputs, outputs);
    const int64_t t3 = NowNs();
    if (!run.ok()) return Fail(r, "failed", "run", "image " + std::to_string(i) + ": " + run.message());
    r.preprocess_ns.push_back(t1 - t0);
    r.inference_ns.push_back(t3 - t2);
    Tensor dequantized;
    if (!scores_quantization.empty() && IsQuantizedType(outputs[scores].dtype)) {
      auto real = DequantizeAffine(outputs[scores], scores_quantization.scales, scores_quantization.zero_points,
                                   scores_quantization.axis);
      if (!real.ok()) return Fail(r, "failed", "run", "image " + std::to_string(i) + ": " + real.error());
      dequantized = real.take();
    }
    const Tensor& out = scores_quantization.empty() ? outputs[scores] : dequantized;
    if (out.dtype != DType::kFloat32 || out.element_count() != r.classes) {
      return Fail(r, "failed", "run",
                  "image " + std::to_string(i) + ": output '" + out.name + "' changed to " + DTypeName(out.dtype) +
                      " " + ShapeToString(out.shape));
    }
    const float* values = reinterpret_cast<const float*>(out.data.data());
    const bool finite = std::all_of(values, values + r.classes, [](float v) { return std::isfinite(v); });
    if (!finite) ++r.nonfinite_outputs;
    const std::vector<int32_t> top = TopClasses(values, r.classes, 5);
    r.top1.push_back(std::isnan(values[top[0]]) ? -1 : top[0]);
    r.in_top5.push_back(std::find(top.begin(), top.end(), images.labels[i]) != top.end() &&
                        !std::isnan(values[images.labels[i]]));
  }
  for (const std::string& note : s.notes()) r.notes.push_back(note);
  return r;
}

}  // namespace edgebench
