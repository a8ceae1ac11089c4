#include "core/sha256.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace edgebench {
namespace {

// FIPS 180-2 appendix B test vectors.
TEST(Sha256, StandardVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, BytesAfterANulCount) {
  const std::string with_nul("a\0b", 3);
  EXPECT_NE(Sha256Hex(with_nul), Sha256Hex("a"));
  EXPECT_EQ(Sha256Hex(with_nul).size(), 64u);
}

class Sha256File : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("edgebench_sha256_" + std::to_string(::getpid()) + "_" + test->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(Sha256File, EmptyFileAndKnownVector) {
  auto empty = Sha256OfFile(Write("empty", ""));
  ASSERT_TRUE(empty.ok()) << empty.error();
  EXPECT_EQ(empty.value(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  auto million = Sha256OfFile(Write("million", std::string(1000000, 'a')));
  ASSERT_TRUE(million.ok()) << million.error();
  EXPECT_EQ(million.value(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_F(Sha256File, FileOfSeveralChunksMatchesTheDigestOfItsBytes) {
  // 3 MiB + 17 bytes: several full read chunks and a partial last one.
  std::string bytes((3 << 20) + 17, '\0');
  std::mt19937 random(7);
  for (char& c : bytes) c = static_cast<char>(random());
  auto hex = Sha256OfFile(Write("model.bin", bytes));
  ASSERT_TRUE(hex.ok()) << hex.error();
  EXPECT_EQ(hex.value(), Sha256Hex(bytes));
}

TEST_F(Sha256File, MissingFileAndDirectoryAreErrorsNamingThePath) {
  const std::string missing = (dir_ / "absent.onnx").string();
  auto result = Sha256OfFile(missing);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find(missing), std::string::npos) << result.error();
  EXPECT_NE(result.error().find("No such file"), std::string::npos) << result.error();

  auto directory = Sha256OfFile(dir_.string());
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.error().find(dir_.string()), std::string::npos) << directory.error();
}

}  // namespace
}  // namespace edgebench
