#include "worker/outputs_case.h"

#include "worker/pipeline_case.h"

#include "core/layout.h"
#include "core/tensor_json.h"
#include "inputs/image_input.h"
#include "inputs/input_generator.h"
#include "plan/resolve_target.h"

namespace edgebench {
namespace {

// Converts 4-D tensors from one declared layout to another; unknown layouts: unchanged.
std::vector<Tensor> Convert(const std::vector<Tensor>& tensors, Layout from, Layout to) {
  if (from == Layout::kAny || to == Layout::kAny || from == to) return tensors;
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) out.push_back(Transpose4D(t, to == Layout::kNhwc));
  return out;
}

nlohmann::json TensorsToJson(const std::vector<Tensor>& tensors) {
  nlohmann::json list = nlohmann::json::array();
  for (const Tensor& t : tensors) list.push_back(TensorToJson(t));
  return list;
}

Result<std::vector<Tensor>> TensorsFromJson(const nlohmann::json& list) {
  std::vector<Tensor> tensors;
  for (const auto& j : list) {
    auto t = TensorFromJson(j);
    if (!t.ok()) return t.status();
    tensors.push_back(t.take());
  }
  return tensors;
}

OutputsResult Fail(OutputsResult r, const std::string& status, const std::string& stage,
                   const std::string& error) {
  r.status = status;
  r.stage = stage;
  r.error = error;
  return r;
}

// One uint8 input [1,H,W,3]: the model takes an RGB picture as it is.
bool TakesImagePixels(const std::vector<TensorSpec>& inputs) {
  if (inputs.size() != 1 || inputs[0].dtype != DType::kUInt8 || inputs[0].shape.size() != 4) return false;
  const auto& shape = inputs[0].shape;
  return (!shape[0].fixed() || shape[0].size == 1) && shape[3].fixed() && shape[3].size == 3;
}

}  // namespace

nlohmann::json OutputsRequestToJson(const OutputsRequest& r) {
  return {{"mode", "outputs"},
          {"model", r.model},
          {"artifact", r.artifact.path},
          {"artifact_layout", LayoutName(r.artifact.layout)},
          {"compare_layout", LayoutName(r.compare_layout)},
          {"target", r.target.text},
          {"dims", r.dims},
          {"seed", r.seed},
          {"inputs", TensorsToJson(r.inputs)},
          {"image", r.image},
          {"image_preprocess", r.image_preprocess},
          {"pipeline", r.pipeline ? PipelinePlanToJson(*r.pipeline) : nlohmann::json()}};
}

