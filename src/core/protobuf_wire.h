// Protobuf's wire format, read and written without a protobuf library: what the ONNX readers
// (core/model_ops.h, core/onnx_graph_reader.h) and writers (backends/ort/onnx_graph.h,
// diagnose/compute_peak_probe.h) need. A message is a sequence of (field number, wire type, value).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace edgebench {

// Only what ModelProto needs: varints, 64- and 32-bit fixed values, length-delimited bytes.
class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}

  struct Field {
    uint32_t number = 0;
    uint32_t wire_type = 0;
    uint64_t varint = 0;     // wire type 0
    uint64_t fixed = 0;      // wire types 1 (64 bits) and 5 (32 bits), little-endian
    std::string_view bytes;  // wire type 2
  };

  bool done() const { return pos_ >= bytes_.size(); }

  // The next field, or false with error() set when the bytes end inside it or are not protobuf.
  bool Next(Field& field) {
    uint64_t key = 0;
    if (!Varint(key)) return false;
    field.number = static_cast<uint32_t>(key >> 3);
    field.wire_type = static_cast<uint32_t>(key & 7);
    if (field.number == 0) return Fail("field number 0");
    switch (field.wire_type) {
      case 0:
        return Varint(field.varint);
      case 1:
        return Fixed(8, field.fixed);
      case 5:
        return Fixed(4, field.fixed);
      case 2: {
        uint64_t length = 0;
        if (!Varint(length)) return false;
        if (length > bytes_.size() - pos_) return Fail("a field runs past the end of the data");
        field.bytes = bytes_.substr(pos_, length);
        pos_ += length;
        return true;
      }
      default:
        return Fail("wire type " + std::to_string(field.wire_type) + " is not used by ONNX");
    }
  }

  // A packed repeated varint field's values, one after another without keys; false at a value
  // cut short.
  template <typename Visit>
  static bool ForEachPackedVarint(std::string_view packed, Visit visit) {
    WireReader reader(packed);
    while (!reader.done()) {
      uint64_t value = 0;
      if (!reader.Varint(value)) return false;
      visit(value);
    }
    return true;
  }

  const std::string& error() const { return error_; }

 private:
  bool Varint(uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size()) return Fail("the data ends inside a number");
      const auto byte = static_cast<uint8_t>(bytes_[pos_++]);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return Fail("a number longer than 10 bytes");
  }
  bool Fixed(size_t n, uint64_t& value) {
    if (n > bytes_.size() - pos_) return Fail("the data ends inside a fixed-size value");
    value = 0;
    for (size_t i = 0; i < n; ++i) value |= static_cast<uint64_t>(static_cast<uint8_t>(bytes_[pos_ + i])) << (8 * i);
    pos_ += n;
    return true;
  }
  bool Fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  std::string_view bytes_;
  size_t pos_ = 0;
  std::string error_;
};

inline void AppendVarint(std::string& out, uint64_t value) {
  do {
    out += static_cast<char>((value & 0x7f) | (value > 0x7f ? 0x80 : 0));
    value >>= 7;
  } while (value);
}

// A length-delimited field (wire type 2): a string or an embedded message.
inline std::string LengthDelimited(uint32_t field, const std::string& bytes) {
  std::string out;
  AppendVarint(out, (static_cast<uint64_t>(field) << 3) | 2);
  AppendVarint(out, bytes.size());
  return out + bytes;
}

// A varint field (wire type 0): an integer or enum.
inline std::string VarintField(uint32_t field, uint64_t value) {
  std::string out;
  AppendVarint(out, static_cast<uint64_t>(field) << 3);
  AppendVarint(out, value);
  return out;
}

}  // namespace edgebench
