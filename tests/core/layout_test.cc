#include "core/layout.h"

#include <gtest/gtest.h>

#include <cstring>

namespace edgebench {
namespace {

Tensor Iota(std::vector<int64_t> shape) {
  Tensor t{"t", DType::kFloat32, shape, {}};
  t.data.resize(static_cast<size_t>(ElementCount(shape)) * 4);
  for (int64_t i = 0; i < ElementCount(shape); ++i) t.as<float>()[i] = static_cast<float>(i);
  return t;
}

TEST(Layout, NchwToNhwcMovesChannelsLast) {
  // NCHW [1,2,2,3]: value = c*6 + h*3 + w.
  const Tensor nchw = Iota({1, 2, 2, 3});
  const Tensor nhwc = Transpose4D(nchw, true);
  EXPECT_EQ(nhwc.shape, (std::vector<int64_t>{1, 2, 3, 2}));
  // NHWC index (h, w, c) = (h*3 + w)*2 + c holds c*6 + h*3 + w.
  EXPECT_EQ(nhwc.as<float>()[(1 * 3 + 2) * 2 + 1], 1 * 6 + 1 * 3 + 2);
  EXPECT_EQ(nhwc.as<float>()[1], 6);  // h=0, w=0, c=1
}

TEST(Layout, RoundTripIsIdentityAndOtherRanksAreUntouched) {
  const Tensor t = Iota({2, 3, 4, 5});
  const Tensor back = Transpose4D(Transpose4D(t, true), false);
  EXPECT_EQ(back.shape, t.shape);
  EXPECT_EQ(back.data, t.data);
  const Tensor vec = Iota({1, 10});
  EXPECT_EQ(Transpose4D(vec, true).data, vec.data);
}

}  // namespace
}  // namespace edgebench
