#include "inputs/npy_file.h"

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

namespace edgebench {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr char kAccepted[] = "<f4 <f2 |i1 |u1 <i4 <i8 |b1";

Status Bad(const std::string& label, const std::string& what) {
  return Status::Error("cannot read .npy file '" + label + "': " + what);
}

// Magic, version and header length: where the header starts and how long it is.
struct Preamble {
  int major_version = 0;
  int minor_version = 0;
  uint64_t header_start = 0;
  uint64_t header_length = 0;
};

Result<Preamble> ParsePreamble(std::string_view bytes, const std::string& label) {
  if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic) {
    return Bad(label, "it does not start with the .npy magic \"\\x93NUMPY\" (is it a .npy file?)");
  }
  if (bytes.size() < kMagic.size() + 2) return Bad(label, "the file ends inside its preamble");
  Preamble p;
  p.major_version = static_cast<unsigned char>(bytes[6]);
  p.minor_version = static_cast<unsigned char>(bytes[7]);
  if (p.major_version < 1 || p.major_version > 3 || p.minor_version != 0) {
    return Bad(label, "format version " + std::to_string(p.major_version) + "." +
                          std::to_string(p.minor_version) +
                          " is not one edgebench reads (1.0, 2.0 and 3.0)");
  }
  const size_t length_bytes = p.major_version == 1 ? 2 : 4;
  if (bytes.size() < 8 + length_bytes) return Bad(label, "the file ends inside its preamble");
  for (size_t i = 0; i < length_bytes; ++i) {  // little-endian, whatever the host
    p.header_length |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
  }
  p.header_start = 8 + length_bytes;
  return p;
}

// The header is a Python dict literal; only the values .npy headers hold are understood:
// strings, True/False and tuples of non-negative integers.
struct HeaderValue {
  enum class Kind { kString, kBool, kTuple } kind = Kind::kString;
  std::string text;
  bool flag = false;
  std::vector<int64_t> integers;
};

class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& label) : text_(text), label_(label) {}

  Result<std::vector<std::pair<std::string, HeaderValue>>> ParseDict() {
    std::vector<std::pair<std::string, HeaderValue>> entries;
    SkipSpace();
    if (!Take('{')) return Expected("'{' at the start of the header");
    for (;;) {
      SkipSpace();
      if (Take('}')) break;
      auto key = ParseString();
      if (!key.ok()) return key.status();
      SkipSpace();
      if (!Take(':')) return Expected("':' after key '" + key.value() + "'");
      SkipSpace();
      auto value = ParseValue(key.value());
      if (!value.ok()) return value.status();
      entries.emplace_back(key.take(), value.take());
      SkipSpace();
      if (Take('}')) break;
      if (!Take(',')) {
        return Expected("',' or '}' after the value of '" + entries.back().first + "'");
      }
    }
    SkipSpace();
    if (pos_ != text_.size()) return Expected("only padding after the header's closing '}'");
    return entries;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Take(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool TakeWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  Status Expected(const std::string& what) const {
    const std::string near(text_.substr(pos_, 20));
    return Bad(label_, "malformed header: expected " + what + " at byte " + std::to_string(pos_) +
                           " of the header" + (near.empty() ? "" : " (near \"" + near + "\")"));
  }

  Result<std::string> ParseString() {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return Expected("a quoted string");
    }
    const char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out += text_[pos_++];
    }
    if (!Take(quote)) return Expected("a closing quote");
    return out;
  }

  Result<HeaderValue> ParseValue(const std::string& key) {
    HeaderValue v;
    if (pos_ < text_.size() && (text_[pos_] == '\'' || text_[pos_] == '"')) {
      auto s = ParseString();
      if (!s.ok()) return s.status();
      v.kind = HeaderValue::Kind::kString;
      v.text = s.take();
      return v;
    }
    if (TakeWord("True") || TakeWord("False")) {
      v.kind = HeaderValue::Kind::kBool;
      v.flag = text_.substr(pos_ - 4, 4) == "True";
      return v;
    }
    if (Take('(')) {
      v.kind = HeaderValue::Kind::kTuple;
      SkipSpace();
      if (Take(')')) return v;
      for (;;) {
        auto n = ParseNonNegativeInteger(key);
        if (!n.ok()) return n.status();
        v.integers.push_back(n.value());
        SkipSpace();
        if (Take(')')) return v;
        if (!Take(',')) return Expected("',' or ')' in the tuple of '" + key + "'");
        SkipSpace();
        if (Take(')')) return v;  // (3,) and (2, 3, )
      }
    }
    if (pos_ < text_.size() && text_[pos_] == '[') {
      return Bad(label_, "its dtype is a list of fields (a structured array); edgebench reads "
                         "plain arrays of one of " + std::string(kAccepted));
    }
    return Expected("a string, True, False or a tuple as the value of '" + key + "'");
  }

  Result<int64_t> ParseNonNegativeInteger(const std::string& key) {
    const size_t start = pos_;
    int64_t n = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, text_[pos_] - '0', &n)) {
        return Bad(label_, "a dimension in '" + key + "' is too large");
      }
      ++pos_;
    }
    if (pos_ == start) return Expected("a non-negative integer in '" + key + "'");
    Take('L');  // Python 2 wrote longs as 3L
    return n;
  }

  std::string_view text_;
  const std::string& label_;
  size_t pos_ = 0;
};

