#include "backends/registry.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "backends/null/null_backend.h"
#include "backends/plugin_abi.h"
#include "backends/plugin_loader.h"
#include "core/log.h"
#include "../test_util.h"

namespace edgebench {
namespace {

TEST(Registry, FindsBuiltBackendsAndExplainsOthers) {
  Registry registry;
  registry.Add(std::make_unique<NullBackend>());
  registry.AddNotBuilt("litert", "libtensorflow-lite-dev was not found");

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
  RegisterBuiltBackends(registry, testing::BackendPluginDir());
  EXPECT_NE(registry.Find("null"), nullptr);
  bool has_ort = false;
  for (const auto& info : registry.List()) has_ort |= info.name == "ort";
  EXPECT_TRUE(has_ort);  // built or listed as not built, never absent
}

std::string MapsOfThisProcess() {
  std::ifstream maps("/proc/self/maps");
  return std::string((std::istreambuf_iterator<char>(maps)), std::istreambuf_iterator<char>());
}

TEST(Registry, OpensAPluginOnlyWhenItsBackendIsAskedFor) {
  const std::string fake = BackendPluginPath(EDGEBENCH_FAKE_PLUGIN_DIR, "fake");
  Registry registry;
  registry.AddPlugin("fake", fake);
  registry.AddPlugin("other", BackendPluginPath(EDGEBENCH_FAKE_PLUGIN_DIR, "other"));
  EXPECT_EQ(registry.Names(), (std::vector<std::string>{"fake", "other"}));
  EXPECT_FALSE(registry.IsLoaded("fake"));
  EXPECT_EQ(MapsOfThisProcess().find(fake), std::string::npos);

  Backend* backend = registry.Find("fake");
  ASSERT_NE(backend, nullptr) << registry.WhyUnusable("fake");
  EXPECT_EQ(backend->Info().name, "fake");
  EXPECT_TRUE(registry.IsLoaded("fake"));
  EXPECT_NE(MapsOfThisProcess().find(fake), std::string::npos);
  EXPECT_FALSE(registry.IsLoaded("other"));  // asking for one opens no other
  EXPECT_EQ(registry.Find("fake"), backend);  // opened once

  // Released, it comes back anew from the library that stayed open.
  registry.ReleaseBackends();
  ASSERT_NE(registry.Find("fake"), nullptr);
}

TEST(Registry, APluginSharesTheProcesssCore) {
  // The fake plugin reports the core's log level: its own copy of the core would not see this.
  Registry registry;
  registry.AddPlugin("fake", BackendPluginPath(EDGEBENCH_FAKE_PLUGIN_DIR, "fake"));
  ASSERT_NE(registry.Find("fake"), nullptr) << registry.WhyUnusable("fake");
  SetLogLevel(LogLevel::kDebug);
  EXPECT_EQ(registry.Find("fake")->Info().version, "debug-on");
  SetLogLevel(LogLevel::kWarning);
  EXPECT_EQ(registry.Find("fake")->Info().version, "debug-off");
}

TEST(Registry, APluginDescribesItselfWhenOpenedAndTheRegistryKeepsTheAnswer) {
  Registry registry;
  registry.AddPlugin("fake", BackendPluginPath(EDGEBENCH_FAKE_PLUGIN_DIR, "fake"));
  EXPECT_EQ(registry.WhyUnusable("fake"), "");
  const auto list = registry.List();
  ASSERT_EQ(list.size(), 1u);
  EXPECT_TRUE(list[0].loaded);
  EXPECT_EQ(list[0].runtime, "fake runtime");  // from the backend's Info(), created now

  // A plugin that says it cannot run here: opened and described, its backend never created.
  ::setenv("EDGEBENCH_FAKE_PLUGIN_UNUSABLE", "no fake accelerator on this machine", 1);
  Registry unusable;
  unusable.AddPlugin("fake", BackendPluginPath(EDGEBENCH_FAKE_PLUGIN_DIR, "fake"));
  EXPECT_EQ(unusable.Find("fake"), nullptr);
  ::unsetenv("EDGEBENCH_FAKE_PLUGIN_UNUSABLE");
  EXPECT_TRUE(unusable.IsLoaded("fake"));
  // Kept: the plugin is not asked again (it would now say it can run).
  EXPECT_EQ(unusable.Find("fake"), nullptr);
  EXPECT_EQ(unusable.WhyUnusable("fake"),
            "backend 'fake' (fake runtime) cannot run on this machine: no fake accelerator on this machine");
  const auto listed = unusable.List();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_TRUE(listed[0].built);
  EXPECT_FALSE(listed[0].loaded);
  EXPECT_EQ(listed[0].runtime, "fake runtime");
  EXPECT_EQ(listed[0].artifact_extensions, std::vector<std::string>{".fake"});
  EXPECT_EQ(listed[0].reason, "no fake accelerator on this machine");
}

TEST(Registry, AMissingPluginIsUnavailableWithTheReason) {
  Registry registry;
  registry.AddPlugin("ort", BackendPluginPath("/nonexistent/backends", "ort"));
  EXPECT_EQ(registry.Find("ort"), nullptr);
  const std::string why = registry.WhyUnusable("ort");
  EXPECT_NE(why.find("backend 'ort' is unavailable"), std::string::npos) << why;
  EXPECT_NE(why.find("'/nonexistent/backends/libedgebench_backend_ort.so' does not exist"),
            std::string::npos) << why;
  EXPECT_NE(why.find(kBackendDirVariable), std::string::npos) << why;
  const auto list = registry.List();
  ASSERT_EQ(list.size(), 1u);
  EXPECT_TRUE(list[0].built);
  EXPECT_FALSE(list[0].loaded);
  EXPECT_EQ(list[0].reason, why.substr(why.find("its plugin")));
}

TEST(Registry, AFileTheLoaderRefusesGivesTheLoadersReason) {
  const std::string junk = testing::WriteTempFile("plugin_", "libedgebench_backend_junk.so",
                                                  "not a shared object");
  Registry registry;
  registry.AddPlugin("junk", junk);
  EXPECT_EQ(registry.Find("junk"), nullptr);
  const std::string why = registry.WhyUnusable("junk");
  EXPECT_NE(why.find("could not be loaded: "), std::string::npos) << why;
  // dlerror()'s text, which names the file and what is wrong with it.
  EXPECT_NE(why.find(junk + ": "), std::string::npos) << why;
}

TEST(Registry, APluginOfAnotherAbiVersionIsRefusedSayingSo) {
  Registry registry;
  registry.AddPlugin("fake", BackendPluginPath(EDGEBENCH_FAKE_PLUGIN_OTHER_ABI_DIR, "fake"));
  EXPECT_EQ(registry.Find("fake"), nullptr);
  const std::string why = registry.WhyUnusable("fake");
  EXPECT_NE(why.find("built for backend plugin ABI version 999, and this edgebench uses version " +
                     std::to_string(kBackendPluginAbiVersion)),
            std::string::npos) << why;
}

TEST(Registry, APluginNamedForAnotherBackendIsRefused) {
  Registry registry;
  registry.AddPlugin("ort", BackendPluginPath(EDGEBENCH_FAKE_PLUGIN_DIR, "fake"));
  EXPECT_EQ(registry.Find("ort"), nullptr);
  EXPECT_NE(registry.WhyUnusable("ort").find("is backend 'fake', not 'ort'"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
