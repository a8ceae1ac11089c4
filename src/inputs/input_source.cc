#include "inputs/input_source.h"

#include <stb/stb_image.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>

#include "core/strings.h"
#include "inputs/dtype_values.h"
#include "inputs/input_generator.h"
#include "inputs/npy_file.h"

namespace edgebench {
namespace {

using Number = InputSource::Number;

constexpr char kAcceptedForms[] =
    "accepted: NAME=NUMBER (every element that value, e.g. sr=16000), NAME=range:LO:HI (seeded "
    "uniform; integers inclusive, floats [LO, HI)), NAME=FILE.npy or NAME=npy:FILE, "
    "NAME=raw:FILE (raw little-endian bytes of the input's type), NAME=image:FILE or "
    "NAME=image[resize=WxH,scale=S,mean=M,std=S,layout=nchw|nhwc]:FILE; repeat --input for one "
    "NAME to cycle several files through the pool";

Status BadSpec(const std::string& text, const std::string& why) {
  return Status::Error("bad --input '" + text + "': " + why);
}

std::optional<Number> ParseNumber(const std::string& text, bool allow_words) {
  Number n;
  n.text = text;
  if (allow_words && (text == "true" || text == "false")) {
    n.is_integer = true;
    n.integer = text == "true" ? 1 : 0;
    n.real = static_cast<double>(n.integer);
    return n;
  }
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (text.empty()) return std::nullopt;
  if (auto [at, ec] = std::from_chars(begin, end, n.integer); ec == std::errc() && at == end) {
    n.is_integer = true;
    n.real = static_cast<double>(n.integer);
    return n;
  }
  if (auto [at, ec] = std::from_chars(begin, end, n.real); ec == std::errc() && at == end) {
    if (!std::isfinite(n.real)) return std::nullopt;
    return n;
  }
  return std::nullopt;
}

// A whole number's value (the caller checked that it is whole).
int64_t WholeValue(const Number& n) {
  return n.is_integer ? n.integer : static_cast<int64_t>(n.real);
}

// Bytes of one element holding `n`, for the input's dtype; an error says both.
Result<std::vector<std::byte>> EncodeValue(const Number& n, const TensorSpec& input,
                                           const std::string& spec_text) {
  const DType dtype = input.dtype;
  const std::string target = "input '" + input.name + "' (" + DTypeName(dtype);
  std::vector<std::byte> bytes(DTypeSize(dtype));
  if (IsIntegral(dtype)) {
    const auto [lo, hi] = IntegerLimits(dtype);
    int64_t value = n.integer;
    if (!n.is_integer) {
      if (std::floor(n.real) != n.real || n.real < -0x1p63 || n.real >= 0x1p63) {
        return BadSpec(spec_text, n.text + " is not a whole number, and " + target + ") takes " +
                                      "whole numbers from " + std::to_string(lo) + " to " +
                                      std::to_string(hi));
      }
      value = static_cast<int64_t>(n.real);
    }
    if (value < lo || value > hi) {
      return BadSpec(spec_text, n.text + " does not fit " + target + ": " + std::to_string(lo) +
                                    " to " + std::to_string(hi) + ")");
    }
    StoreInteger(value, dtype, bytes.data());
    return bytes;
  }
  if (dtype == DType::kFloat32 || dtype == DType::kFloat16) {
    if (std::fabs(n.real) > FloatLimit(dtype)) {
      std::ostringstream limit;
      limit << FloatLimit(dtype);
      return BadSpec(spec_text, n.text + " does not fit " + target + ": magnitudes up to " +
                                    limit.str() + ")");
    }
    if (dtype == DType::kFloat32) {
      const auto v = static_cast<float>(n.real);
      std::memcpy(bytes.data(), &v, 4);
    } else {
      const uint16_t v = HalfFromDouble(n.real);
      std::memcpy(bytes.data(), &v, 2);
    }
    return bytes;
  }
  return BadSpec(spec_text, "input '" + input.name + "' has a data type edgebench cannot fill (" +
                                DTypeName(dtype) + ")");
}

struct NamedSources {
  std::string name;
  std::vector<InputSource> sources;
};

Result<std::vector<NamedSources>> ParseSpecs(const InputOptions& options) {
  std::vector<NamedSources> named;
  for (const std::string& text : options.specs) {
    auto parsed = ParseInputSpec(text);
    if (!parsed.ok()) return parsed.status();
    auto [name, source] = parsed.take();
    auto it = std::find_if(named.begin(), named.end(),
                           [&](const NamedSources& n) { return n.name == name; });
    if (it == named.end()) {
      named.push_back({name, {}});
      it = named.end() - 1;
    }
    it->sources.push_back(std::move(source));
  }
  return named;
}

std::string InputNames(const Signature& signature) {
  std::string names;
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    names += (i ? ", '" : "'") + signature.inputs[i].name + "'";
  }
  return names.empty() ? "none" : names;
}

// Index of each named input in the signature; an unknown name is an error listing the inputs.
Result<std::vector<size_t>> FindInputs(const std::vector<NamedSources>& named,
                                       const Signature& signature) {
  std::vector<size_t> indices;
  for (const NamedSources& n : named) {
    auto it = std::find_if(signature.inputs.begin(), signature.inputs.end(),
                           [&](const TensorSpec& s) { return s.name == n.name; });
    if (it == signature.inputs.end()) {
      return BadSpec(n.sources.front().text, "the model has no input '" + n.name +
                                                 "'; its inputs are " + InputNames(signature));
    }
    indices.push_back(static_cast<size_t>(it - signature.inputs.begin()));
  }
  return indices;
}

std::string Describe(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string DescribeTriple(const std::vector<double>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ":" : "") + Describe(values[i]);
  return text;
}

// The shape a file source gives, or nullopt for sources that take the input's shape.
Result<std::optional<std::vector<int64_t>>> FileShape(const InputSource& source) {
  if (source.kind == InputSource::Kind::kNpy) {
    auto header = ReadNpyHeader(source.path);
    if (!header.ok()) return BadSpec(source.text, header.error());
    return std::optional(header.value().shape);
  }
  if (source.kind == InputSource::Kind::kImage) {
    int width = 0, height = 0, channels = 0;  // probed even when resized: the file must be there
    if (!stbi_info(source.path.c_str(), &width, &height, &channels)) {
      return BadSpec(source.text, "cannot read image '" + source.path + "': " +
                                      stbi_failure_reason());
    }
    if (source.preprocess.width) {
      width = source.preprocess.width;
      height = source.preprocess.height;
    }
    return std::optional(source.preprocess.layout == Layout::kNchw
                             ? std::vector<int64_t>{1, 3, height, width}
                             : std::vector<int64_t>{1, height, width, 3});
  }
  if (source.kind == InputSource::Kind::kRaw) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(source.path, ec) || !std::ifstream(source.path)) {
      return BadSpec(source.text, "cannot read raw file '" + source.path + "'");
    }
  }
  return std::optional<std::vector<int64_t>>();
}

