#include "pipeline/host_stages.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "core/tensor_values.h"
#include "core/strings.h"

namespace edgebench {
namespace {

// A frame tensor's height, width and channels, or an error when the item has none.
struct FrameSize {
  int height = 0, width = 0, channels = 0;
};

Result<FrameSize> SizeOfFrame(const Frame& frame, const std::string& stage) {
  if (!frame) {
    return Status::Error("there is no frame to read: put a decode_image stage before '" + stage + "'");
  }
  if (frame->dtype != DType::kUInt8 || frame->shape.size() != 4 || frame->shape[0] != 1 ||
      (frame->shape[3] != 1 && frame->shape[3] != 3)) {
    return Status::Error("the frame is " + std::string(DTypeName(frame->dtype)) + " " + ShapeToString(frame->shape) +
                         ", not uint8 [1,H,W,3]");
  }
  return FrameSize{static_cast<int>(frame->shape[1]), static_cast<int>(frame->shape[2]),
                   static_cast<int>(frame->shape[3])};
}

class DecodeImageStage final : public Stage {
 public:
  explicit DecodeImageStage(std::string name) : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kHost; }
  Status Run(const std::vector<Tensor>& in, const Frame&, std::vector<StageItem>& out) override {
    if (in.size() != 1 || in[0].dtype != DType::kUInt8) {
      return Status::Error("expects one uint8 tensor holding an encoded image's bytes, got " +
                           std::to_string(in.size()) + " tensors");
    }
    auto pixels = DecodeImageBytes(in[0].as<uint8_t>(), in[0].data.size(), "the query's image");
    if (!pixels.ok()) return pixels.status();
    out.push_back({{}, std::make_shared<const Tensor>(pixels.take())});
    return Status::Ok();
  }

 private:
  std::string name_;
};

class PreprocessStage final : public Stage {
 public:
  PreprocessStage(std::string name, ImagePreprocess preprocess) : name_(std::move(name)), preprocess_(std::move(preprocess)) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kHost; }
  Status Run(const std::vector<Tensor>&, const Frame& frame, std::vector<StageItem>& out) override {
    auto size = SizeOfFrame(frame, name_);
    if (!size.ok()) return size.status();
    auto tensor = PixelsToTensor(frame->as<uint8_t>(), size.value().width, size.value().height,
                                 size.value().channels, preprocess_, "the frame");
    if (!tensor.ok()) return tensor.status();
    StageItem item{{tensor.take()}, frame};
    out.push_back(std::move(item));
    return Status::Ok();
  }

 private:
  std::string name_;
  ImagePreprocess preprocess_;
};

class SsdDetectionsStage final : public Stage {
 public:
  SsdDetectionsStage(std::string name, SsdDetectionsOptions options, std::vector<Anchor> anchors)
      : name_(std::move(name)), options_(std::move(options)), anchors_(std::move(anchors)) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kHost; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    auto size = SizeOfFrame(frame, name_);
    if (!size.ok()) return size.status();
    auto detections = SsdDetectionsOf(in, options_, anchors_);
    if (!detections.ok()) return detections.status();
    // The detector saw the whole frame stretched to its input: normalized coordinates are the
    // frame's.
    out.push_back({DetectionTensors(detections.value(), size.value().width, size.value().height,
                                    options_.decode.num_keypoints),
                   frame});
    return Status::Ok();
  }

 private:
  std::string name_;
  SsdDetectionsOptions options_;
  std::vector<Anchor> anchors_;
};

