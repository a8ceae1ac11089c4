// Labelled image data sets (`edgebench accuracy`, `edgebench drift`): images and their class
// labels in the IDX format MNIST and Fashion-MNIST ship in, gzipped or raw. The pixels stay
// uint8 as the files hold them; LabelledImageTensor makes one image the model's float input with
// the same preprocessing code as an image file (inputs/image_input.h).
//
// A source is one of
//   fashion-mnist           Debian's dataset-fashion-mnist (/usr/share/datasets/fashion-mnist)
//   DIR                     a directory holding {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz]
//   IMAGES_FILE,LABELS_FILE two IDX files (the split does not apply)
// Only the images in [offset, offset + limit) are read and kept.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "core/tensor.h"
#include "inputs/image_input.h"

namespace edgebench {

// Where Debian's dataset-fashion-mnist puts its files.
inline constexpr const char kFashionMnistDir[] = "/usr/share/datasets/fashion-mnist";

struct DataSetSpec {
  std::string source;
  std::string split = "test";  // "test" (t10k-* files) or "train"
  int64_t limit = 0;           // images to read; 0: all from offset on
  int64_t offset = 0;          // the first image read
};

// {"source", "split", "limit", "offset"}, as workers receive it; the reader throws
// nlohmann::json exceptions on missing keys or wrong types, as the requests' readers expect.
nlohmann::json DataSetSpecToJson(const DataSetSpec& spec);
DataSetSpec DataSetSpecFromJson(const nlohmann::json& json);

struct LabelledImages {
  int64_t count = 0, rows = 0, cols = 0, channels = 1;
  std::vector<uint8_t> pixels;  // count * rows * cols * channels, each image HWC
  std::vector<int32_t> labels;  // count
  std::string description;      // files read, split, range: for records and messages
  // Classes the data set has: 10 for (Fashion-)MNIST files, else the largest label read + 1.
  int32_t classes = 0;
  int64_t total = 0;            // images in the files, before offset and limit
  std::string images_path;
  std::string labels_path;
};

// Reads the selected range. Errors name the file and what to do: a wrong magic number (not an
// IDX file, images and labels swapped, not decompressed), a truncated file, image and label
// counts that differ, a label outside the data set's classes, dimensions whose images would
// not fit in memory (bounded before anything is allocated), a .gz file that is not gzip.
Result<LabelledImages> LoadLabelledImages(const DataSetSpec& spec);

// Image `index` (0-based within the loaded range) as a float32 tensor [1,C,H,W] or [1,H,W,C] (as
// preprocess.layout says), value = (pixel * scale - mean[c]) / std[c], resized when asked.
Result<Tensor> LabelledImageTensor(const LabelledImages& images, int64_t index, const ImagePreprocess& preprocess);

}  // namespace edgebench
