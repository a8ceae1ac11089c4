#include "inputs/labelled_images.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include <unistd.h>
#include "core/strings.h"

namespace edgebench {
namespace {

// IDX: two zero bytes, a type byte (0x08: unsigned bytes), the number of dimensions, then each
// dimension as a big-endian 32-bit count, then the data.
constexpr unsigned char kUnsignedByteType = 0x08;
// A side of at most this many pixels and at most 4 channels; more is a corrupt header.
constexpr int64_t kMaxSide = 16384;
constexpr int64_t kMaxChannels = 4;
// (Fashion-)MNIST's classes.
constexpr int32_t kMnistClasses = 10;

uint64_t PixelBytesLimit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return uint64_t{1} << 30;  // unknown: 1 GiB
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size) / 4;
}

std::string Hex(const unsigned char* bytes, size_t n) {
  std::string text;
  char b[4];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(b, sizeof b, "%s%02x", i ? " " : "", bytes[i]);
    text += b;
  }
  return text;
}

struct GzCloser {
  void operator()(gzFile_s* f) const { ::gzclose(f); }
};

// An IDX file opened through zlib, which reads gzip and raw files alike.
class IdxFile {
 public:
  // `kind` is "images" or "labels", for messages.
  static Result<IdxFile> Open(const std::string& path, const std::string& kind) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      return Status::Error("data set " + kind + " file '" + path + "' does not exist" +
                           (std::filesystem::is_directory(path, ec) ? " (it is a directory)" : ""));
    }
    unsigned char start[2] = {0, 0};
    std::ifstream raw(path, std::ios::binary);
    raw.read(reinterpret_cast<char*>(start), 2);
    const bool gzip = raw.gcount() == 2 && start[0] == 0x1f && start[1] == 0x8b;
    if (EndsWith(path, ".gz") && !gzip) {
      return Status::Error("data set " + kind + " file '" + path + "' ends in .gz but is not gzip data (it starts " +
                           Hex(start, static_cast<size_t>(raw.gcount())) +
                           "): download it again, or rename it without .gz if it is a raw IDX file");
    }
    gzFile f = ::gzopen(path.c_str(), "rb");
    if (f == nullptr) return Status::Error("cannot open data set " + kind + " file '" + path + "'");
    IdxFile file;
    file.path_ = path;
    file.kind_ = kind;
    file.file_.reset(f);
    return file;
  }

  // Reads the header: the dimensions, checked to be `min_dims`..`max_dims` of them.
  Result<std::vector<int64_t>> Header(size_t min_dims, size_t max_dims) {
    unsigned char magic[4];
    if (Status s = Read(magic, 4, "its header"); !s.ok()) return s;
    const bool ubyte = magic[0] == 0 && magic[1] == 0 && magic[2] == kUnsignedByteType;
    if (!ubyte || magic[3] < min_dims || magic[3] > max_dims) {
      std::string hint = "is it an IDX " + kind_ + " file";
      if (ubyte && kind_ == "images" && magic[3] == 1) hint = "it is a labels file: give the images file first";
      if (ubyte && kind_ == "labels" && magic[3] >= 3) hint = "it is an images file: give the labels file second";
      if (magic[0] == 0x1f && magic[1] == 0x8b) hint = "it is gzip data inside gzip data: decompress it once";
      return Status::Error("data set " + kind_ + " file '" + path_ + "' has the wrong magic number " +
                           Hex(magic, 4) + " (an IDX " + kind_ + " file of unsigned bytes starts 00 00 08 0" +
                           std::to_string(min_dims) + "): " + hint);
    }
    std::vector<int64_t> dims;
    for (int i = 0; i < magic[3]; ++i) {
      unsigned char b[4];
      if (Status s = Read(b, 4, "its header"); !s.ok()) return s;
      dims.push_back((int64_t{b[0]} << 24) | (int64_t{b[1]} << 16) | (int64_t{b[2]} << 8) | int64_t{b[3]});
    }
    header_bytes_ = 4 + 4 * static_cast<int64_t>(dims.size());
    return dims;
  }

  // Skips to byte `offset` after the header.
  Status SeekData(int64_t offset) {
    if (offset == 0) return Status::Ok();
    if (::gzseek(file_.get(), static_cast<z_off_t>(header_bytes_ + offset), SEEK_SET) < 0) {
      return Status::Error(ErrorText("skipping to the first image asked for"));
    }
    return Status::Ok();
  }

  Status Read(void* out, int64_t bytes, const std::string& what) {
    auto* cursor = static_cast<unsigned char*>(out);
    while (bytes > 0) {
      const unsigned chunk = static_cast<unsigned>(std::min<int64_t>(bytes, INT_MAX / 2));
      const int n = ::gzread(file_.get(), cursor, chunk);
      int code = Z_OK;
      if (n < 0) ::gzerror(file_.get(), &code);
      if (n < 0 && code != Z_BUF_ERROR) return Status::Error(ErrorText("reading " + what));
      if (n <= 0) {  // Z_BUF_ERROR: the gzip stream ends early
        return Status::Error("data set " + kind_ + " file '" + path_ + "' ends before " + what +
                             " (truncated: download or copy it again)");
      }
      cursor += n;
      bytes -= n;
    }
    return Status::Ok();
  }

 private:
  std::string ErrorText(const std::string& doing) {
    int code = 0;
    const char* message = ::gzerror(file_.get(), &code);
    return "data set " + kind_ + " file '" + path_ + "' is corrupt (" + doing + ": " +
           (message && *message ? message : "read error") + "): download or copy it again";
  }

  std::string path_;
  std::string kind_;
  std::unique_ptr<gzFile_s, GzCloser> file_;
  int64_t header_bytes_ = 0;
};