std::string ShapeHint(const InputSource& source) {
  if (source.kind == InputSource::Kind::kImage) {
    return source.preprocess.layout == Layout::kNchw
               ? " (the image is laid out nchw; for nhwc write image[layout=nhwc,...]:FILE, and "
                 "resize with resize=WxH)"
               : " (the image is laid out nhwc; for nchw write image[layout=nchw,...]:FILE, and "
                 "resize with resize=WxH)";
  }
  return "";
}

uint64_t MachineMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return std::numeric_limits<uint64_t>::max();
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

std::string DescribeBytes(long double bytes) {
  std::ostringstream out;
  out << std::setprecision(3) << static_cast<double>(bytes);
  return out.str();
}

// The byte size of one tensor, overflow-checked and within the machine's memory.
Result<uint64_t> TensorBytes(const TensorSpec& input, const std::vector<int64_t>& shape,
                             uint64_t memory_bytes) {
  const uint64_t width = DTypeSize(input.dtype);
  if (width == 0) {
    return Status::Error("input '" + input.name + "' has a data type edgebench cannot fill (" +
                         DTypeName(input.dtype) + ")");
  }
  uint64_t bytes = width;
  bool overflow = false;
  long double approximate = static_cast<long double>(width);
  for (int64_t d : shape) {
    if (d < 0) {
      return Status::Error("internal: input '" + input.name + "' has an unresolved shape " +
                           ShapeToString(shape));
    }
    overflow = overflow || __builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes);
    approximate *= static_cast<long double>(d);
  }
  if (overflow || bytes > memory_bytes) {
    return Status::Error("input '" + input.name + "' " + ShapeToString(shape) + " " +
                         DTypeName(input.dtype) + " needs " + DescribeBytes(approximate) +
                         " bytes, more than this machine's memory (" +
                         DescribeBytes(static_cast<long double>(memory_bytes)) +
                         " bytes); check its shape (--dim)");
  }
  return bytes;
}

