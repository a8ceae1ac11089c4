#include "inputs/image_input.h"

#include <charconv>

#include <stb/stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>

#include <unistd.h>

#include "core/bounded_file.h"
#include "core/strings.h"

namespace edgebench {
namespace {

Result<std::vector<double>> ParseTriple(const std::string& key, const std::string& value) {
  std::vector<double> v;
  std::stringstream in(value);
  for (std::string item; std::getline(in, item, ':');) {
    try {
      size_t used = 0;
      v.push_back(std::stod(item, &used));
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      return Status::Error("bad " + key + " '" + value + "': expected numbers separated by ':'");
    }
    // nan and inf read as numbers, and every pixel would become nan: a tensor of nothing.
    if (!std::isfinite(v.back())) {
      return Status::Error("bad " + key + " '" + value + "': '" + item + "' is not a finite number");
    }
  }
  if (v.size() == 1) v = {v[0], v[0], v[0]};
  if (v.size() != 3) return Status::Error("bad " + key + " '" + value + "': give 1 or 3 values");
  return v;
}

// An image's size is bounded before anything is allocated: a side of at most kMaxImageSide, and
// at most a quarter of physical memory for the decoded pixels and for the float32 tensor each.
// (`agree` decodes in its workers, under their memory limit; the bound makes an absurd request
// an error that says so rather than an oom.)
constexpr int64_t kMaxImageSide = 16384;

uint64_t ImageBytesLimit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return uint64_t{1} << 30;  // unknown: 1 GiB
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size) / 4;
}


// `what` names the request, e.g. "--preprocess resize=20000x20000"; `bytes_per_pixel` is 3 for
// decoded RGB and 12 for the float32 tensor.
Status CheckImageSize(const std::string& what, int64_t width, int64_t height, uint64_t bytes_per_pixel,
                      const std::string& remedy) {
  const uint64_t bytes = static_cast<uint64_t>(width) * static_cast<uint64_t>(height) * bytes_per_pixel;
  const uint64_t limit = ImageBytesLimit();
  if (width > kMaxImageSide || height > kMaxImageSide || bytes > limit) {
    return Status::Error(what + " would need " + BytesAndGigabytes(bytes) + "; images are limited to " +
                         std::to_string(kMaxImageSide) + " pixels a side and " + BytesAndGigabytes(limit) +
                         " (a quarter of physical memory): " + remedy);
  }
  return Status::Ok();
}

// Why stb could not read an image's header, for people: stb gives up on a PNG larger than 2^30
// bytes decoded while reading its header, and then reports the last format it tried ("unknown
// image type"); the PNG header's own size says what is wrong.
std::string UnreadableImageReason(const unsigned char* head, size_t size, const std::string& image,
                                  const std::string& verb) {
  static const unsigned char kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (size >= 24 && std::memcmp(head, kPngSignature, 8) == 0 && std::memcmp(head + 12, "IHDR", 4) == 0) {
    const auto be32 = [&](size_t at) {
      return (uint32_t{head[at]} << 24) | (uint32_t{head[at + 1]} << 16) | (uint32_t{head[at + 2]} << 8) | head[at + 3];
    };
    const uint32_t w = be32(16), h = be32(20);
    if (w > kMaxImageSide || h > kMaxImageSide) {
      return image + " is a PNG of " + std::to_string(w) + "x" + std::to_string(h) + " pixels; images are limited to " +
             std::to_string(kMaxImageSide) + " pixels a side: use a smaller image";
    }
  }
  return "cannot " + verb + " " + image + ": " + stbi_failure_reason() +
         " (PNG, JPEG, BMP, GIF, TGA, PSD, HDR and PNM images are read)";
}

}  // namespace

Result<ImagePreprocess> ParseImagePreprocess(const std::string& text) {
  ImagePreprocess p;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) return Status::Error("bad preprocessing '" + item + "': expected key=value");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "resize") {
      // Each side read whole as a 64-bit number (sscanf's %d wrapped 4294967424 to 128) and
      // bounded here, so a side the images could never have is refused as written.
      const size_t x = value.find('x');
      int64_t side[2] = {0, 0};
      for (int i = 0; i < 2 && x != std::string::npos; ++i) {
        const std::string text = i == 0 ? value.substr(0, x) : value.substr(x + 1);
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), side[i]);
        if (ec == std::errc::result_out_of_range) side[i] = kMaxImageSide + 1;
        else if (ec != std::errc() || end != text.data() + text.size() || text.empty()) side[i] = 0;
      }
      if (x == std::string::npos || side[0] <= 0 || side[1] <= 0) {
        return Status::Error("bad resize '" + value + "': expected WIDTHxHEIGHT, e.g. 128x128");
      }
      if (side[0] > kMaxImageSide || side[1] > kMaxImageSide) {
        return Status::Error("bad resize '" + value + "': a side is at most " + std::to_string(kMaxImageSide) +
                             " pixels");
      }
      p.width = static_cast<int>(side[0]);
      p.height = static_cast<int>(side[1]);
    } else if (key == "scale") {
      auto v = ParseTriple("scale", value);
      if (!v.ok()) return v.status();
      if (v.value()[1] != v.value()[0] || v.value()[2] != v.value()[0]) {
        return Status::Error("bad scale '" + value + "': one factor for every channel (per-channel values go in "
                             "mean and std)");
      }
      p.scale = v.value()[0];
    } else if (key == "mean" || key == "std") {
      auto v = ParseTriple(key, value);
      if (!v.ok()) return v.status();
      (key == "mean" ? p.mean : p.stddev) = v.take();
      if (key == "std" && std::any_of(p.stddev.begin(), p.stddev.end(), [](double s) { return s == 0; })) {
        return Status::Error("bad std '" + value + "': must not be 0");
      }
    } else if (key == "layout") {
      auto layout = ParseLayout(value, "--preprocess");
      if (!layout.ok() || layout.value() == Layout::kAny) {
        return Status::Error("bad layout '" + value + "' for --preprocess: use nhwc or nchw");
      }
      p.layout = layout.value();
    } else {
      return Status::Error("unknown preprocessing key '" + key + "': use resize, scale, mean, std, layout");
    }
  }
  return p;
}