struct DataSetFiles {
  std::string images, labels;
  bool mnist_like = false;  // named as (Fashion-)MNIST's files: 10 classes
  std::string name;         // for the description
};

// The file `stem` in `dir`, gzipped or not; empty when neither exists.
std::string FindIdx(const std::string& dir, const std::string& stem) {
  for (const std::string& name : {stem + ".gz", stem}) {
    std::error_code ec;
    const std::string path = (std::filesystem::path(dir) / name).string();
    if (std::filesystem::is_regular_file(path, ec)) return path;
  }
  return "";
}

Result<DataSetFiles> ResolveFiles(const DataSetSpec& spec) {
  if (spec.split != "test" && spec.split != "train") {
    return Status::Error("--split '" + spec.split + "': use test or train");
  }
  const std::string source = spec.source;
  if (source.empty()) {
    return Status::Error("no data set given: give --data fashion-mnist, a directory of IDX files, or "
                         "IMAGES_FILE,LABELS_FILE");
  }
  if (const auto comma = source.find(','); comma != std::string::npos) {
    DataSetFiles files{source.substr(0, comma), source.substr(comma + 1), false, "files"};
    if (files.images.empty() || files.labels.empty() || files.labels.find(',') != std::string::npos) {
      return Status::Error("--data '" + source + "': give IMAGES_FILE,LABELS_FILE (two files)");
    }
    return files;
  }
  std::string dir = source;
  std::string name = source;
  if (source == "fashion-mnist") {
    dir = kFashionMnistDir;
  } else {
    std::error_code ec;
    if (!std::filesystem::is_directory(source, ec)) {
      return Status::Error("--data '" + source + "' is not a data set edgebench knows (fashion-mnist), a "
                           "directory or IMAGES_FILE,LABELS_FILE");
    }
  }
  const std::string prefix = spec.split == "test" ? "t10k" : "train";
  DataSetFiles files{FindIdx(dir, prefix + "-images-idx3-ubyte"), FindIdx(dir, prefix + "-labels-idx1-ubyte"), true,
                     name + " " + spec.split + " split"};
  if (files.images.empty() || files.labels.empty()) {
    return Status::Error("data set '" + source + "': " + dir + " has no " + prefix + "-images-idx3-ubyte[.gz] and " +
                         prefix + "-labels-idx1-ubyte[.gz]" +
                         (source == "fashion-mnist" ? " (install Debian's dataset-fashion-mnist)" : ""));
  }
  return files;
}


}  // namespace

