#include "backends/registry.h"

#include <gtest/gtest.h>

#include "backends/null/null_backend.h"

namespace edgebench {
namespace {

TEST(Registry, FindsBuiltBackendsAndExplainsOthers) {
  Registry registry;
  registry.Add(std::make_unique<NullBackend>());
  BackendInfo missing;
  missing.name = "litert";
  missing.runtime = "TensorFlow Lite";
  missing.reason = "libtensorflow-lite-dev was not found";
  registry.AddNotBuilt(missing);

  EXPECT_NE(registry.Find("null"), nullptr);
  EXPECT_EQ(registry.Find("litert"), nullptr);
  EXPECT_EQ(registry.Find("nope"), nullptr);
  EXPECT_EQ(registry.WhyUnusable("null"), "");
  EXPECT_NE(registry.WhyUnusable("litert").find("not built"), std::string::npos);
  EXPECT_NE(registry.WhyUnusable("litert").find("libtensorflow-lite-dev"), std::string::npos);
  EXPECT_NE(registry.WhyUnusable("nope").find("known backends: null, litert"), std::string::npos);

  const auto list = registry.List();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "null");
  EXPECT_TRUE(list[0].built);
  EXPECT_FALSE(list[1].built);
}

TEST(Registry, BuiltBackendsAreRegisteredInOnePlace) {
  Registry registry;
  RegisterBuiltBackends(registry);
  EXPECT_NE(registry.Find("null"), nullptr);
  bool has_ort = false;
  for (const auto& info : registry.List()) has_ort |= info.name == "ort";
  EXPECT_TRUE(has_ort);  // built or listed as not built, never absent
}

}  // namespace
}  // namespace edgebench
