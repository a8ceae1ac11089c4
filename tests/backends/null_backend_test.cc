#include "backends/null/null_backend.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

TEST(NullBackend, RunsAndCopiesInput) {
  NullBackend backend;
  auto session = backend.Load({"unused"}, ParseTarget("null:spin?us=10").take());
  ASSERT_TRUE(session.ok()) << session.error();
  ASSERT_TRUE(session.value()->Prepare({{1, 16}}).ok());
  Tensor in{"input", DType::kFloat32, {1, 16}, std::vector<std::byte>(64, std::byte{7})};
  std::vector<Tensor> out;
  ASSERT_TRUE(session.value()->Run({in}, out).ok());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, in.data);
}

TEST(NullBackend, FailsOnRequestedRun) {
  NullBackend backend;
  auto session = backend.Load({"unused"}, ParseTarget("null:sleep?us=0&fail_at=2").take());
  ASSERT_TRUE(session.ok());
  Tensor in{"input", DType::kFloat32, {1, 16}, std::vector<std::byte>(64)};
  std::vector<Tensor> out;
  EXPECT_TRUE(session.value()->Run({in}, out).ok());
  EXPECT_FALSE(session.value()->Run({in}, out).ok());
}

TEST(NullBackend, RejectsUnknownDeviceAndOption) {
  NullBackend backend;
  EXPECT_FALSE(backend.Load({"unused"}, ParseTarget("null:gpu").take()).ok());
  auto bad = backend.Load({"unused"}, ParseTarget("null:spin?usec=3").take());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("unknown option(s) usec; this backend accepts: us"), std::string::npos) << bad.error();
}

}  // namespace
}  // namespace edgebench
