// The one cartesian expansion (core/cartesian.h), called directly.
#include "core/cartesian.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

std::vector<std::vector<size_t>> All(const std::vector<size_t>& sizes) {
  std::vector<std::vector<size_t>> all;
  ForEachCombination(sizes, [&](const std::vector<size_t>& index) { all.push_back(index); });
  return all;
}

TEST(Cartesian, TheFirstListVariesSlowest) {
  EXPECT_EQ(All({2, 3}), (std::vector<std::vector<size_t>>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
  EXPECT_EQ(All({}), (std::vector<std::vector<size_t>>{{}}));
  EXPECT_EQ(All({3, 0, 2}), (std::vector<std::vector<size_t>>{}));
  EXPECT_EQ(All({1, 1, 1}), (std::vector<std::vector<size_t>>{{0, 0, 0}}));
  EXPECT_EQ(All({2, 2, 2}).size(), 8u);
}

TEST(Cartesian, TheCountIsKnownBeforeAnythingIsMadeEvenPastAnyInteger) {
  EXPECT_EQ(CartesianCount({2, 3, 4}), 24);
  EXPECT_EQ(CartesianCount({}), 1);
  EXPECT_EQ(CartesianCount({5, 0}), 0);
  EXPECT_GT(CartesianCount(std::vector<size_t>(30, 1000)), 1e89);
}

}  // namespace
}  // namespace edgebench
