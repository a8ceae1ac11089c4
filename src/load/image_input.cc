#include "load/image_input.h"

#include <stb/stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

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
  }
  if (v.size() == 1) v = {v[0], v[0], v[0]};
  if (v.size() != 3) return Status::Error("bad " + key + " '" + value + "': give 1 or 3 values");
  return v;
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
      int w = 0, h = 0;
      char x = 0, extra = 0;
      if (std::sscanf(value.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || x != 'x' || w <= 0 || h <= 0) {
        return Status::Error("bad resize '" + value + "': expected WIDTHxHEIGHT, e.g. 128x128");
      }
      p.width = w;
      p.height = h;
    } else if (key == "scale") {
      auto v = ParseTriple("scale", value);
      if (!v.ok()) return v.status();
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

Result<Tensor> LoadImageTensor(const std::string& path, const ImagePreprocess& p) {
  int w = 0, h = 0, channels = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> pixels(stbi_load(path.c_str(), &w, &h, &channels, 3),
                                                         stbi_image_free);
  if (!pixels) {
    return Status::Error("cannot read image '" + path + "': " + stbi_failure_reason());
  }
  const int out_w = p.width ? p.width : w;
  const int out_h = p.height ? p.height : h;
  Tensor t;
  t.name = "image";
  t.dtype = DType::kFloat32;
  t.shape = p.layout == Layout::kNchw ? std::vector<int64_t>{1, 3, out_h, out_w}
                                      : std::vector<int64_t>{1, out_h, out_w, 3};
  t.data.resize(static_cast<size_t>(out_w) * out_h * 3 * sizeof(float));
  float* out = t.as<float>();
  const unsigned char* src = pixels.get();
  for (int y = 0; y < out_h; ++y) {
    // Bilinear sampling at pixel centres.
    const double sy = std::clamp((y + 0.5) * h / out_h - 0.5, 0.0, h - 1.0);
    const int y0 = static_cast<int>(sy), y1 = std::min(y0 + 1, h - 1);
    const double fy = sy - y0;
    for (int x = 0; x < out_w; ++x) {
      const double sx = std::clamp((x + 0.5) * w / out_w - 0.5, 0.0, w - 1.0);
      const int x0 = static_cast<int>(sx), x1 = std::min(x0 + 1, w - 1);
      const double fx = sx - x0;
      for (int c = 0; c < 3; ++c) {
        auto at = [&](int yy, int xx) { return static_cast<double>(src[(yy * w + xx) * 3 + c]); };
        const double v = (1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x1)) +
                         fy * ((1 - fx) * at(y1, x0) + fx * at(y1, x1));
        const double value = (v * p.scale - p.mean[c]) / p.stddev[c];
        const size_t index = p.layout == Layout::kNchw
                                 ? (static_cast<size_t>(c) * out_h + y) * out_w + x
                                 : (static_cast<size_t>(y) * out_w + x) * 3 + c;
        out[index] = static_cast<float>(value);
      }
    }
  }
  return t;
}

}  // namespace edgebench
