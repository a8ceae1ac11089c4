// Feeds a labelled data set's images (inputs/labelled_images.h) to a model's one image input, as
// `edgebench accuracy` and `edgebench drift --data` both do: preprocessed as declared, shaped as
// the input takes them ([1,C,H,W] or [1,H,W,C] by the artifact's layout, else the preprocess's,
// else whichever fits; or flat), and, for a fully quantized model's int8/uint8 input, quantized
// with the model's own scale and zero point.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/layout.h"
#include "core/status.h"
#include "core/tensor.h"
#include "inputs/image_input.h"
#include "inputs/labelled_images.h"

namespace edgebench {

// The error's start for integer inputs or outputs edgebench cannot convert.
inline constexpr char kQuantizedWithoutParameters[] =
    "a quantized input or output without the scale and zero point to convert it";

bool IsQuantizedType(DType dtype);

struct LabelledInputPlan {
  TensorSpec input;               // the model's input
  ImagePreprocess preprocess;     // with the layout chosen
  std::vector<int64_t> shape;     // what each image tensor is shaped as
  bool quantize = false;          // int8/uint8 input: quantized with input.quantization
  std::string description;        // e.g. "input [1x1x28x28] nchw"
  std::vector<std::string> notes;  // what was adapted (the quantization), for the record
};

// Checks the model's input against the images (channels, size, layout, dtype); the error says
// what the model takes and what the images are.
Result<LabelledInputPlan> PlanLabelledInput(const TensorSpec& input, const LabelledImages& images,
                                            const ImagePreprocess& preprocess, Layout artifact_layout);

// Image `index` as the model's input tensor.
Result<Tensor> LabelledInput(const LabelledInputPlan& plan, const LabelledImages& images, int64_t index);

}  // namespace edgebench