Result<OutputsRequest> OutputsRequestFromJson(const nlohmann::json& j) {
  try {
    OutputsRequest r;
    r.model = j.at("model").get<std::string>();
    r.artifact.path = j.at("artifact").get<std::string>();
    auto artifact_layout = ParseLayout(j.at("artifact_layout").get<std::string>(), "the artifact");
    auto compare_layout = ParseLayout(j.at("compare_layout").get<std::string>(), "the comparison");
    if (!artifact_layout.ok()) return artifact_layout.status();
    if (!compare_layout.ok()) return compare_layout.status();
    r.artifact.layout = artifact_layout.value();
    r.compare_layout = compare_layout.value();
    auto target = ReadCaseTarget(j);
    if (!target.ok()) return target.status();
    r.target = target.take();
    r.dims = j.at("dims").get<ShapeBindings>();
    r.seed = j.at("seed").get<uint64_t>();
    auto inputs = TensorsFromJson(j.at("inputs"));
    if (!inputs.ok()) return inputs.status();
    r.inputs = inputs.take();
    r.image = j.at("image").get<std::string>();
    r.image_preprocess = j.at("image_preprocess").get<std::string>();
    if (j.contains("pipeline") && !j.at("pipeline").is_null()) {
      auto plan = PipelinePlanFromJson(j.at("pipeline"), r.target.text);
      if (!plan.ok()) return plan.status();
      r.pipeline = plan.take();
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed outputs request: ") + e.what());
  }
}

nlohmann::json OutputsResultToJson(const OutputsResult& r) {
  return {{"status", r.status},
          {"stage", r.stage},
          {"error", r.error},
          {"effective_target", r.effective_target},
          {"artifact", r.artifact},
          {"inputs", TensorsToJson(r.inputs)},
          {"outputs", TensorsToJson(r.outputs)},
          {"placement", {{"known", r.placement.known}, {"nodes_by_device", r.placement.nodes_by_device}}}};
}

Result<OutputsResult> OutputsResultFromJson(const nlohmann::json& j) {
  try {
    OutputsResult r;
    r.status = j.at("status").get<std::string>();
    r.stage = j.at("stage").get<std::string>();
    r.error = j.at("error").get<std::string>();
    r.effective_target = j.at("effective_target").get<std::string>();
    r.artifact = j.at("artifact").get<std::string>();
    auto inputs = TensorsFromJson(j.at("inputs"));
    auto outputs = TensorsFromJson(j.at("outputs"));
    if (!inputs.ok()) return inputs.status();
    if (!outputs.ok()) return outputs.status();
    r.inputs = inputs.take();
    r.outputs = outputs.take();
    r.placement.known = j.at("placement").at("known").get<bool>();
    r.placement.nodes_by_device = j.at("placement").at("nodes_by_device").get<std::map<std::string, int>>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed outputs result: ") + e.what());
  }
}

OutputsResult RunOutputsCase(const OutputsRequest& request, Registry& registry,
                             const StageCallback& on_stage) {
  auto stage = [&](const std::string& name) {
    if (on_stage) on_stage(name);
  };
  OutputsResult r;
  r.artifact = request.artifact.path;
  r.effective_target = request.target.text;
  if (request.pipeline) {
    stage("run");
    PipelineOnce once = RunPipelineOnce(*request.pipeline, registry);
    if (!once.effective_target.empty()) r.effective_target = once.effective_target;
    if (!once.error.empty()) return Fail(r, CaseStatusName(once.status), once.stage, once.error);
    r.outputs = std::move(once.outputs);
    return r;
  }
  const TargetResolution resolution = ResolveTarget(request.target, registry, SessionKind::kTensor);
  if (!resolution.resolved) return Fail(r, CaseStatusName(resolution.status), "target", resolution.error);
  const ResolvedTarget& target = *resolution.resolved;
  stage("load");
  auto session = target.backend->Load(Artifact{request.artifact.path}, target.target);
  if (!session.ok()) return Fail(r, "failed", "load", session.error());
  Session& s = *session.value();
  r.placement = s.GetPlacement();
  Target effective = target.target;
  for (const auto& [key, value] : s.effective_options()) effective.options[key] = value;
  r.effective_target = effective.Canonical();

  stage("inputs");
  std::vector<Tensor> given = request.inputs;
  std::vector<Tensor> inputs;
  std::vector<std::vector<int64_t>> shapes;
  if (!request.image.empty()) {
    auto preprocess = ParseImagePreprocess(request.image_preprocess);
    if (!preprocess.ok()) return Fail(r, "failed", "inputs", preprocess.error());
    if (request.compare_layout != Layout::kAny) preprocess.value().layout = request.compare_layout;
    const auto& specs = s.signature().inputs;
    if (TakesImagePixels(specs)) {
      // A model that takes the picture itself gets the same resampled pixels, unnormalized, at
      // the --preprocess size (else at its declared size), in its own layout.
      ImagePreprocess pixels = preprocess.value();
      if (!pixels.width && specs[0].shape[2].fixed()) pixels.width = static_cast<int>(specs[0].shape[2].size);
      if (!pixels.height && specs[0].shape[1].fixed()) pixels.height = static_cast<int>(specs[0].shape[1].size);
      auto image = LoadImagePixels(request.image, pixels);
      if (!image.ok()) return Fail(r, "failed", "inputs", image.error());
      for (size_t k = 1; k < 3; ++k) {
        if (specs[0].shape[k].fixed() && specs[0].shape[k].size != image.value().shape[k]) {
          return Fail(r, "failed", "inputs",
                      "input '" + specs[0].name + "' is uint8 " + ShapeToString(specs[0].shape) +
                          " but --preprocess makes the image " + ShapeToString(image.value().shape) +
                          "; give --preprocess resize=WxH at the model's size");
        }
      }
      inputs = {image.take()};
      inputs[0].name = specs[0].name;
      shapes = {inputs[0].shape};
    } else {
      auto image = LoadImageTensor(request.image, preprocess.value());
      if (!image.ok()) return Fail(r, "failed", "inputs", image.error());
      given = {image.take()};
    }
  }
  if (!inputs.empty()) {
    // The image's pixels, made above.
  } else if (given.empty()) {
    auto resolved = ResolveInputShapes(s.signature(), request.dims);
    if (!resolved.ok()) return Fail(r, "failed", "inputs", resolved.error());
    if (Status used = CheckBindingsUsed(s.signature(), request.dims); !used.ok()) {
      return Fail(r, "failed", "inputs", used.message());
    }
    shapes = resolved.take();
    for (size_t i = 0; i < shapes.size(); ++i) {
      auto size = CheckedSize(shapes[i], s.signature().inputs[i].dtype, target.device.capabilities.max_dim,
                              "input '" + s.signature().inputs[i].name + "'");
      if (!size.ok()) return Fail(r, "failed", "inputs", size.error());
    }
    auto generated = GenerateInputs(s.signature(), shapes, request.seed);
    if (!generated.ok()) return Fail(r, "failed", "inputs", generated.error());
    inputs = generated.take();
  } else {
    inputs = Convert(given, request.compare_layout, request.artifact.layout);
    given.clear();
    const auto& specs = s.signature().inputs;
    if (inputs.size() != specs.size()) {
      return Fail(r, "failed", "inputs",
                  "the artifact has " + std::to_string(specs.size()) + " inputs but " +
                      std::to_string(inputs.size()) + " were given");
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto& spec = specs[i];
      bool fits = spec.dtype == inputs[i].dtype && spec.shape.size() == inputs[i].shape.size();
      for (size_t k = 0; fits && k < spec.shape.size(); ++k) {
        fits = !spec.shape[k].fixed() || spec.shape[k].size == inputs[i].shape[k];
      }
      if (!fits) {
        return Fail(r, "failed", "inputs",
                    "input " + std::to_string(i) + " ('" + spec.name + "') is " +
                        DTypeName(spec.dtype) + " " + ShapeToString(spec.shape) + " but the given tensor is " +
                        DTypeName(inputs[i].dtype) + " " + ShapeToString(inputs[i].shape) +
                        " (declare each artifact's layout if they differ)");
      }
      inputs[i].name = spec.name;
      shapes.push_back(inputs[i].shape);
    }
  }
  stage("prepare");
  if (Status p = s.Prepare(shapes); !p.ok()) return Fail(r, "failed", "prepare", p.message());
  stage("run");
  std::vector<Tensor> outputs;
  if (Status run = s.Run(inputs, outputs); !run.ok()) return Fail(r, "failed", "run", run.message());
  // The caller has the image's spec; the tensor would only be image-sized memory there.
  if (request.image.empty()) r.inputs = Convert(inputs, request.artifact.layout, request.compare_layout);
  r.outputs = Convert(outputs, request.artifact.layout, request.compare_layout);
  return r;
}

}  // namespace edgebench