struct DTypeCode {
  std::string_view descr;
  DType dtype;
};
// One-byte types have no byte order: NumPy writes '|'; some other writers write '<'.
constexpr std::array<DTypeCode, 10> kDTypes = {{{"<f4", DType::kFloat32},
                                                {"<f2", DType::kFloat16},
                                                {"|i1", DType::kInt8},
                                                {"<i1", DType::kInt8},
                                                {"|u1", DType::kUInt8},
                                                {"<u1", DType::kUInt8},
                                                {"<i4", DType::kInt32},
                                                {"<i8", DType::kInt64},
                                                {"|b1", DType::kBool},
                                                {"<b1", DType::kBool}}};

Result<DType> DTypeFromDescr(const std::string& descr, const std::string& label) {
  for (const DTypeCode& code : kDTypes) {
    if (code.descr == descr) return code.dtype;
  }
  std::string why = "its dtype '" + descr + "' is not one edgebench reads";
  if (descr.size() >= 3 && descr[0] == '>' && descr.substr(1) != "i1" && descr.substr(1) != "u1") {
    why = "its dtype '" + descr + "' is big-endian; save it little-endian, e.g. " +
          "np.save(path, a.astype('<" + descr.substr(1) + "'))";
  } else if (descr == "<f8") {
    why = "it holds float64 ('<f8'), which no edgebench input takes; convert it to the input's "
          "type, e.g. np.save(path, a.astype(np.float32))";
  } else if (descr == "|O") {
    why = "it holds Python objects (pickled), which edgebench does not read";
  }
  return Bad(label, why + " (accepted: " + kAccepted + ")");
}

Result<std::string> ReadBytes(std::ifstream& in, uint64_t count, const std::string& label) {
  std::string bytes(count, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(count));
  if (static_cast<uint64_t>(in.gcount()) != count) {
    return Bad(label, "the file ends inside its header");
  }
  return bytes;
}

Result<uint64_t> FileSize(const std::string& path) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return Status::Error("cannot read .npy file '" + path + "': " + ec.message());
  return size;
}

}  // namespace