Tensor Filled(const TensorSpec& input, const std::vector<int64_t>& shape,
              const std::vector<std::byte>& element) {
  Tensor t;
  t.name = input.name;
  t.dtype = input.dtype;
  t.shape = shape;
  const size_t n = static_cast<size_t>(ElementCount(shape));
  t.data.resize(n * element.size());
  for (size_t k = 0; k < n; ++k) {
    std::memcpy(t.data.data() + k * element.size(), element.data(), element.size());
  }
  return t;
}

// A range, checked against the input's dtype; Fill draws one sample's tensor.
class RangeFiller {
 public:
  static Result<RangeFiller> Make(const InputSource& source, const TensorSpec& input) {
    RangeFiller r;
    r.dtype_ = input.dtype;
    const std::string& text = source.text;
    if (IsIntegral(input.dtype)) {
      auto lo = EncodeValue(source.low, input, text);
      if (!lo.ok()) return lo.status();
      auto hi = EncodeValue(source.high, input, text);
      if (!hi.ok()) return hi.status();
      r.int_low_ = WholeValue(source.low);
      r.int_high_ = WholeValue(source.high);
      if (r.int_low_ > r.int_high_) {
        return BadSpec(text, "the range is empty: LO must be at most HI");
      }
      return r;
    }
    if (input.dtype != DType::kFloat32 && input.dtype != DType::kFloat16) {
      return BadSpec(text, "input '" + input.name + "' has a data type edgebench cannot fill (" +
                               DTypeName(input.dtype) + ")");
    }
    for (const Number* bound : {&source.low, &source.high}) {
      auto fits = EncodeValue(*bound, input, text);
      if (!fits.ok()) return fits.status();
    }
    r.low_ = source.low.real;
    r.high_ = source.high.real;
    // The representable values in [LO, HI): rounding a draw to the dtype must not leave it.
    if (input.dtype == DType::kFloat32) {
      float lo = static_cast<float>(r.low_), hi = static_cast<float>(r.high_);
      if (lo < r.low_) lo = std::nextafter(lo, std::numeric_limits<float>::infinity());
      while (hi >= r.high_) hi = std::nextafter(hi, -std::numeric_limits<float>::infinity());
      r.clamp_low_ = lo;
      r.clamp_high_ = hi;
    } else {
      uint16_t lo = HalfFromDouble(r.low_), hi = HalfFromDouble(r.high_);
      if (HalfToDouble(lo) < r.low_) lo = HalfNextUp(lo);
      while (HalfToDouble(hi) >= r.high_) hi = HalfNextDown(hi);
      r.clamp_low_ = HalfToDouble(lo);
      r.clamp_high_ = HalfToDouble(hi);
    }
    if (!(r.clamp_low_ <= r.clamp_high_)) {
      return BadSpec(text, "no " + DTypeName(input.dtype) + " value lies in [" + source.low.text +
                               ", " + source.high.text + ") for input '" + input.name +
                               "' (floats take [LO, HI): LO must be below HI)");
    }
    return r;
  }

  void Fill(Tensor& t, uint64_t seed, size_t input_index) const {
    std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                      static_cast<uint32_t>(input_index)};
    std::mt19937_64 rng(seq);
    const size_t n = static_cast<size_t>(t.element_count());
    const size_t width = DTypeSize(dtype_);
    if (IsIntegral(dtype_)) {
      std::uniform_int_distribution<int64_t> draw(int_low_, int_high_);
      for (size_t k = 0; k < n; ++k) StoreInteger(draw(rng), dtype_, t.data.data() + k * width);
      return;
    }
    std::uniform_real_distribution<double> draw(low_, high_);
    for (size_t k = 0; k < n; ++k) {
      const double v = draw(rng);
      std::byte* at = t.data.data() + k * width;
      if (dtype_ == DType::kFloat32) {
        const float x = std::clamp(static_cast<float>(v), static_cast<float>(clamp_low_),
                                   static_cast<float>(clamp_high_));
        std::memcpy(at, &x, 4);
      } else {
        uint16_t x = HalfFromDouble(v);
        if (HalfToDouble(x) < clamp_low_) x = HalfFromDouble(clamp_low_);
        if (HalfToDouble(x) > clamp_high_) x = HalfFromDouble(clamp_high_);
        std::memcpy(at, &x, 2);
      }
    }
  }

 private:
  DType dtype_ = DType::kUnknown;
  int64_t int_low_ = 0, int_high_ = 0;
  double low_ = 0, high_ = 0, clamp_low_ = 0, clamp_high_ = 0;
};