Status CheckImageInput(const std::string& path, const ImagePreprocess& p) {
  if (p.width || p.height) {
    const std::string resize = "--preprocess resize=" + std::to_string(p.width) + "x" + std::to_string(p.height);
    if (Status s = CheckImageSize(resize, p.width, p.height, 3 * sizeof(float),
                                  "choose the model's input size");
        !s.ok()) {
      return s;
    }
  }
  // A FIFO would block the reader and a device never end: only a regular file is an image.
  if (const std::string kind = NonRegularFileKind(path); !kind.empty()) {
    return Status::Error("cannot read image '" + path + "': it is " + kind + ", not a regular file");
  }
  int w = 0, h = 0, channels = 0;
  // The header alone gives the size: check it before decoding.
  if (!::stbi_info(path.c_str(), &w, &h, &channels)) {
    unsigned char head[24] = {};
    size_t got = 0;
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
      got = std::fread(head, 1, sizeof head, f);
      std::fclose(f);
    }
    return Status::Error(UnreadableImageReason(head, got, "image '" + path + "'", "read"));
  }
  const std::string image = "image '" + path + "' (" + std::to_string(w) + "x" + std::to_string(h) + ")";
  if (Status s = CheckImageSize(image, w, h, 3, "use a smaller image"); !s.ok()) return s;
  if (!p.width && !p.height) {
    if (Status s = CheckImageSize(image + " as a float32 tensor", w, h, 3 * sizeof(float),
                                  "give --preprocess resize=WxH");
        !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

namespace {

// Calls store(x, y, c, value) for every pixel of an out_w x out_h bilinear resampling (at pixel
// centres) of HWC pixels, value in 0..255 unrounded. At the image's own size every sample falls
// on a pixel centre: the values are the pixels themselves.
template <typename Store>
void ResamplePixels(const unsigned char* src, int w, int h, int channels, int out_w, int out_h, Store store) {
  for (int y = 0; y < out_h; ++y) {
    const double sy = std::clamp((y + 0.5) * h / out_h - 0.5, 0.0, h - 1.0);
    const int y0 = static_cast<int>(sy), y1 = std::min(y0 + 1, h - 1);
    const double fy = sy - y0;
    for (int x = 0; x < out_w; ++x) {
      const double sx = std::clamp((x + 0.5) * w / out_w - 0.5, 0.0, w - 1.0);
      const int x0 = static_cast<int>(sx), x1 = std::min(x0 + 1, w - 1);
      const double fx = sx - x0;
      for (int c = 0; c < channels; ++c) {
        auto at = [&](int yy, int xx) {
          return static_cast<double>(src[(static_cast<size_t>(yy) * w + xx) * channels + c]);
        };
        store(x, y, c, (1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x1)) +
                           fy * ((1 - fx) * at(y1, x0) + fx * at(y1, x1)));
      }
    }
  }
}

using DecodedImage = std::unique_ptr<unsigned char, void (*)(void*)>;

// Decodes `path` to RGB.
Result<DecodedImage> DecodeRgb(const std::string& path, int& w, int& h) {
  int channels = 0;
  DecodedImage pixels(stbi_load(path.c_str(), &w, &h, &channels, 3), stbi_image_free);
  if (!pixels) return Status::Error("cannot read image '" + path + "': " + stbi_failure_reason());
  return pixels;
}

// The value of channel c among `values` (mean or std): one value serves every channel.
double ChannelValue(const std::vector<double>& values, int c) {
  return values.size() == 1 ? values[0] : values[static_cast<size_t>(c)];
}

bool AllEqual(const std::vector<double>& values) {
  return std::adjacent_find(values.begin(), values.end(), std::not_equal_to<>()) == values.end();
}

}  // namespace

Result<Tensor> PixelsToTensor(const uint8_t* pixels, int width, int height, int channels,
                              const ImagePreprocess& p, const std::string& what) {
  if (channels != 1 && channels != 3) {
    return Status::Error(what + " has " + std::to_string(channels) + " channels; images with 1 or 3 are supported");
  }
  // ParseImagePreprocess gives one value as three equal ones: a grey image takes those.
  const auto fits = [channels](const std::vector<double>& values) {
    if (values.empty()) return false;
    return channels == 1 ? AllEqual(values) : values.size() == 1 || values.size() == 3;
  };
  if (!fits(p.mean) || !fits(p.stddev)) {
    return Status::Error(what + " has " + std::to_string(channels) + (channels == 1 ? " channel" : " channels") +
                         " but --preprocess gives " + std::to_string(p.mean.size()) + " means and " +
                         std::to_string(p.stddev.size()) + " stds" +
                         (channels == 1 ? "; give one value each (mean=0.286,std=0.353)" : "; give 1 or 3 each"));
  }
  if (p.width || p.height) {
    const std::string resize = "--preprocess resize=" + std::to_string(p.width) + "x" + std::to_string(p.height);
    if (Status s = CheckImageSize(resize, p.width, p.height, static_cast<uint64_t>(channels) * sizeof(float),
                                  "choose the model's input size");
        !s.ok()) {
      return s;
    }
  }
  const int out_w = p.width ? p.width : width;
  const int out_h = p.height ? p.height : height;
  Tensor t;
  t.name = "image";
  t.dtype = DType::kFloat32;
  t.shape = p.layout == Layout::kNchw ? std::vector<int64_t>{1, channels, out_h, out_w}
                                      : std::vector<int64_t>{1, out_h, out_w, channels};
  t.data.resize(static_cast<size_t>(out_w) * out_h * channels * sizeof(float));
  float* out = t.as<float>();
  double mean[3], stddev[3];
  for (int c = 0; c < channels; ++c) {
    mean[c] = ChannelValue(p.mean, c);
    stddev[c] = ChannelValue(p.stddev, c);
  }
  ResamplePixels(pixels, width, height, channels, out_w, out_h, [&](int x, int y, int c, double v) {
    const double value = (v * p.scale - mean[c]) / stddev[c];
    const size_t index = p.layout == Layout::kNchw ? (static_cast<size_t>(c) * out_h + y) * out_w + x
                                                   : (static_cast<size_t>(y) * out_w + x) * channels + c;
    out[index] = static_cast<float>(value);
  });
  return t;
}

Result<Tensor> LoadImageTensor(const std::string& path, const ImagePreprocess& p) {
  if (Status s = CheckImageInput(path, p); !s.ok()) return s;
  int w = 0, h = 0;
  auto pixels = DecodeRgb(path, w, h);
  if (!pixels.ok()) return pixels.status();
  return PixelsToTensor(pixels.value().get(), w, h, 3, p, "image '" + path + "'");
}

Result<Tensor> LoadImagePixels(const std::string& path, const ImagePreprocess& p) {
  if (Status s = CheckImageInput(path, p); !s.ok()) return s;
  int w = 0, h = 0;
  auto pixels = DecodeRgb(path, w, h);
  if (!pixels.ok()) return pixels.status();
  const int out_w = p.width ? p.width : w;
  const int out_h = p.height ? p.height : h;
  Tensor t;
  t.name = "image";
  t.dtype = DType::kUInt8;
  t.shape = {1, out_h, out_w, 3};
  t.data.resize(static_cast<size_t>(out_w) * out_h * 3);
  uint8_t* out = t.as<uint8_t>();
  ResamplePixels(pixels.value().get(), w, h, 3, out_w, out_h, [&](int x, int y, int c, double v) {
    out[(static_cast<size_t>(y) * out_w + x) * 3 + c] = static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
  });
  return t;
}

Result<Tensor> DecodeImageBytes(const uint8_t* bytes, size_t size, const std::string& what) {
  if (size > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return Status::Error(what + " is " + std::to_string(size) + " bytes; encoded images are read up to 2 GiB");
  }
  const int length = static_cast<int>(size);
  int w = 0, h = 0, channels = 0;
  if (!::stbi_info_from_memory(bytes, length, &w, &h, &channels)) {
    return Status::Error(UnreadableImageReason(bytes, size, what, "decode"));
  }
  const std::string image = what + " (" + std::to_string(w) + "x" + std::to_string(h) + ")";
  if (Status s = CheckImageSize(image, w, h, 3, "use a smaller image"); !s.ok()) return s;
  DecodedImage pixels(stbi_load_from_memory(bytes, length, &w, &h, &channels, 3), stbi_image_free);
  if (!pixels) return Status::Error("cannot decode " + what + ": " + stbi_failure_reason());
  Tensor t;
  t.name = "frame";
  t.dtype = DType::kUInt8;
  t.shape = {1, h, w, 3};
  t.data.resize(static_cast<size_t>(w) * h * 3);
  std::memcpy(t.data.data(), pixels.get(), t.data.size());
  return t;
}

}  // namespace edgebench