Result<NpyHeader> ParseNpyHeader(std::string_view bytes, const std::string& label) {
  auto preamble = ParsePreamble(bytes, label);
  if (!preamble.ok()) return preamble.status();
  const Preamble& p = preamble.value();
  if (bytes.size() - p.header_start < p.header_length) {
    return Bad(label, "its header claims " + std::to_string(p.header_length) +
                          " bytes but the file ends before that");
  }
  const std::string_view text = bytes.substr(p.header_start, p.header_length);
  HeaderParser parser(text, label);
  auto entries = parser.ParseDict();
  if (!entries.ok()) return entries.status();

  NpyHeader header;
  header.major_version = p.major_version;
  header.minor_version = p.minor_version;
  header.data_offset = p.header_start + p.header_length;
  bool have_descr = false, have_order = false, have_shape = false;
  for (auto& [key, value] : entries.value()) {
    using Kind = HeaderValue::Kind;
    if (key == "descr" && value.kind == Kind::kString) {
      have_descr = true;
      header.descr = value.text;
    } else if (key == "fortran_order" && value.kind == Kind::kBool) {
      have_order = true;
      if (value.flag) {
        return Bad(label, "it is stored in Fortran order; edgebench reads C order: save "
                          "np.ascontiguousarray(a) instead");
      }
    } else if (key == "shape" && value.kind == Kind::kTuple) {
      have_shape = true;
      header.shape = value.integers;
    } else if (key == "descr" || key == "fortran_order" || key == "shape") {
      return Bad(label, "malformed header: '" + key + "' has the wrong kind of value");
    } else {
      return Bad(label, "malformed header: unexpected key '" + key +
                            "' (a .npy header has descr, fortran_order and shape)");
    }
  }
  if (!have_descr || !have_order || !have_shape) {
    return Bad(label, std::string("malformed header: missing ") +
                          (!have_descr ? "'descr'" : !have_order ? "'fortran_order'" : "'shape'"));
  }
  auto dtype = DTypeFromDescr(header.descr, label);
  if (!dtype.ok()) return dtype.status();
  header.dtype = dtype.value();
  uint64_t bytes_needed = DTypeSize(header.dtype);
  for (int64_t d : header.shape) {
    if (__builtin_mul_overflow(bytes_needed, static_cast<uint64_t>(d), &bytes_needed)) {
      return Bad(label, "its shape " + ShapeToString(header.shape) + " is too large to address");
    }
  }
  header.data_bytes = bytes_needed;
  return header;
}

Result<NpyHeader> ReadNpyHeader(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open .npy file '" + path + "'");
  auto size = FileSize(path);
  if (!size.ok()) return size.status();
  auto start = ReadBytes(in, std::min<uint64_t>(size.value(), 12), path);
  if (!start.ok()) return start.status();
  auto preamble = ParsePreamble(start.value(), path);
  if (!preamble.ok()) return preamble.status();
  const uint64_t header_end = preamble.value().header_start + preamble.value().header_length;
  if (header_end > size.value()) {
    return Bad(path, "its header claims " + std::to_string(preamble.value().header_length) +
                         " bytes but the file ends before that");
  }
  in.seekg(0);
  auto prefix = ReadBytes(in, header_end, path);
  if (!prefix.ok()) return prefix.status();
  return ParseNpyHeader(prefix.value(), path);
}

Result<Tensor> ReadNpyFile(const std::string& path) {
  auto header = ReadNpyHeader(path);
  if (!header.ok()) return header.status();
  const NpyHeader& h = header.value();
  auto size = FileSize(path);
  if (!size.ok()) return size.status();
  const uint64_t data_in_file = size.value() - h.data_offset;
  if (data_in_file != h.data_bytes) {
    return Bad(path, "its header says " + ShapeToString(h.shape) + " " + DTypeName(h.dtype) +
                         " (" + std::to_string(h.data_bytes) + " bytes of data) but the file has " +
                         std::to_string(data_in_file) + " bytes after the header" +
                         (data_in_file < h.data_bytes ? " (truncated?)" : ""));
  }
  Tensor t;
  t.dtype = h.dtype;
  t.shape = h.shape;
  t.data.resize(h.data_bytes);
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(h.data_offset));
  in.read(reinterpret_cast<char*>(t.data.data()), static_cast<std::streamsize>(h.data_bytes));
  if (!in || static_cast<uint64_t>(in.gcount()) != h.data_bytes) {
    return Bad(path, "reading its data failed");
  }
  return t;
}

}  // namespace edgebench
