#include "core/tensor_json.h"

namespace edgebench {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int DecodeChar(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string Base64Encode(const std::vector<std::byte>& data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    const uint32_t v = (std::to_integer<uint32_t>(data[i]) << 16) |
                       (std::to_integer<uint32_t>(data[i + 1]) << 8) | std::to_integer<uint32_t>(data[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const size_t rest = data.size() - i;
  if (rest == 1) {
    const uint32_t v = std::to_integer<uint32_t>(data[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (rest == 2) {
    const uint32_t v = (std::to_integer<uint32_t>(data[i]) << 16) | (std::to_integer<uint32_t>(data[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

Result<std::vector<std::byte>> Base64Decode(const std::string& text) {
  if (text.size() % 4 != 0) return Status::Error("base64 text length is not a multiple of 4");
  std::vector<std::byte> out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      v[k] = DecodeChar(c);
      if (v[k] < 0 || pad) return Status::Error("invalid base64 text");
    }
    const uint32_t word = (uint32_t(v[0]) << 18) | (uint32_t(v[1]) << 12) | (uint32_t(v[2]) << 6) | uint32_t(v[3]);
    out.push_back(std::byte((word >> 16) & 0xff));
    if (pad < 2) out.push_back(std::byte((word >> 8) & 0xff));
    if (pad < 1) out.push_back(std::byte(word & 0xff));
  }
  return out;
}

std::optional<DType> ParseDType(const std::string& name) {
  for (DType d : {DType::kFloat32, DType::kFloat16, DType::kInt8, DType::kUInt8, DType::kInt32,
                  DType::kInt64, DType::kBool}) {
    if (DTypeName(d) == name) return d;
  }
  return std::nullopt;
}

nlohmann::json TensorToJson(const Tensor& t) {
  return {{"name", t.name}, {"dtype", DTypeName(t.dtype)}, {"shape", t.shape},
          {"data_base64", Base64Encode(t.data)}};
}

Result<Tensor> TensorFromJson(const nlohmann::json& j) {
  try {
    Tensor t;
    t.name = j.at("name").get<std::string>();
    const auto dtype = ParseDType(j.at("dtype").get<std::string>());
    if (!dtype) return Status::Error("tensor '" + t.name + "' has an unknown dtype");
    t.dtype = *dtype;
    t.shape = j.at("shape").get<std::vector<int64_t>>();
    auto data = Base64Decode(j.at("data_base64").get<std::string>());
    if (!data.ok()) return Status::Error("tensor '" + t.name + "': " + data.error());
    t.data = data.take();
    if (t.data.size() != static_cast<size_t>(t.element_count()) * DTypeSize(t.dtype)) {
      return Status::Error("tensor '" + t.name + "': data size does not match its shape");
    }
    return t;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed tensor: ") + e.what());
  }
}

}  // namespace edgebench
