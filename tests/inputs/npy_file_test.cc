#include "inputs/npy_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

std::string NpyTempPath(const std::string& name) { return testing::TempFilePath("npy_", name); }

std::string WriteNpyFile(const std::string& name, const std::string& bytes) {
  return testing::WriteTempFile("npy_", name, bytes);
}

// A .npy file as the format specification describes it: magic, version, little-endian header
// length (2 bytes in 1.0, 4 in 2.0/3.0), the dict padded with spaces and ended by '\n' so the
// data starts at a multiple of 64, then the data.
std::string Npy(int major, const std::string& dict, const std::string& data) {
  const size_t length_bytes = major == 1 ? 2 : 4;
  std::string header = dict;
  const size_t unpadded = 8 + length_bytes + header.size() + 1;
  header += std::string((64 - unpadded % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < length_bytes; ++i) {
    out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  }
  return out + header + data;
}

template <typename T>
std::string NpyBytes(std::initializer_list<T> values) {
  std::string out(values.size() * sizeof(T), '\0');
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

// Exactly the 144 bytes numpy 2.x writes for np.save(f, np.array([[1.5, -2], [0.25, 3]], 'f4'))
// (checked by hand against numpy): version 1.0, header length 118 (0x76).
TEST(NpyFile, ReadsWhatNumpyWritesByteForByte) {
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  std::string bytes = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict +
                      std::string(118 - dict.size() - 1, ' ') + "\n";
  const unsigned char data[] = {0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00, 0x00, 0xc0,
                                0x00, 0x00, 0x80, 0x3e, 0x00, 0x00, 0x40, 0x40};
  bytes.append(reinterpret_cast<const char*>(data), sizeof data);
  ASSERT_EQ(bytes.size(), 144u);
  const std::string path = WriteNpyFile("numpy.npy", bytes);
  auto t = ReadNpyFile(path);
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t.value().dtype, DType::kFloat32);
  EXPECT_EQ(t.value().shape, (std::vector<int64_t>{2, 2}));
  ASSERT_EQ(t.value().data.size(), 16u);
  const float* v = t.value().as<float>();
  EXPECT_EQ(v[0], 1.5f);
  EXPECT_EQ(v[1], -2.0f);
  EXPECT_EQ(v[2], 0.25f);
  EXPECT_EQ(v[3], 3.0f);
  auto header = ReadNpyHeader(path);
  ASSERT_TRUE(header.ok()) << header.error();
  EXPECT_EQ(header.value().major_version, 1);
  EXPECT_EQ(header.value().data_offset, 128u);
  EXPECT_EQ(header.value().data_bytes, 16u);
  EXPECT_EQ(header.value().descr, "<f4");
  std::remove(path.c_str());
}

TEST(NpyFile, Versions2And3HaveFourByteLengths) {
  const std::string v2 = WriteNpyFile(
      "v2.npy", Npy(2, "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }",
                    NpyBytes<int64_t>({1, -2, int64_t{1} << 40})));
  auto t = ReadNpyFile(v2);
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t.value().dtype, DType::kInt64);
  EXPECT_EQ(t.value().shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(t.value().as<int64_t>()[1], -2);
  EXPECT_EQ(t.value().as<int64_t>()[2], int64_t{1} << 40);

  // 3.0: UTF-8 header; key order is free, double quotes are Python too.
  const std::string v3 = WriteNpyFile(
      "v3.npy", Npy(3, "{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"|b1\"}",
                    std::string("\x01\x00", 2)));
  auto b = ReadNpyFile(v3);
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_EQ(b.value().dtype, DType::kBool);
  EXPECT_EQ(b.value().data, (std::vector<std::byte>{std::byte{1}, std::byte{0}}));
  std::remove(v2.c_str());
  std::remove(v3.c_str());
}

TEST(NpyFile, EveryAcceptedDTypeAndScalars) {
  const std::vector<std::pair<std::string, DType>> cases = {
      {"<f4", DType::kFloat32}, {"<f2", DType::kFloat16}, {"|i1", DType::kInt8},
      {"|u1", DType::kUInt8},   {"<i4", DType::kInt32},   {"<i8", DType::kInt64},
      {"|b1", DType::kBool}};
  for (const auto& [descr, dtype] : cases) {
    const std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (), }";
    auto h = ParseNpyHeader(Npy(1, dict, ""), "scalar.npy");
    ASSERT_TRUE(h.ok()) << descr << ": " << h.error();
    EXPECT_EQ(h.value().dtype, dtype) << descr;
    EXPECT_TRUE(h.value().shape.empty()) << descr;
    EXPECT_EQ(h.value().data_bytes, DTypeSize(dtype)) << descr;  // a scalar holds one element
  }
  // The scalar numpy writes for np.save(f, np.int64(16000)).
  const std::string path = WriteNpyFile(
      "sr.npy", Npy(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }",
                    NpyBytes<int64_t>({16000})));
  auto t = ReadNpyFile(path);
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_TRUE(t.value().shape.empty());
  EXPECT_EQ(t.value().as<int64_t>()[0], 16000);
  std::remove(path.c_str());
}

