#include "diagnose/token_logits_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "../test_util.h"

namespace edgebench {
namespace {

TokenLogitsHeader TwoPrompts() {
  TokenLogitsHeader h;
  h.model = "llama-tiny f16";
  h.vocab_size = 3;
  h.prompts = {{1, 2}, {0, 2, 1}};
  return h;
}

std::string WriteTwoPrompts(const std::string& name) {
  const std::string path = testing::TempFilePath("token_logits_", name);
  auto writer = TokenLogitsWriter::Create(path, TwoPrompts());
  EXPECT_TRUE(writer.ok()) << writer.error();
  EXPECT_TRUE(writer.value().WritePrompt(std::vector<float>{1, 2, 3, 4, 5, 6}).ok());
  EXPECT_TRUE(writer.value().WritePrompt(std::vector<float>{-1, -2, -3, -4, -5, -6, 7, 8, 9}).ok());
  EXPECT_TRUE(writer.value().Finish().ok());
  return path;
}

TEST(TokenLogitsFile, RoundTripsTokensAndLogits) {
  const std::string path = WriteTwoPrompts("round_trip");
  EXPECT_EQ(std::filesystem::file_size(path), TokenLogitsFileSize(TwoPrompts()));
  auto reader = TokenLogitsReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.error();
  EXPECT_EQ(reader.value().header().model, "llama-tiny f16");
  EXPECT_EQ(reader.value().header().vocab_size, 3);
  EXPECT_EQ(reader.value().header().prompts, TwoPrompts().prompts);
  // Out of order on purpose: each prompt is found by its offset.
  EXPECT_EQ(reader.value().ReadPrompt(1).take(), (std::vector<float>{-1, -2, -3, -4, -5, -6, 7, 8, 9}));
  EXPECT_EQ(reader.value().ReadPrompt(0).take(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_FALSE(reader.value().ReadPrompt(2).ok());
  std::filesystem::remove(path);
}

TEST(TokenLogitsFile, WriterRefusesWrongSizesAndMissingPrompts) {
  const std::string path = testing::TempFilePath("token_logits_", "writer");
  auto writer = TokenLogitsWriter::Create(path, TwoPrompts());
  ASSERT_TRUE(writer.ok());
  auto wrong = writer.value().WritePrompt(std::vector<float>{1, 2, 3});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.message().find("expected 6"), std::string::npos) << wrong.message();
  ASSERT_TRUE(writer.value().WritePrompt(std::vector<float>{1, 2, 3, 4, 5, 6}).ok());
  auto short_file = writer.value().Finish();
  ASSERT_FALSE(short_file.ok());
  EXPECT_NE(short_file.message().find("1 of its 2 prompts"), std::string::npos) << short_file.message();
  std::filesystem::remove(path);
}

TEST(TokenLogitsFile, ReaderRefusesTruncatedOrForeignFiles) {
  const std::string path = WriteTwoPrompts("truncated");
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 4);
  auto truncated = TokenLogitsReader::Open(path);
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.error().find("but its header says"), std::string::npos) << truncated.error();

  const std::string foreign = testing::WriteTempFile("token_logits_", "foreign", "_logits_ and more bytes");
  auto not_ours = TokenLogitsReader::Open(foreign);
  ASSERT_FALSE(not_ours.ok());
  EXPECT_NE(not_ours.error().find("EBTOKLOG"), std::string::npos) << not_ours.error();
  EXPECT_FALSE(TokenLogitsReader::Open(path + ".absent").ok());
  std::filesystem::remove(path);
  std::filesystem::remove(foreign);
}

}  // namespace
}  // namespace edgebench
