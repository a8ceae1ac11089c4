#include "core/sample_codec.h"

#include <array>

namespace edgebench {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string Base64(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) | static_cast<uint8_t>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kAlphabet[(v >> shift) & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

Result<std::string> FromBase64(const std::string& text) {
  std::array<int, 256> value{};
  value.fill(-1);
  for (int k = 0; k < 64; ++k) value[static_cast<uint8_t>(kAlphabet[k])] = k;
  if (text.size() % 4 != 0) return Status::Error("sample data is not base64 (length " + std::to_string(text.size()) + ")");
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t v = 0;
    int pad = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        ++pad;
        v <<= 6;
        continue;
      }
      const int d = value[static_cast<uint8_t>(c)];
      if (d < 0 || pad > 0) return Status::Error("sample data is not base64 (character " + std::to_string(i + k) + ")");
      v = (v << 6) | static_cast<uint32_t>(d);
    }
    out += static_cast<char>((v >> 16) & 0xff);
    if (pad < 2) out += static_cast<char>((v >> 8) & 0xff);
    if (pad < 1) out += static_cast<char>(v & 0xff);
  }
  return out;
}

}  // namespace

std::string EncodeSamples(const std::vector<int64_t>& values) {
  std::string bytes;
  bytes.reserve(values.size() * 2);
  int64_t previous = 0;
  for (int64_t v : values) {
    // Differences of int64 may overflow as signed values; compute them modulo 2^64.
    const uint64_t delta = static_cast<uint64_t>(v) - static_cast<uint64_t>(previous);
    previous = v;
    uint64_t zigzag = (delta << 1) ^ (static_cast<int64_t>(delta) < 0 ? ~uint64_t{0} : 0);
    do {
      uint8_t byte = zigzag & 0x7f;
      zigzag >>= 7;
      if (zigzag) byte |= 0x80;
      bytes += static_cast<char>(byte);
    } while (zigzag);
  }
  return Base64(bytes);
}

Result<std::vector<int64_t>> DecodeSamples(const std::string& text) {
  auto bytes = FromBase64(text);
  if (!bytes.ok()) return bytes.status();
  std::vector<int64_t> values;
  uint64_t previous = 0;
  const std::string& b = bytes.value();
  for (size_t i = 0; i < b.size();) {
    uint64_t zigzag = 0;
    int shift = 0;
    for (;;) {
      if (i >= b.size()) return Status::Error("sample data ends inside a value");
      if (shift > 63) return Status::Error("sample data has a value longer than 64 bits");
      const uint8_t byte = static_cast<uint8_t>(b[i++]);
      zigzag |= static_cast<uint64_t>(byte & 0x7f) << shift;
      shift += 7;
      if (!(byte & 0x80)) break;
    }
    const uint64_t delta = (zigzag >> 1) ^ (~(zigzag & 1) + 1);
    previous += delta;
    values.push_back(static_cast<int64_t>(previous));
  }
  return values;
}

}  // namespace edgebench
