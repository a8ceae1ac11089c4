#include "core/tensor_json.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

std::vector<std::byte> Bytes(const std::string& s) {
  std::vector<std::byte> b;
  for (char c : s) b.push_back(std::byte(static_cast<unsigned char>(c)));
  return b;
}

TEST(Base64, KnownVectorsAndRoundTrip) {
  EXPECT_EQ(Base64Encode(Bytes("")), "");
  EXPECT_EQ(Base64Encode(Bytes("f")), "Zg==");
  EXPECT_EQ(Base64Encode(Bytes("fo")), "Zm8=");
  EXPECT_EQ(Base64Encode(Bytes("foo")), "Zm9v");
  EXPECT_EQ(Base64Encode(Bytes("foobar")), "Zm9vYmFy");
  EXPECT_EQ(Base64Decode("Zm9vYg==").value(), Bytes("foob"));
  EXPECT_FALSE(Base64Decode("Zm9").ok());
  EXPECT_FALSE(Base64Decode("Zm=v").ok());
  std::vector<std::byte> all;
  for (int i = 0; i < 256; ++i) all.push_back(std::byte(i));
  EXPECT_EQ(Base64Decode(Base64Encode(all)).value(), all);
}

TEST(TensorJson, RoundTripAndSizeCheck) {
  Tensor t{"x", DType::kFloat32, {2, 2}, std::vector<std::byte>(16, std::byte{3})};
  auto back = TensorFromJson(TensorToJson(t));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().name, "x");
  EXPECT_EQ(back.value().shape, t.shape);
  EXPECT_EQ(back.value().data, t.data);
  auto json = TensorToJson(t);
  json["shape"] = {3, 2};
  EXPECT_FALSE(TensorFromJson(json).ok());
}

}  // namespace
}  // namespace edgebench
