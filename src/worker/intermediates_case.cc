#include "worker/intermediates_case.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "core/dequantize.h"
#include "core/tensor_values.h"
#include "inputs/image_input.h"
#include "inputs/labelled_input.h"
#include "plan/resolve_target.h"

namespace edgebench {
namespace {

nlohmann::json DumpedToJson(const DumpedTensor& t) {
  return {{"name", t.name}, {"node", t.node}, {"op_type", t.op_type}, {"dtype", t.dtype},
          {"dequantized", t.dequantized}, {"shape", t.shape}, {"file", t.file}, {"skip_reason", t.skip_reason}};
}

DumpedTensor DumpedFromJson(const nlohmann::json& j) {
  DumpedTensor t;
  t.name = j.at("name").get<std::string>();
  t.node = j.at("node").get<std::string>();
  t.op_type = j.at("op_type").get<std::string>();
  t.dtype = j.at("dtype").get<std::string>();
  t.dequantized = j.at("dequantized").get<bool>();
  t.shape = j.at("shape").get<std::vector<int64_t>>();
  t.file = j.at("file").get<std::string>();
  t.skip_reason = j.at("skip_reason").get<std::string>();
  return t;
}

IntermediatesResult Fail(IntermediatesResult r, const std::string& stage, const std::string& error,
                         const std::string& status = "failed") {
  r.status = status;
  r.stage = stage;
  r.error = error;
  return r;
}

// Appends sample after sample of each named tensor to its own file, as float32.
class TensorFiles {
 public:
  TensorFiles(std::string dir, std::string prefix) : dir_(std::move(dir)), prefix_(std::move(prefix)) {}

  // The first sample fixes a tensor's shape; a later sample of another shape, or one where the
  // tensor is missing, makes it skipped (its file then stops being read).
  Status Append(const Tensor& tensor, const std::string& node, const std::string& op_type, bool dequantized,
                int64_t sample) {
    auto found = index_.find(tensor.name);
    if (found == index_.end()) {
      DumpedTensor d{tensor.name, node, op_type, DTypeName(tensor.dtype), dequantized, tensor.shape, "", ""};
      if (sample > 0) d.skip_reason = "absent from the first sample";
      found = index_.emplace(tensor.name, tensors_.size()).first;
      if (d.skip_reason.empty()) d.file = dir_ + "/" + prefix_ + std::to_string(tensors_.size()) + ".f32";
      tensors_.push_back(std::move(d));
    }
    DumpedTensor& d = tensors_[found->second];
    if (!d.skip_reason.empty()) return Status::Ok();
    if (d.shape != tensor.shape) {
      d.skip_reason = "its shape changed across samples (" + ShapeToString(d.shape) + ", then " +
                      ShapeToString(tensor.shape) + ")";
      return Status::Ok();
    }
    auto values = TensorValues(tensor);
    if (!values.ok()) {
      d.skip_reason = "not numeric (" + DTypeName(tensor.dtype) + ")";
      return Status::Ok();
    }
    std::vector<float> floats(values.value().begin(), values.value().end());
    std::ofstream out(d.file, std::ios::binary | std::ios::app);
    out.write(reinterpret_cast<const char*>(floats.data()), static_cast<std::streamsize>(floats.size() * sizeof(float)));
    if (!out) return Status::Error("cannot write tensor '" + d.name + "' to '" + d.file + "' (disk full?)");
    seen_[found->second] = sample;
    return Status::Ok();
  }

  // Tensors a sample did not give are skipped from then on.
  void EndSample(int64_t sample) {
    for (size_t i = 0; i < tensors_.size(); ++i) {
      if (tensors_[i].skip_reason.empty() && seen_[i] != sample) {
        tensors_[i].skip_reason = "absent from sample " + std::to_string(sample);
      }
    }
  }

  std::vector<DumpedTensor> Take() {
    for (DumpedTensor& d : tensors_) {
      if (!d.skip_reason.empty() && !d.file.empty()) {
        std::error_code ec;
        std::filesystem::remove(d.file, ec);
        d.file.clear();
      }
    }
    return std::move(tensors_);
  }