const Tensor* FindTensor(const std::vector<Tensor>& tensors, const char* name) {
  for (const Tensor& t : tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

class CropStage final : public Stage {
 public:
  CropStage(std::string name, ImagePreprocess preprocess, int max_detections)
      : name_(std::move(name)), preprocess_(std::move(preprocess)), max_(max_detections) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kHost; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    auto size = SizeOfFrame(frame, name_);
    if (!size.ok()) return size.status();
    const Tensor* boxes = FindTensor(in, kDetectionBoxes);
    if (!boxes || boxes->dtype != DType::kFloat32 || boxes->shape.size() != 2 || boxes->shape[1] != 4) {
      return Status::Error(std::string("expects '") + kDetectionBoxes +
                           "' float32 [N,4] from the stage before (an ssd_detections stage)");
    }
    const FrameSize f = size.value();
    const int64_t count = max_ < 0 ? boxes->shape[0] : std::min<int64_t>(boxes->shape[0], max_);
    for (int64_t i = 0; i < count; ++i) {
      const float* box = boxes->as<float>() + i * 4;
      const PixelRegion r = BoxRegion(box[0], box[1], box[2], box[3], f.width, f.height);
      if (r.w == 0 || r.h == 0) {
        return Status::Error("detection " + std::to_string(i) + "'s box (" + FormatNumberOrInf("%.1f", box[0]) + ", " +
                             FormatNumberOrInf("%.1f", box[1]) + ", " + FormatNumberOrInf("%.1f", box[2]) + ", " + FormatNumberOrInf("%.1f", box[3]) +
                             ") is a crop of zero size in the " + std::to_string(f.width) + "x" +
                             std::to_string(f.height) + " frame");
      }
      region_.resize(static_cast<size_t>(r.w) * r.h * f.channels);
      const uint8_t* pixels = frame->as<uint8_t>();
      const size_t row = static_cast<size_t>(r.w) * f.channels;
      for (int y = 0; y < r.h; ++y) {
        std::memcpy(region_.data() + y * row,
                    pixels + ((static_cast<size_t>(r.y) + y) * f.width + r.x) * f.channels, row);
      }
      auto tensor = PixelsToTensor(region_.data(), r.w, r.h, f.channels, preprocess_,
                                   "detection " + std::to_string(i) + "'s crop");
      if (!tensor.ok()) return tensor.status();
      out.push_back({{tensor.take()}, frame});
    }
    return Status::Ok();
  }

 private:
  std::string name_;
  ImagePreprocess preprocess_;
  int max_;
  std::vector<uint8_t> region_;  // reused
};

class TopKStage final : public Stage {
 public:
  TopKStage(std::string name, int k) : name_(std::move(name)), k_(k) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kHost; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    if (in.empty()) return Status::Error("expects a tensor of scores, got none");
    auto values = TensorValues(in[0]);
    if (!values.ok()) return values.status();
    const std::vector<double>& v = values.value();
    const size_t k = std::min(v.size(), static_cast<size_t>(k_));
    order_.resize(v.size());
    std::iota(order_.begin(), order_.end(), int64_t{0});
    std::partial_sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(k), order_.end(),
                      [&](int64_t a, int64_t b) {
                        const double x = v[static_cast<size_t>(a)], y = v[static_cast<size_t>(b)];
                        return x > y || (x == y && a < b);
                      });
    Tensor indices{"top_k_indices", DType::kInt64, {static_cast<int64_t>(k)}, {}};
    Tensor scores{"top_k_values", DType::kFloat32, {static_cast<int64_t>(k)}, {}};
    indices.data.resize(k * sizeof(int64_t));
    scores.data.resize(k * sizeof(float));
    for (size_t i = 0; i < k; ++i) {
      indices.as<int64_t>()[i] = order_[i];
      scores.as<float>()[i] = static_cast<float>(v[static_cast<size_t>(order_[i])]);
    }
    out.push_back({{std::move(indices), std::move(scores)}, frame});
    return Status::Ok();
  }

 private:
  std::string name_;
  int k_;
  std::vector<int64_t> order_;  // reused
};

}  // namespace

PixelRegion BoxRegion(double left, double top, double right, double bottom, int width, int height) {
  if (std::isnan(left) || std::isnan(top) || std::isnan(right) || std::isnan(bottom)) return {};
  const auto clamp = [](double v, int hi) {
    if (!(v > 0)) return 0;  // NaN too
    return v >= hi ? hi : static_cast<int>(v);
  };
  const int x0 = clamp(std::floor(left), width), x1 = clamp(std::ceil(right), width);
  const int y0 = clamp(std::floor(top), height), y1 = clamp(std::ceil(bottom), height);
  if (x1 <= x0 || y1 <= y0) return {x0, y0, 0, 0};
  return {x0, y0, x1 - x0, y1 - y0};
}

std::unique_ptr<Stage> MakeDecodeImageStage(std::string name) {
  return std::make_unique<DecodeImageStage>(std::move(name));
}

std::unique_ptr<Stage> MakePreprocessStage(std::string name, ImagePreprocess preprocess) {
  return std::make_unique<PreprocessStage>(std::move(name), std::move(preprocess));
}

Result<std::unique_ptr<Stage>> MakeSsdDetectionsStage(std::string name, SsdDetectionsOptions options) {
  auto anchors = GenerateSsdAnchors(options.anchors);
  if (!anchors.ok()) return anchors.status();
  return std::unique_ptr<Stage>(std::make_unique<SsdDetectionsStage>(std::move(name), std::move(options), anchors.take()));
}

std::unique_ptr<Stage> MakeCropStage(std::string name, ImagePreprocess preprocess, int max_detections) {
  return std::make_unique<CropStage>(std::move(name), std::move(preprocess), max_detections);
}

std::unique_ptr<Stage> MakeTopKStage(std::string name, int k) {
  return std::make_unique<TopKStage>(std::move(name), k);
}

}  // namespace edgebench