std::string SeededProvenance(DType dtype, uint64_t seed, int64_t pool) {
  std::string what = IsIntegral(dtype) ? (dtype == DType::kBool ? "seeded coin flips"
                                                                : "seeded uniform [0, 99]")
                                       : "seeded uniform [-1, 1)";
  return what + " (seed " + std::to_string(seed) + (pool > 1 ? " + sample index)" : ")");
}

std::string SourceProvenance(const InputSource& source, const TensorSpec& input,
                             const std::vector<int64_t>& shape, uint64_t seed, int64_t pool) {
  const std::string shape_text = ShapeToString(shape);
  const std::string dims = shape_text.substr(1, shape_text.size() - 2);  // "1x4", "" for scalars
  const std::string typed = "[" + dims + (dims.empty() ? "" : " ") + DTypeName(input.dtype) + "]";
  switch (source.kind) {
    case InputSource::Kind::kFixed: return "fixed " + source.value.text;
    case InputSource::Kind::kRange:
      return "range [" + source.low.text + ", " + source.high.text +
             (IsIntegral(input.dtype) ? "]" : ")") + " (seed " + std::to_string(seed) +
             (pool > 1 ? " + sample index)" : ")");
    case InputSource::Kind::kNpy:
      return "file " + source.path + " " + typed;
    case InputSource::Kind::kRaw:
      return "raw " + source.path + " " + typed;
    case InputSource::Kind::kImage: {
      const ImagePreprocess& p = source.preprocess;
      return "image " + source.path + " (" +
             (p.width ? "resize " + std::to_string(p.width) + "x" + std::to_string(p.height)
                      : std::string("no resize")) +
             ", scale " + Describe(p.scale) + ", mean " + DescribeTriple(p.mean) + ", std " +
             DescribeTriple(p.stddev) + ", " + (p.layout == Layout::kNchw ? "nchw" : "nhwc") + ")";
    }
  }
  return "";
}

// A file source read and checked against the input: dtype and shape must be equal.
Result<Tensor> LoadFile(const InputSource& source, const TensorSpec& input,
                        const std::vector<int64_t>& shape, uint64_t bytes) {
  const std::string& text = source.text;
  Tensor t;
  if (source.kind == InputSource::Kind::kRaw) {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(source.path, ec);
    if (ec) return BadSpec(text, "cannot read raw file '" + source.path + "': " + ec.message());
    if (size != bytes) {
      return BadSpec(text, "raw file '" + source.path + "' has " + std::to_string(size) +
                               " bytes; input '" + input.name + "' " + ShapeToString(shape) + " " +
                               DTypeName(input.dtype) + " takes " + std::to_string(bytes));
    }
    t.dtype = input.dtype;
    t.shape = shape;
    t.data.resize(bytes);
    std::ifstream in(source.path, std::ios::binary);
    in.read(reinterpret_cast<char*>(t.data.data()), static_cast<std::streamsize>(bytes));
    if (!in) return BadSpec(text, "reading raw file '" + source.path + "' failed");
  } else {
    auto loaded = source.kind == InputSource::Kind::kNpy
                      ? ReadNpyFile(source.path)
                      : LoadImageTensor(source.path, source.preprocess);
    if (!loaded.ok()) return BadSpec(text, loaded.error());
    t = loaded.take();
    const std::string what = source.kind == InputSource::Kind::kNpy
                                 ? "file '" + source.path + "'"
                                 : "image '" + source.path + "'";
    if (t.dtype != input.dtype) {
      return BadSpec(text, what + " holds " + DTypeName(t.dtype) + " but input '" + input.name +
                               "' is " + DTypeName(input.dtype));
    }
    if (t.shape != shape) {
      return BadSpec(text, what + " is " + ShapeToString(t.shape) + " but input '" + input.name +
                               "' is " + ShapeToString(shape) + ShapeHint(source));
    }
  }
  t.name = input.name;
  return t;
}

}  // namespace

nlohmann::json InputOptionsToJson(const InputOptions& options) {
  return {{"specs", options.specs}, {"pool_size", options.pool_size}, {"seed", options.seed}};
}

