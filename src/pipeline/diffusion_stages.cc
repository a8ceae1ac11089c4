#include "pipeline/diffusion_stages.h"

#include <cstring>

#include "core/strings.h"

namespace edgebench {
namespace {

Status CheckInputs(const std::string& stage, const Session& session, const std::vector<Tensor>& in,
                   const std::vector<std::vector<int64_t>>& shapes) {
  const Signature& signature = session.signature();
  for (size_t i = 0; i < in.size() && i < signature.inputs.size(); ++i) {
    if (in[i].dtype != signature.inputs[i].dtype || in[i].shape != shapes[i]) {
      return Status::Error("the " + stage + "'s input '" + signature.inputs[i].name + "' is " +
                           DTypeName(signature.inputs[i].dtype) + " " + ShapeToString(shapes[i]) + " but it is given " +
                           DTypeName(in[i].dtype) + " " + ShapeToString(in[i].shape) +
                           " (was the model exported for this image size and batch?)");
    }
  }
  if (in.size() != signature.inputs.size()) {
    return Status::Error("the " + stage + " model takes " + std::to_string(signature.inputs.size()) + " inputs, not " +
                         std::to_string(in.size()));
  }
  return Status::Ok();
}

Status Expect(const std::vector<Tensor>& in, size_t count, const std::string& stage) {
  if (in.size() != count) {
    return Status::Error("internal: the " + stage + " stage is given " + std::to_string(in.size()) + " tensors, not " +
                         std::to_string(count) + " (a diffusion pipeline's stages are in a fixed order)");
  }
  for (const Tensor& t : in) {
    if (t.dtype != DType::kFloat32) return Status::Error("the " + stage + " stage reads float32; '" + t.name + "' is not");
  }
  return Status::Ok();
}

float* Floats(Tensor& t) { return reinterpret_cast<float*>(t.data.data()); }
const float* Floats(const Tensor& t) { return reinterpret_cast<const float*>(t.data.data()); }
size_t FloatCount(const Tensor& t) { return t.data.size() / sizeof(float); }

class TextEncoderStage final : public Stage {
 public:
  TextEncoderStage(std::string name, DiffusionModel model) : name_(std::move(name)), model_(std::move(model)) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kModel; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    if (in.size() != 2) return Status::Error("internal: the text encoder stage reads the tokens and the latents");
    inputs_.assign(in.begin(), in.begin() + 1);
    if (Status s = CheckInputs("text encoder", *model_.session, inputs_, model_.shapes); !s.ok()) return s;
    if (Status s = model_.session->Run(inputs_, outputs_); !s.ok()) return s;
    if (outputs_.empty() || outputs_[0].dtype != DType::kFloat32 || outputs_[0].shape.size() != 3 ||
        outputs_[0].shape[0] != 2) {
      return Status::Error("the text encoder gives " +
                           (outputs_.empty() ? std::string("nothing") : ShapeToString(outputs_[0].shape)) +
                           "; a float32 [2, tokens, width] (both prompts' hidden states) was expected");
    }
    // Each prompt's row repeated once per image of the batch: [uncond x B, cond x B].
    const Tensor& hidden = outputs_[0];
    const int64_t batch = in[1].shape.empty() ? 1 : in[1].shape[0];
    StageItem item;
    item.frame = frame;
    item.tensors.push_back(in[1]);
    Tensor embeddings{"encoder_hidden_states", DType::kFloat32, hidden.shape, {}};
    embeddings.shape[0] = 2 * batch;
    const size_t row = hidden.data.size() / 2;
    embeddings.data.resize(row * static_cast<size_t>(2 * batch));
    for (int64_t half = 0; half < 2; ++half) {
      for (int64_t b = 0; b < batch; ++b) {
        std::memcpy(embeddings.data.data() + static_cast<size_t>(half * batch + b) * row,
                    hidden.data.data() + static_cast<size_t>(half) * row, row);
      }
    }
    item.tensors.push_back(std::move(embeddings));
    out.push_back(std::move(item));
    return Status::Ok();
  }

 private:
  std::string name_;
  DiffusionModel model_;
  std::vector<Tensor> inputs_, outputs_;
};

class UNetStage final : public Stage {
 public:
  UNetStage(std::string name, DiffusionModel model, std::shared_ptr<const DdimSchedule> schedule)
      : name_(std::move(name)), model_(std::move(model)), schedule_(std::move(schedule)) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kModel; }
  void SetStep(int step) override { step_ = step; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    if (Status s = Expect(in, 2, "UNet"); !s.ok()) return s;
    const Tensor& latents = in[0];
    // The latents twice over, for the unconditional and the conditional prompt (DDIM scales
    // the model's input by 1).
    inputs_.resize(3);
    Tensor& sample = inputs_[0];
    sample.name = "sample";
    sample.dtype = DType::kFloat32;
    sample.shape = latents.shape;
    if (!sample.shape.empty()) sample.shape[0] *= 2;
    sample.data.resize(latents.data.size() * 2);
    std::memcpy(sample.data.data(), latents.data.data(), latents.data.size());
    std::memcpy(sample.data.data() + latents.data.size(), latents.data.data(), latents.data.size());
    inputs_[1] = Tensor{"timestep", DType::kFloat32, {1}, {}};
    inputs_[1].data.resize(sizeof(float));
    const float t = static_cast<float>(schedule_->timesteps[static_cast<size_t>(step_)]);
    std::memcpy(inputs_[1].data.data(), &t, sizeof t);
    inputs_[2] = in[1];
    if (Status s = CheckInputs("UNet", *model_.session, inputs_, model_.shapes); !s.ok()) return s;
    if (Status s = model_.session->Run(inputs_, outputs_); !s.ok()) return s;
    if (outputs_.empty() || outputs_[0].dtype != DType::kFloat32 || outputs_[0].shape != sample.shape) {
      return Status::Error("the UNet gives " + (outputs_.empty() ? std::string("nothing") : ShapeToString(outputs_[0].shape)) +
                           "; a float32 " + ShapeToString(sample.shape) + " noise prediction was expected");
    }
    StageItem item;
    item.frame = frame;
    item.tensors.push_back(latents);
    item.tensors.push_back(std::move(outputs_[0]));
    item.tensors.back().name = "noise_pred";
    item.tensors.push_back(std::move(inputs_[2]));
    out.push_back(std::move(item));
    return Status::Ok();
  }