Result<LabelledImages> LoadLabelledImages(const DataSetSpec& spec) {
  auto files = ResolveFiles(spec);
  if (!files.ok()) return files.status();
  if (spec.limit < 0 || spec.offset < 0) return Status::Error("--limit and --offset must not be negative");

  auto images_file = IdxFile::Open(files.value().images, "images");
  if (!images_file.ok()) return images_file.status();
  auto labels_file = IdxFile::Open(files.value().labels, "labels");
  if (!labels_file.ok()) return labels_file.status();
  auto image_dims = images_file.value().Header(3, 4);
  if (!image_dims.ok()) return image_dims.status();
  auto label_dims = labels_file.value().Header(1, 1);
  if (!label_dims.ok()) return label_dims.status();

  LabelledImages set;
  set.images_path = files.value().images;
  set.labels_path = files.value().labels;
  const std::vector<int64_t>& dims = image_dims.value();
  set.total = dims[0];
  set.rows = dims[1];
  set.cols = dims[2];
  set.channels = dims.size() == 4 ? dims[3] : 1;
  if (set.rows <= 0 || set.cols <= 0 || set.rows > kMaxSide || set.cols > kMaxSide || set.channels <= 0 ||
      set.channels > kMaxChannels) {
    return Status::Error("data set images file '" + set.images_path + "' declares images of " +
                         std::to_string(set.rows) + "x" + std::to_string(set.cols) + "x" +
                         std::to_string(set.channels) + " (rows x cols x channels); edgebench reads at most " +
                         std::to_string(kMaxSide) + " a side and " + std::to_string(kMaxChannels) +
                         " channels: the header is corrupt or this is not an image set");
  }
  if (label_dims.value()[0] != set.total) {
    return Status::Error("data set images file '" + set.images_path + "' has " + std::to_string(set.total) +
                         " images but labels file '" + set.labels_path + "' has " +
                         std::to_string(label_dims.value()[0]) + " labels: they are not a pair");
  }
  if (spec.offset >= set.total && set.total > 0) {
    return Status::Error("--offset " + std::to_string(spec.offset) + " is past the " + std::to_string(set.total) +
                         " images of '" + set.images_path + "'");
  }
  set.count = std::max<int64_t>(0, spec.limit ? std::min(spec.limit, set.total - spec.offset) : set.total - spec.offset);
  if (set.count == 0) return Status::Error("data set images file '" + set.images_path + "' holds no images");
  const int64_t image_bytes = set.rows * set.cols * set.channels;
  const uint64_t bytes = static_cast<uint64_t>(set.count) * static_cast<uint64_t>(image_bytes);
  if (bytes > PixelBytesLimit()) {
    return Status::Error(std::to_string(set.count) + " images of " + std::to_string(set.rows) + "x" +
                         std::to_string(set.cols) + "x" + std::to_string(set.channels) + " from '" +
                         set.images_path + "' would need " + BytesAndGigabytes(bytes) + ", more than a quarter of physical memory (" +
                         BytesAndGigabytes(PixelBytesLimit()) + "): give --limit");
  }

  set.pixels.resize(bytes);
  if (Status s = images_file.value().SeekData(spec.offset * image_bytes); !s.ok()) return s;
  const std::string range = "images " + std::to_string(spec.offset) + ".." + std::to_string(spec.offset + set.count - 1);
  if (Status s = images_file.value().Read(set.pixels.data(), static_cast<int64_t>(bytes), range); !s.ok()) return s;
  std::vector<uint8_t> labels(static_cast<size_t>(set.count));
  if (Status s = labels_file.value().SeekData(spec.offset); !s.ok()) return s;
  if (Status s = labels_file.value().Read(labels.data(), set.count, "labels of " + range); !s.ok()) return s;

  set.classes = files.value().mnist_like ? kMnistClasses : 0;
  set.labels.reserve(labels.size());
  for (size_t i = 0; i < labels.size(); ++i) {
    if (files.value().mnist_like && labels[i] >= kMnistClasses) {
      return Status::Error("data set labels file '" + set.labels_path + "': label " + std::to_string(labels[i]) +
                           " of image " + std::to_string(spec.offset + static_cast<int64_t>(i)) +
                           " is outside 0.." + std::to_string(kMnistClasses - 1) +
                           ": the file is corrupt or not a (Fashion-)MNIST labels file");
    }
    set.labels.push_back(labels[i]);
    if (!files.value().mnist_like) set.classes = std::max<int32_t>(set.classes, labels[i] + 1);
  }
  set.description = files.value().name + " (" + set.images_path + ", " + set.labels_path + "): " + range + " of " +
                    std::to_string(set.total);
  return set;
}

Result<Tensor> LabelledImageTensor(const LabelledImages& images, int64_t index, const ImagePreprocess& preprocess) {
  if (index < 0 || index >= images.count) {
    return Status::Error("image " + std::to_string(index) + " is outside the " + std::to_string(images.count) +
                         " images loaded");
  }
  const size_t image_bytes = static_cast<size_t>(images.rows * images.cols * images.channels);
  return PixelsToTensor(images.pixels.data() + static_cast<size_t>(index) * image_bytes, static_cast<int>(images.cols),
                        static_cast<int>(images.rows), static_cast<int>(images.channels), preprocess,
                        "image " + std::to_string(index) + " of " + images.images_path);
}

nlohmann::json DataSetSpecToJson(const DataSetSpec& spec) {
  return {{"source", spec.source}, {"split", spec.split}, {"limit", spec.limit}, {"offset", spec.offset}};
}

DataSetSpec DataSetSpecFromJson(const nlohmann::json& json) {
  return DataSetSpec{json.at("source").get<std::string>(), json.at("split").get<std::string>(),
                     json.at("limit").get<int64_t>(), json.at("offset").get<int64_t>()};
}

}  // namespace edgebench