Result<InputOptions> InputOptionsFromJson(const nlohmann::json& json) {
  InputOptions options;
  if (json.is_null()) return options;
  if (!json.is_object()) return Status::Error("input options: expected a JSON object");
  if (json.contains("specs")) {
    const auto& specs = json["specs"];
    if (!specs.is_array()) return Status::Error("input options: 'specs' must be a list of strings");
    for (const auto& spec : specs) {
      if (!spec.is_string()) {
        return Status::Error("input options: 'specs' must be a list of strings");
      }
      options.specs.push_back(spec.get<std::string>());
    }
  }
  if (json.contains("pool_size")) {
    if (!json["pool_size"].is_number_integer()) {
      return Status::Error("input options: 'pool_size' must be an integer");
    }
    options.pool_size = json["pool_size"].get<int64_t>();
  }
  if (json.contains("seed")) {
    if (!json["seed"].is_number_unsigned() && !(json["seed"].is_number_integer() &&
                                                json["seed"].get<int64_t>() >= 0)) {
      return Status::Error("input options: 'seed' must be a non-negative integer");
    }
    options.seed = json["seed"].get<uint64_t>();
  }
  return options;
}

Result<std::pair<std::string, InputSource>> ParseInputSpec(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    return BadSpec(text, std::string("expected NAME=SPEC; ") + kAcceptedForms);
  }
  const std::string name = text.substr(0, eq), spec = text.substr(eq + 1);
  InputSource source;
  source.text = text;
  auto need_path = [&](std::string_view prefix) -> Status {
    source.path = spec.substr(prefix.size());
    if (source.path.empty()) return BadSpec(text, "no file after '" + std::string(prefix) + "'");
    return Status::Ok();
  };
  if (StartsWith(spec, "range:")) {
    source.kind = InputSource::Kind::kRange;
    const std::string bounds = spec.substr(6);
    const auto colon = bounds.find(':');
    std::optional<Number> low, high;
    if (colon != std::string::npos) {
      low = ParseNumber(bounds.substr(0, colon), false);
      high = ParseNumber(bounds.substr(colon + 1), false);
    }
    if (!low || !high) {
      return BadSpec(text, "expected range:LO:HI with two finite numbers, e.g. range:0:255 or "
                           "range:-1:1");
    }
    const bool both_integers = low->is_integer && high->is_integer;
    if (both_integers ? low->integer > high->integer : low->real > high->real) {
      return BadSpec(text, "the range is empty: LO (" + low->text + ") is above HI (" +
                               high->text + ")");
    }
    source.low = *low;
    source.high = *high;
  } else if (StartsWith(spec, "npy:")) {
    source.kind = InputSource::Kind::kNpy;
    if (Status s = need_path("npy:"); !s.ok()) return s;
  } else if (StartsWith(spec, "raw:")) {
    source.kind = InputSource::Kind::kRaw;
    if (Status s = need_path("raw:"); !s.ok()) return s;
  } else if (StartsWith(spec, "image:")) {
    source.kind = InputSource::Kind::kImage;
    if (Status s = need_path("image:"); !s.ok()) return s;
  } else if (StartsWith(spec, "image[")) {
    source.kind = InputSource::Kind::kImage;
    const auto close = spec.find(']');
    if (close == std::string::npos || close + 1 >= spec.size() || spec[close + 1] != ':') {
      return BadSpec(text, "expected image[PREPROCESS]:FILE, e.g. "
                           "image[resize=224x224,layout=nchw]:cat.png");
    }
    auto preprocess = ParseImagePreprocess(spec.substr(6, close - 6));
    if (!preprocess.ok()) return BadSpec(text, preprocess.error());
    source.preprocess = preprocess.take();
    source.path = spec.substr(close + 2);
    if (source.path.empty()) return BadSpec(text, "no file after ']:'");
  } else if (EndsWith(spec, ".npy")) {
    source.kind = InputSource::Kind::kNpy;
    source.path = spec;
  } else if (auto number = ParseNumber(spec, true)) {
    source.kind = InputSource::Kind::kFixed;
    source.value = *number;
  } else {
    return BadSpec(text, "'" + spec + "' is neither a number nor a known source; " +
                             kAcceptedForms);
  }
  return std::pair{name, std::move(source)};
}

