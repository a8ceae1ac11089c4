#include "inputs/labelled_input.h"

#include "core/dequantize.h"
#include "core/strings.h"

namespace edgebench {
namespace {

// How images are handed to the model's one input.
struct InputPlan {
  Layout layout = Layout::kNchw;   // of the preprocessed tensor
  std::vector<int64_t> shape;      // what it is reshaped to (a flat input), else its own
};

bool Fits(const std::vector<Dim>& declared, const std::vector<int64_t>& shape) {
  if (declared.size() != shape.size()) return false;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (declared[k].fixed() && declared[k].size != shape[k]) return false;
  }
  return true;
}

std::vector<int64_t> ImageShape(Layout layout, int64_t c, int64_t h, int64_t w) {
  return layout == Layout::kNchw ? std::vector<int64_t>{1, c, h, w} : std::vector<int64_t>{1, h, w, c};
}

// The model's input against the images as preprocessed (c channels, h x w): [1,C,H,W] or
// [1,H,W,C] (the artifact's declared layout, else the preprocess's, else the other), or flat
// [1,C*H*W], or [1,H,W] for grey images.
Result<InputPlan> PlanInput(const TensorSpec& input, int64_t c, int64_t h, int64_t w, Layout artifact_layout,
                            Layout preprocess_layout) {
  std::vector<Layout> layouts;
  if (artifact_layout != Layout::kAny) {
    layouts = {artifact_layout};
  } else {
    layouts = {preprocess_layout, preprocess_layout == Layout::kNchw ? Layout::kNhwc : Layout::kNchw};
  }
  for (Layout layout : layouts) {
    const auto shape = ImageShape(layout, c, h, w);
    if (Fits(input.shape, shape)) return InputPlan{layout, shape};
  }
  const std::vector<int64_t> flat = {1, c * h * w};
  if (Fits(input.shape, flat)) return InputPlan{preprocess_layout, flat};
  const std::vector<int64_t> grey = {1, h, w};
  if (c == 1 && Fits(input.shape, grey)) return InputPlan{preprocess_layout, grey};
  std::string forms;
  for (Layout layout : layouts) {
    forms += ShapeToString(ImageShape(layout, c, h, w)) + " " + LayoutName(layout) + ", ";
  }
  return Status::Error("input '" + input.name + "' is " + DTypeName(input.dtype) + " " + ShapeToString(input.shape) +
                       " but the images are " + std::to_string(h) + "x" + std::to_string(w) + " with " +
                       std::to_string(c) + (c == 1 ? " channel" : " channels") + " (as " + forms + "or " +
                       ShapeToString(flat) + " flat)" +
                       (artifact_layout != Layout::kAny ? "; the artifact declares layout " + LayoutName(artifact_layout)
                                                        : "") +
                       ": give --preprocess resize=WxH for another size, or a model made for this data set");
}

}  // namespace

bool IsQuantizedType(DType dtype) { return dtype == DType::kInt8 || dtype == DType::kUInt8; }

Result<LabelledInputPlan> PlanLabelledInput(const TensorSpec& input, const LabelledImages& images,
                                            const ImagePreprocess& preprocess, Layout artifact_layout) {
  LabelledInputPlan plan;
  plan.input = input;
  // A fully quantized model takes int8/uint8: each preprocessed image is quantized with the
  // model's own input scale and zero point, as part of preprocessing (and timed with it).
  plan.quantize = IsQuantizedType(input.dtype) && input.quantization.scales.size() == 1;
  if (input.dtype != DType::kFloat32 && !plan.quantize) {
    return Status::Error(std::string(kQuantizedWithoutParameters) + ": input '" + input.name + "' is " +
                         DTypeName(input.dtype) +
                         (IsQuantizedType(input.dtype) && !input.quantization.empty()
                              ? " quantized per channel; an image input is quantized with one scale"
                              : " and its runtime declares no quantization for it"));
  }
  if (plan.quantize) {
    plan.notes.push_back("input '" + input.name + "' is " + DTypeName(input.dtype) +
                         ": each preprocessed image is quantized with the model's scale " +
                         FormatNumber("%.6g", input.quantization.scales[0]) + " and zero point " +
                         std::to_string(input.quantization.zero_points[0]) + " (part of the preprocessing time)");
  }
  const int64_t height = preprocess.height ? preprocess.height : images.rows;
  const int64_t width = preprocess.width ? preprocess.width : images.cols;
  auto shaped = PlanInput(input, images.channels, height, width, artifact_layout, preprocess.layout);
  if (!shaped.ok()) return shaped.status();
  plan.preprocess = preprocess;
  plan.preprocess.layout = shaped.value().layout;
  plan.shape = shaped.value().shape;
  plan.description = input.name + " " + ShapeToString(plan.shape) +
                     (plan.shape.size() == 4 ? " " + LayoutName(plan.preprocess.layout) : "");
  return plan;
}

Result<Tensor> LabelledInput(const LabelledInputPlan& plan, const LabelledImages& images, int64_t index) {
  auto tensor = LabelledImageTensor(images, index, plan.preprocess);
  if (!tensor.ok()) return tensor;
  tensor.value().name = plan.input.name;
  tensor.value().shape = plan.shape;  // the same bytes; a flat input only changes the shape
  if (plan.quantize) return QuantizeAffine(tensor.value(), plan.input.dtype, plan.input.quantization);
  return tensor;
}

}  // namespace edgebench