TEST(NpyFile, ShapesWithTrailingCommasAndPython2Longs) {
  auto h = ParseNpyHeader(
      Npy(1, "{'descr':'<f4','fortran_order':False,'shape':(1, 3, 224, 224,)}", ""), "x.npy");
  ASSERT_TRUE(h.ok()) << h.error();
  EXPECT_EQ(h.value().shape, (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_EQ(h.value().data_bytes, 1u * 3 * 224 * 224 * 4);
  auto old = ParseNpyHeader(
      Npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }", ""), "old.npy");
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_EQ(old.value().shape, (std::vector<int64_t>{2, 3}));
}

void ExpectError(const std::string& bytes, const std::vector<std::string>& needles) {
  auto h = ParseNpyHeader(bytes, "bad.npy");
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.error().find("bad.npy"), std::string::npos) << h.error();
  for (const std::string& needle : needles) {
    EXPECT_NE(h.error().find(needle), std::string::npos)
        << "'" << needle << "' not in: " << h.error();
  }
}

TEST(NpyFile, ClearErrorsForWhatItDoesNotRead) {
  const std::string order = "'fortran_order': False, 'shape': (2,), }";
  ExpectError("PK\x03\x04 not numpy", {"magic"});
  ExpectError(std::string("\x93NUMPY\x04\x00\x10\x00", 10) + std::string(16, ' '), {"version 4.0"});
  ExpectError(Npy(1, "{'descr': '>f4', " + order, ""), {"big-endian", "<f4"});
  ExpectError(Npy(1, "{'descr': '<f8', " + order, ""), {"float64", "astype"});
  ExpectError(Npy(1, "{'descr': '<c8', " + order, ""), {"'<c8'", "<f4 <f2 |i1 |u1 <i4 <i8 |b1"});
  ExpectError(Npy(1, "{'descr': '|O', " + order, ""), {"pickled"});
  ExpectError(Npy(1, "{'descr': [('a', '<f4')], " + order, ""), {"structured"});
  ExpectError(Npy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", ""),
              {"Fortran order", "ascontiguousarray"});
  ExpectError(Npy(1, "{'descr': '<f4', 'fortran_order': False}", ""), {"missing 'shape'"});
  ExpectError(Npy(1, "{'descr': '<f4', 'extra': 1, " + order, ""), {"'extra'"});
  ExpectError(Npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", ""),
              {"non-negative integer"});
  const std::string huge_dim =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }";
  ExpectError(Npy(1, huge_dim, ""), {"too large"});
  const std::string huge_product =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }";
  ExpectError(Npy(1, huge_product, ""), {"too large to address"});
  // The header length points past the end.
  ExpectError(std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 17), {"ends before"});
}

TEST(NpyFile, DataMustFillTheFileExactly) {
  const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }";
  const std::string short_path = WriteNpyFile("short.npy", Npy(1, dict, NpyBytes<int32_t>({1, 2})));
  auto t = ReadNpyFile(short_path);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().find("12 bytes of data"), std::string::npos) << t.error();
  EXPECT_NE(t.error().find("has 8 bytes"), std::string::npos) << t.error();
  EXPECT_NE(t.error().find("truncated"), std::string::npos) << t.error();
  const std::string long_path = WriteNpyFile("long.npy", Npy(1, dict, NpyBytes<int32_t>({1, 2, 3, 4})));
  auto l = ReadNpyFile(long_path);
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.error().find("has 16 bytes"), std::string::npos) << l.error();
  auto missing = ReadNpyFile(NpyTempPath("nonexistent.npy"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("cannot open .npy file '" + NpyTempPath("nonexistent.npy") + "'"), std::string::npos)
      << missing.error();
  std::remove(short_path.c_str());
  std::remove(long_path.c_str());
}

}  // namespace
}  // namespace edgebench
