// A token's work counted from a tensor table: lookups, tied outputs, experts, by hand.
#include "core/llm_work.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

LlmTensor Matrix(const std::string& name, int64_t columns, int64_t rows, int64_t element_bytes) {
  return {name, columns * rows * element_bytes, columns * rows, rows};
}

TEST(LlmWork, AnEmbeddingIsLookedUpOneRowAndEveryOtherTensorReadOnce) {
  // hidden 8, vocab 100, one layer: q 8x8, ffn 8x16 and 16x8, a norm of 8 floats; f16 matrices.
  const std::vector<LlmTensor> tensors = {Matrix("token_embd.weight", 8, 100, 2), Matrix("output.weight", 8, 100, 2),
                                          Matrix("blk.0.attn_q.weight", 8, 8, 2), Matrix("blk.0.ffn_up.weight", 8, 16, 2),
                                          Matrix("blk.0.ffn_down.weight", 16, 8, 2), {"blk.0.attn_norm.weight", 32, 8, 1}};
  const LlmWork w = CountLlmWork(tensors, {1, 2, 4, 0, 0}, 64);
  EXPECT_EQ(w.tensor_bytes, 1600 + 1600 + 128 + 256 + 256 + 32);
  EXPECT_EQ(w.weight_bytes_per_token, 16 + 1600 + 128 + 256 + 256 + 32);  // one row of 8 halves
  EXPECT_EQ(w.matmul_weights, 800 + 64 + 128 + 128);                      // the norm is no matrix
  EXPECT_EQ(w.output_weights, 800);
  // A prompt of 4 pays the output layer once: a quarter of it per token.
  EXPECT_DOUBLE_EQ(w.PrefillTokenFlops(2, 4), 2.0 * (1120 - 800) + 2.0 * 800 / 4 + 2 * 32);
  EXPECT_EQ(w.attention_flops_per_position, 4 * 1 * 2 * 4);
  EXPECT_EQ(w.kv_bytes_per_position, 64);
  EXPECT_FALSE(w.approximate);
  EXPECT_DOUBLE_EQ(w.DecodeStepBytes(10.5, 2), 2288 + 2 * 10.5 * 64);
  EXPECT_DOUBLE_EQ(w.TokenFlops(3), 2.0 * 1120 + 3 * 32);
}

TEST(LlmWork, ATiedOutputReadsTheWholeTokenTable) {
  const std::vector<LlmTensor> tensors = {Matrix("token_embd.weight", 8, 100, 2), Matrix("blk.0.attn_q.weight", 8, 8, 2)};
  const LlmWork w = CountLlmWork(tensors, {1, 2, 4, 0, 0}, 0);
  EXPECT_EQ(w.weight_bytes_per_token, 1600 + 128);
  EXPECT_EQ(w.matmul_weights, 800 + 64);
  EXPECT_EQ(w.output_weights, 800) << "the tied token table is the output layer";
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_NE(w.notes[0].find("output layer"), std::string::npos);
}

TEST(LlmWork, ExpertsCountAtTheShareATokenUsesAndSaySo) {
  const std::vector<LlmTensor> tensors = {Matrix("output.weight", 8, 10, 1), Matrix("token_embd.weight", 8, 10, 1),
                                          {"blk.0.ffn_up_exps.weight", 8 * 16 * 8, 8 * 16 * 8, 16 * 8}};
  const LlmWork w = CountLlmWork(tensors, {1, 2, 4, 8, 2}, 0);
  EXPECT_EQ(w.weight_bytes_per_token, 80 + 8 + 1024 * 2 / 8);
  EXPECT_EQ(w.matmul_weights, 80 + 1024 * 2 / 8);
  EXPECT_TRUE(w.approximate);
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_NE(w.notes[0].find("2 of 8 experts"), std::string::npos);
}

// The precision prefill is held to: int8 where most matrix weights are stored below 16 bits.
TEST(LlmWork, QuantizedMatricesMakeAnInt8Count) {
  EXPECT_EQ(CountLlmWork({Matrix("blk.0.attn_q.weight", 8, 8, 2)}, {1, 2, 4, 0, 0}, 0).precision, "fp32");
  EXPECT_EQ(CountLlmWork({Matrix("blk.0.attn_q.weight", 8, 8, 4)}, {1, 2, 4, 0, 0}, 0).precision, "fp32");
  // Q8_0: 34 bytes per 32 weights.
  const LlmTensor q8 = {"blk.0.ffn_up.weight", 34 * 4, 128, 4};
  EXPECT_EQ(CountLlmWork({q8, Matrix("output.weight", 8, 8, 2)}, {1, 2, 4, 0, 0}, 0).precision, "int8");
  // Most of the weights in halves: fp32, whatever a small quantized tensor says.
  EXPECT_EQ(CountLlmWork({q8, Matrix("output.weight", 64, 8, 2)}, {1, 2, 4, 0, 0}, 0).precision, "fp32");
}

}  // namespace
}  // namespace edgebench