 private:
  std::string name_;
  DiffusionModel model_;
  std::shared_ptr<const DdimSchedule> schedule_;
  int step_ = 0;
  std::vector<Tensor> inputs_, outputs_;
};

class GuidanceStage final : public Stage {
 public:
  GuidanceStage(std::string name, float scale) : name_(std::move(name)), scale_(scale) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kHost; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    if (Status s = Expect(in, 3, "guidance"); !s.ok()) return s;
    const Tensor& noise = in[1];
    if (noise.data.size() != 2 * in[0].data.size()) {
      return Status::Error("the guidance stage needs the noise of both prompts: " + ShapeToString(noise.shape) +
                           " is not twice " + ShapeToString(in[0].shape));
    }
    const size_t n = FloatCount(in[0]);
    Tensor guided{"noise", DType::kFloat32, in[0].shape, {}};
    guided.data.resize(in[0].data.size());
    const float* uncond = Floats(noise);
    const float* cond = uncond + n;
    float* g = Floats(guided);
    // diffusers: noise_uncond + guidance_scale * (noise_text - noise_uncond), in float32.
    for (size_t i = 0; i < n; ++i) {
      const volatile float difference = cond[i] - uncond[i];
      const volatile float scaled = scale_ * difference;
      g[i] = uncond[i] + scaled;
    }
    StageItem item;
    item.frame = frame;
    item.tensors = {in[0], std::move(guided), in[2]};
    out.push_back(std::move(item));
    return Status::Ok();
  }

 private:
  std::string name_;
  float scale_;
};

class DdimStage final : public Stage {
 public:
  DdimStage(std::string name, std::shared_ptr<const DdimSchedule> schedule)
      : name_(std::move(name)), schedule_(std::move(schedule)) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kHost; }
  void SetStep(int step) override { step_ = step; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    if (Status s = Expect(in, 3, "scheduler"); !s.ok()) return s;
    if (in[0].data.size() != in[1].data.size()) return Status::Error("the scheduler's latents and noise differ in size");
    StageItem item;
    item.frame = frame;
    item.tensors = {in[0], in[2]};
    Tensor& latents = item.tensors[0];
    DdimStep(*schedule_, step_, Floats(in[0]), Floats(in[1]), Floats(latents), FloatCount(latents));
    out.push_back(std::move(item));
    return Status::Ok();
  }

 private:
  std::string name_;
  std::shared_ptr<const DdimSchedule> schedule_;
  int step_ = 0;
};

class VaeDecoderStage final : public Stage {
 public:
  VaeDecoderStage(std::string name, DiffusionModel model) : name_(std::move(name)), model_(std::move(model)) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kModel; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    if (Status s = Expect(in, 2, "VAE decoder"); !s.ok()) return s;
    inputs_.assign(in.begin(), in.begin() + 1);
    if (Status s = CheckInputs("VAE decoder", *model_.session, inputs_, model_.shapes); !s.ok()) return s;
    if (Status s = model_.session->Run(inputs_, outputs_); !s.ok()) return s;
    if (outputs_.empty() || outputs_[0].dtype != DType::kFloat32 || outputs_[0].shape.size() != 4) {
      return Status::Error("the VAE decoder gives " +
                           (outputs_.empty() ? std::string("nothing") : ShapeToString(outputs_[0].shape)) +
                           "; a float32 [B, 3, H, W] image was expected");
    }
    StageItem item;
    item.frame = frame;
    item.tensors.push_back(std::move(outputs_[0]));
    item.tensors.back().name = "image";
    item.tensors.push_back(in[0]);
    item.tensors.back().name = "final_latents";
    out.push_back(std::move(item));
    return Status::Ok();
  }

 private:
  std::string name_;
  DiffusionModel model_;
  std::vector<Tensor> inputs_, outputs_;
};

}  // namespace

std::unique_ptr<Stage> MakeTextEncoderStage(std::string name, DiffusionModel model) {
  return std::make_unique<TextEncoderStage>(std::move(name), std::move(model));
}
std::unique_ptr<Stage> MakeUNetStage(std::string name, DiffusionModel model, std::shared_ptr<const DdimSchedule> schedule) {
  return std::make_unique<UNetStage>(std::move(name), std::move(model), std::move(schedule));
}
std::unique_ptr<Stage> MakeGuidanceStage(std::string name, float guidance_scale) {
  return std::make_unique<GuidanceStage>(std::move(name), guidance_scale);
}
std::unique_ptr<Stage> MakeDdimStage(std::string name, std::shared_ptr<const DdimSchedule> schedule) {
  return std::make_unique<DdimStage>(std::move(name), std::move(schedule));
}
std::unique_ptr<Stage> MakeVaeDecoderStage(std::string name, DiffusionModel model) {
  return std::make_unique<VaeDecoderStage>(std::move(name), std::move(model));
}

}  // namespace edgebench
