#include "core/greedy_token.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace edgebench {
namespace {

TEST(GreedyToken, MatchesTheFirstLargestOnRandomRowsOfEveryLength) {
  std::mt19937 rng(7);
  std::normal_distribution<float> logit(0.0f, 3.0f);
  for (size_t n : {1u, 2u, 15u, 16u, 17u, 31u, 33u, 1000u, 32000u}) {
    std::vector<float> row(n);
    for (float& v : row) v = logit(rng);
    size_t expected = 0;
    for (size_t i = 1; i < n; ++i) {
      if (row[i] > row[expected]) expected = i;
    }
    EXPECT_EQ(GreedyToken(row), static_cast<int32_t>(expected)) << "length " << n;
  }
}

TEST(GreedyToken, TiesGoToTheLowestIdEvenAcrossLanes) {
  std::vector<float> row(40, -1.0f);
  row[37] = 5.0f;
  row[3] = 5.0f;
  row[20] = 5.0f;
  EXPECT_EQ(GreedyToken(row), 3);
}

TEST(GreedyToken, TheLastElementAfterTheLastFullLaneCounts) {
  std::vector<float> row(35, 0.0f);
  row[34] = 1.0f;
  EXPECT_EQ(GreedyToken(row), 34);
}

TEST(GreedyToken, NanIsNeverChosenAndInfinityIs) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> row(20, 1.0f);
  row[0] = nan;
  row[5] = nan;
  row[9] = 2.0f;
  EXPECT_EQ(GreedyToken(row), 9);
  row[12] = std::numeric_limits<float>::infinity();
  EXPECT_EQ(GreedyToken(row), 12);
}

TEST(GreedyToken, AllNanAllMinusInfinityOrEmptyGiveZero) {
  EXPECT_EQ(GreedyToken(std::vector<float>(18, std::numeric_limits<float>::quiet_NaN())), 0);
  std::vector<float> low(18, -std::numeric_limits<float>::infinity());
  EXPECT_EQ(GreedyToken(low), 0);
  low[7] = -1e30f;
  EXPECT_EQ(GreedyToken(low), 7);
  EXPECT_EQ(GreedyToken(std::vector<float>{}), 0);
}

}  // namespace
}  // namespace edgebench