Status ValidateInputOptions(const InputOptions& options) {
  if (options.pool_size < 1) {
    return Status::Error("bad --input-pool " + std::to_string(options.pool_size) +
                         ": the pool holds at least 1 sample");
  }
  auto named = ParseSpecs(options);
  if (!named.ok()) return named.status();
  for (const NamedSources& n : named.value()) {
    for (const InputSource& source : n.sources) {
      auto shape = FileShape(source);  // opens files and reads headers, so errors come early
      if (!shape.ok()) return shape.status();
    }
  }
  return Status::Ok();
}

Result<ShapeBindings> ShapeBindingsFromInputs(const Signature& signature,
                                              const InputOptions& options) {
  auto named = ParseSpecs(options);
  if (!named.ok()) return named.status();
  auto indices = FindInputs(named.value(), signature);
  if (!indices.ok()) return indices.status();
  ShapeBindings bindings;
  std::map<std::string, std::string> symbol_bound_by;  // symbol -> which file bound it
  for (size_t k = 0; k < named.value().size(); ++k) {
    const TensorSpec& input = signature.inputs[indices.value()[k]];
    const InputSource* first = nullptr;
    std::vector<int64_t> first_shape;
    for (const InputSource& source : named.value()[k].sources) {
      auto shape_or = FileShape(source);
      if (!shape_or.ok()) return shape_or.status();
      if (!shape_or.value()) continue;
      const std::vector<int64_t>& shape = *shape_or.value();
      if (first) {
        if (shape != first_shape) {
          return BadSpec(source.text, "'" + source.path + "' is " + ShapeToString(shape) +
                                          " but '" + first->path + "' for the same input is " +
                                          ShapeToString(first_shape) +
                                          "; the files of one input must have one shape");
        }
        continue;
      }
      first = &source;
      first_shape = shape;
      if (shape.size() != input.shape.size()) {
        return BadSpec(source.text, "'" + source.path + "' is " + ShapeToString(shape) + " (" +
                                        std::to_string(shape.size()) + " axes) but input '" +
                                        input.name + "' is " + ShapeToString(input.shape) + " (" +
                                        std::to_string(input.shape.size()) + " axes)" +
                                        ShapeHint(source));
      }
      for (size_t axis = 0; axis < shape.size(); ++axis) {
        const Dim& dim = input.shape[axis];
        if (dim.fixed()) {
          if (dim.size != shape[axis]) {
            return BadSpec(source.text, "'" + source.path + "' is " + ShapeToString(shape) +
                                            " but input '" + input.name + "' is " +
                                            ShapeToString(input.shape) + ": axis " +
                                            std::to_string(axis) + " is fixed at " +
                                            std::to_string(dim.size) + ShapeHint(source));
          }
          continue;
        }
        bindings[input.name + "." + std::to_string(axis)] = shape[axis];
        if (dim.symbol == "?" || dim.symbol.empty()) continue;
        const std::string here = "'" + source.path + "' (input '" + input.name + "' axis " +
                                 std::to_string(axis) + ")";
        auto bound = bindings.find(dim.symbol);
        if (bound != bindings.end() && bound->second != shape[axis]) {
          return BadSpec(source.text, "files disagree on '" + dim.symbol + "': " +
                                          symbol_bound_by[dim.symbol] + " makes it " +
                                          std::to_string(bound->second) + ", " + here +
                                          " makes it " + std::to_string(shape[axis]));
        }
        bindings[dim.symbol] = shape[axis];
        symbol_bound_by.emplace(dim.symbol, here);
      }
    }
  }
  return bindings;
}

ShapeBindings OverrideShapeBindings(ShapeBindings dims, const ShapeBindings& from_inputs) {
  for (const auto& [key, value] : from_inputs) dims[key] = value;
  return dims;
}