 private:
  std::string dir_;
  std::string prefix_;
  std::map<std::string, size_t> index_;
  std::map<size_t, int64_t> seen_;  // tensor -> the last sample that gave it
  std::vector<DumpedTensor> tensors_;
};

struct LabelledPool {
  std::vector<std::vector<Tensor>> samples;
  std::vector<std::string> provenance;
};

// The data set's images as the model's one input, one sample each.
Result<LabelledPool> LabelledSamples(const IntermediatesRequest& request, const Signature& signature) {
  if (signature.inputs.size() != 1) {
    return Status::Error("the model has " + std::to_string(signature.inputs.size()) +
                         " inputs; --data feeds an image model's one image input");
  }
  auto preprocess = ParseImagePreprocess(request.preprocess);
  if (!preprocess.ok()) return preprocess.status();
  auto images = LoadLabelledImages(request.data);
  if (!images.ok()) return images.status();
  auto plan = PlanLabelledInput(signature.inputs[0], images.value(), preprocess.value(), request.artifact_layout);
  if (!plan.ok()) return plan.status();
  LabelledPool pool;
  for (int64_t i = 0; i < images.value().count; ++i) {
    auto tensor = LabelledInput(plan.value(), images.value(), i);
    if (!tensor.ok()) return tensor.status();
    pool.samples.push_back({tensor.take()});
  }
  if (pool.samples.empty()) return Status::Error("the data set range holds no image: " + images.value().description);
  std::string provenance = images.value().description + ", preprocessed " + request.preprocess + " as " +
                           plan.value().description;
  for (const std::string& note : plan.value().notes) provenance += "; " + note;
  pool.provenance = {provenance};
  return pool;
}

}  // namespace

nlohmann::json IntermediatesRequestToJson(const IntermediatesRequest& r) {
  return {{"mode", "intermediates"}, {"model", r.model},   {"artifact", r.artifact},
          {"target", r.target.text},      {"dims", r.dims},     {"inputs", InputOptionsToJson(r.inputs)},
          {"out_dir", r.out_dir},    {"expose", r.expose},
          {"data", DataSetSpecToJson(r.data)},
          {"preprocess", r.preprocess},
          {"artifact_layout", LayoutName(r.artifact_layout)}};
}

Result<IntermediatesRequest> IntermediatesRequestFromJson(const nlohmann::json& j) {
  try {
    IntermediatesRequest r;
    r.model = j.at("model").get<std::string>();
    r.artifact = j.at("artifact").get<std::string>();
    auto target = ReadCaseTarget(j);
    if (!target.ok()) return target.status();
    r.target = target.take();
    r.dims = j.at("dims").get<ShapeBindings>();
    auto inputs = InputOptionsFromJson(j.at("inputs"));
    if (!inputs.ok()) return inputs.status();
    r.inputs = inputs.take();
    r.out_dir = j.at("out_dir").get<std::string>();
    r.expose = j.at("expose").get<bool>();
    if (j.contains("data")) {
      r.data = DataSetSpecFromJson(j.at("data"));
      r.preprocess = j.at("preprocess").get<std::string>();
      auto layout = ParseLayout(j.at("artifact_layout").get<std::string>(), "the artifact");
      if (!layout.ok()) return layout.status();
      r.artifact_layout = layout.value();
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed intermediates request: ") + e.what());
  }
}

nlohmann::json IntermediatesResultToJson(const IntermediatesResult& r) {
  nlohmann::json outputs = nlohmann::json::array();
  nlohmann::json tensors = nlohmann::json::array();
  for (const DumpedTensor& t : r.outputs) outputs.push_back(DumpedToJson(t));
  for (const DumpedTensor& t : r.tensors) tensors.push_back(DumpedToJson(t));
  return {{"status", r.status},
          {"stage", r.stage},
          {"error", r.error},
          {"effective_target", r.effective_target},
          {"artifact", r.artifact},
          {"samples", r.samples},
          {"input_provenance", r.input_provenance},
          {"input_shapes", r.input_shapes},
          {"outputs", outputs},
          {"tensors", tensors},
          {"intermediates_unsupported", r.intermediates_unsupported}};
}

Result<IntermediatesResult> IntermediatesResultFromJson(const nlohmann::json& j) {
  try {
    IntermediatesResult r;
    r.status = j.at("status").get<std::string>();
    r.stage = j.at("stage").get<std::string>();
    r.error = j.at("error").get<std::string>();
    r.effective_target = j.at("effective_target").get<std::string>();
    r.artifact = j.at("artifact").get<std::string>();
    r.samples = j.at("samples").get<int64_t>();
    r.input_provenance = j.at("input_provenance").get<std::vector<std::string>>();
    r.input_shapes = j.value("input_shapes", std::vector<std::vector<int64_t>>{});
    for (const auto& t : j.at("outputs")) r.outputs.push_back(DumpedFromJson(t));
    for (const auto& t : j.at("tensors")) r.tensors.push_back(DumpedFromJson(t));
    r.intermediates_unsupported = j.at("intermediates_unsupported").get<std::string>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed intermediates result: ") + e.what());
  }
}

IntermediatesResult RunIntermediatesCase(const IntermediatesRequest& request, Registry& registry,
                                         const StageCallback& on_stage) {
  auto stage = [&](const std::string& name) {
    if (on_stage) on_stage(name);
  };
  IntermediatesResult r;
  r.artifact = request.artifact;
  r.effective_target = request.target.text;
  const TargetResolution resolution = ResolveTarget(request.target, registry, SessionKind::kTensor);
  if (!resolution.resolved) return Fail(r, "target", resolution.error, CaseStatusName(resolution.status));
  ResolvedTarget target = *resolution.resolved;
  target.target.expose_intermediates = request.expose;
  stage("load");
  auto session = target.backend->Load(Artifact{request.artifact}, target.target);
  if (!session.ok()) return Fail(r, "load", session.error());
  Session& s = *session.value();
  Target effective = target.target;
  for (const auto& [key, value] : s.effective_options()) effective.options[key] = value;
  r.effective_target = effective.Canonical();

  stage("inputs");
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::vector<Tensor>> samples;
  if (!request.data.source.empty()) {
    auto pool = LabelledSamples(request, s.signature());
    if (!pool.ok()) return Fail(r, "inputs", pool.error());
    samples = std::move(pool.value().samples);
    r.input_provenance = pool.value().provenance;
    shapes = {samples.front().front().shape};
  } else {
    auto from_inputs = ShapeBindingsFromInputs(s.signature(), request.inputs);
    if (!from_inputs.ok()) return Fail(r, "inputs", from_inputs.error());
    auto resolved = ResolveInputShapes(s.signature(), OverrideShapeBindings(request.dims, from_inputs.value()));
    if (!resolved.ok()) return Fail(r, "inputs", resolved.error());
    shapes = resolved.take();
    auto pool = BuildInputPool(s.signature(), shapes, request.inputs);
    if (!pool.ok()) return Fail(r, "inputs", pool.error());
    samples = std::move(pool.value().samples);
    r.input_provenance = pool.value().provenance;
  }
  r.input_shapes = shapes;
  stage("prepare");
  if (Status p = s.Prepare(shapes); !p.ok()) return Fail(r, "prepare", p.message());

  stage("run");
  TensorFiles outputs(request.out_dir, "output-");
  TensorFiles intermediates(request.out_dir, "tensor-");
  std::vector<Tensor> values;
  const std::vector<TensorSpec>& declared_outputs = s.signature().outputs;
  for (size_t sample = 0; sample < samples.size(); ++sample) {
    const auto index = static_cast<int64_t>(sample);
    if (Status run = s.Run(samples[sample], values); !run.ok()) {
      return Fail(r, "run", "sample " + std::to_string(sample) + ": " + run.message());
    }
    for (size_t k = 0; k < values.size(); ++k) {
      // A fully quantized model's outputs compare as the real values they stand for.
      const TensorQuantization* q = k < declared_outputs.size() && IsQuantizedType(values[k].dtype) &&
                                            !declared_outputs[k].quantization.empty()
                                        ? &declared_outputs[k].quantization
                                        : nullptr;
      Status w;
      if (q) {
        auto real = DequantizeAffine(values[k], q->scales, q->zero_points, q->axis);
        if (!real.ok()) return Fail(r, "run", real.error());
        w = outputs.Append(real.value(), "", "", true, index);
      } else {
        w = outputs.Append(values[k], "", "", false, index);
      }
      if (!w.ok()) return Fail(r, "run", w.message());
    }
    outputs.EndSample(index);
    if (!request.expose || !r.intermediates_unsupported.empty()) continue;
    auto shown = s.Intermediates();
    if (!shown.ok()) {
      r.intermediates_unsupported = shown.error();
      continue;
    }
    for (const IntermediateTensor& t : shown.value()) {
      if (Status w = intermediates.Append(t.tensor, t.node, t.op_type, t.dequantized, index); !w.ok()) {
        return Fail(r, "run", w.message());
      }
    }
    intermediates.EndSample(index);
  }
  r.samples = static_cast<int64_t>(samples.size());
  r.outputs = outputs.Take();
  r.tensors = intermediates.Take();
  return r;
}

}  // namespace edgebench
