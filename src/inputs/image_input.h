// A real input: an image file (PNG, JPEG, BMP, ...), or a data set's decoded pixels, turned into
// a float32 tensor with declared preprocessing: resize, scale, per-channel mean and std, layout.
//   value = (pixel * scale - mean[c]) / std[c]
// A grey (1-channel) image takes one mean and one std (mean=0.286,std=0.353).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"
#include "core/layout.h"

namespace edgebench {

struct ImagePreprocess {
  int width = 0;   // 0: keep the image's size
  int height = 0;
  double scale = 1.0 / 255.0;
  // One value per channel, or one for all; ParseImagePreprocess writes one value as three equal.
  std::vector<double> mean = {0, 0, 0};
  std::vector<double> stddev = {1, 1, 1};
  Layout layout = Layout::kNhwc;  // of the produced [1,H,W,C] or [1,C,H,W] tensor
};

// Parses "resize=128x128,scale=0.0039215686,mean=0.5:0.5:0.5,std=0.5:0.5:0.5,layout=nhwc".
Result<ImagePreprocess> ParseImagePreprocess(const std::string& text);

// Checks from the image's header alone, allocating nothing image-sized, that the file is an
// image edgebench can read and that it and the tensor it becomes fit the size bounds (a side of
// at most 16384 pixels, at most a quarter of physical memory each). The error names the file
// or the --preprocess resize, the bytes it would need, and what to do.
Status CheckImageInput(const std::string& path, const ImagePreprocess& preprocess);

// RGB image to tensor; bilinear resize. Checks CheckImageInput first. The error names the file.
Result<Tensor> LoadImageTensor(const std::string& path, const ImagePreprocess& preprocess);

// Decoded pixels, HWC uint8 with 1 or 3 channels (a data set's images), through the same resize,
// scale, mean and std and layout as LoadImageTensor: float32 [1,C,H,W] or [1,H,W,C]. `what` names
// the image in errors (mean and std with a value per colour for a grey image; a resize too large
// for memory).
Result<Tensor> PixelsToTensor(const uint8_t* pixels, int width, int height, int channels,
                              const ImagePreprocess& preprocess, const std::string& what);

// The same resampled pixels as uint8 RGB [1,H,W,3], without scale, mean, std or layout: for a
// model that takes the image itself (a MediaPipe Task), beside float models given the same
// image preprocessed. Values are rounded to the nearest integer.
Result<Tensor> LoadImagePixels(const std::string& path, const ImagePreprocess& preprocess);

// An encoded image (PNG, JPEG, BMP, ... bytes in memory, as read from a file) decoded to uint8
// RGB [1,H,W,3], under the size bounds above; `what` names it in errors.
Result<Tensor> DecodeImageBytes(const uint8_t* bytes, size_t size, const std::string& what);

}  // namespace edgebench