Result<InputPool> BuildInputPool(const Signature& signature,
                                 const std::vector<std::vector<int64_t>>& shapes,
                                 const InputOptions& options) {
  if (shapes.size() != signature.inputs.size()) {
    return Status::Error("internal: " + std::to_string(shapes.size()) + " shapes for " +
                         std::to_string(signature.inputs.size()) + " inputs");
  }
  if (options.pool_size < 1) {
    return Status::Error("bad --input-pool " + std::to_string(options.pool_size) +
                         ": the pool holds at least 1 sample");
  }
  auto named = ParseSpecs(options);
  if (!named.ok()) return named.status();
  auto indices = FindInputs(named.value(), signature);
  if (!indices.ok()) return indices.status();
  // sources_of[i]: the sources of signature input i (empty: seeded).
  std::vector<const std::vector<InputSource>*> sources_of(signature.inputs.size(), nullptr);
  int64_t pool = options.pool_size;
  for (size_t k = 0; k < named.value().size(); ++k) {
    sources_of[indices.value()[k]] = &named.value()[k].sources;
    pool = std::max<int64_t>(pool, static_cast<int64_t>(named.value()[k].sources.size()));
  }
  const bool any_seeded =
      std::find(sources_of.begin(), sources_of.end(), nullptr) != sources_of.end();

  // Every size before any allocation.
  const uint64_t memory = MachineMemoryBytes();
  std::vector<uint64_t> bytes_of;
  uint64_t sample_bytes = 0;
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    auto bytes = TensorBytes(signature.inputs[i], shapes[i], memory);
    if (!bytes.ok()) return bytes.status();
    bytes_of.push_back(bytes.value());
    sample_bytes += bytes.value();  // each term is below the memory size: no overflow
  }
  uint64_t pool_bytes = 0;
  // While seeded inputs are generated, one whole sample more is alive.
  const uint64_t samples_alive = static_cast<uint64_t>(pool) + (any_seeded ? 1 : 0);
  if (__builtin_mul_overflow(sample_bytes, samples_alive, &pool_bytes) ||
      pool_bytes > memory) {
    return Status::Error(
        "the input pool (" + std::to_string(pool) + " samples of " + std::to_string(sample_bytes) +
        " bytes) needs " +
        DescribeBytes(static_cast<long double>(sample_bytes) * static_cast<long double>(pool)) +
        " bytes, more than this machine's memory (" +
        DescribeBytes(static_cast<long double>(memory)) + " bytes); lower --input-pool");
  }

  InputPool result;
  result.samples.assign(static_cast<size_t>(pool), std::vector<Tensor>(signature.inputs.size()));
  result.provenance.resize(signature.inputs.size());
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    const TensorSpec& input = signature.inputs[i];
    if (!sources_of[i]) {
      result.provenance[i] = SeededProvenance(input.dtype, options.seed, pool);
      continue;
    }
    const std::vector<InputSource>& sources = *sources_of[i];
    std::vector<std::string> described;
    // Each source made once; samples take source s % count.
    for (size_t j = 0; j < sources.size(); ++j) {
      const InputSource& source = sources[j];
      described.push_back(SourceProvenance(source, input, shapes[i], options.seed, pool));
      std::optional<Tensor> same_every_time;
      std::optional<RangeFiller> range;
      if (source.kind == InputSource::Kind::kFixed) {
        auto element = EncodeValue(source.value, input, source.text);
        if (!element.ok()) return element.status();
        same_every_time = Filled(input, shapes[i], element.value());
      } else if (source.kind == InputSource::Kind::kRange) {
        auto made = RangeFiller::Make(source, input);
        if (!made.ok()) return made.status();
        range = made.take();
      } else {
        auto loaded = LoadFile(source, input, shapes[i], bytes_of[i]);
        if (!loaded.ok()) return loaded.status();
        same_every_time = loaded.take();
      }
      for (size_t s = j; s < result.samples.size(); s += sources.size()) {
        Tensor& t = result.samples[s][i];
        if (same_every_time) {
          t = *same_every_time;
        } else {
          t = Filled(input, shapes[i], std::vector<std::byte>(DTypeSize(input.dtype)));
          range->Fill(t, options.seed + s, i);
        }
      }
    }
    if (described.size() == 1) {
      result.provenance[i] = described[0];
    } else {
      result.provenance[i] = "cycled over " + std::to_string(described.size()) + ": ";
      for (size_t j = 0; j < described.size(); ++j) {
        result.provenance[i] += (j ? "; " : "") + described[j];
      }
    }
  }
  if (any_seeded) {
    // The whole signature, so each seeded input gets exactly the bytes GenerateInputs gives it.
    for (size_t s = 0; s < result.samples.size(); ++s) {
      auto generated = GenerateInputs(signature, shapes, options.seed + s);
      if (!generated.ok()) return generated.status();
      for (size_t i = 0; i < signature.inputs.size(); ++i) {
        if (!sources_of[i]) result.samples[s][i] = std::move(generated.value()[i]);
      }
    }
  }
  return result;
}

}  // namespace edgebench
