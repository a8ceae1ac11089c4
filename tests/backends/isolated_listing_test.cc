// `edgebench devices` asks each runtime in a process of its own (backends/isolated_listing.h): a
// runtime whose device probe kills its process is listed as crashed, and the others are listed.
#include "backends/isolated_listing.h"

#include <gtest/gtest.h>

#include <csignal>

namespace edgebench {
namespace {

// A backend whose first Info() (the registry's, at registration) answers and whose later ones
// (the listing's) kill the process asking, as a runtime's crashing OpenCL probe does.
class ProbeKillingBackend : public Backend {
 public:
  BackendInfo Info() const override {
    if (++calls_ > 1) std::raise(SIGKILL);
    BackendInfo info;
    info.name = "prober";
    info.runtime = "Prober";
    return info;
  }
  Result<std::unique_ptr<Session>> Load(const Artifact&, const Target&) override {
    return Status::Error("not a runtime");
  }

 private:
  mutable int calls_ = 0;
};

class ListedBackend : public Backend {
 public:
  BackendInfo Info() const override {
    BackendInfo info;
    info.name = "listed";
    info.runtime = "Listed Runtime";
    info.version = "1.2.3";
    info.artifact_extensions = {".onnx", ".pb"};
    info.device_library_option = "ep_library";
    DeviceInfo cpu;
    cpu.name = "cpu";
    cpu.description = "its CPU";
    cpu.available = true;
    cpu.capabilities.dynamic_shapes = true;
    cpu.capabilities.max_dim = 1 << 20;
    DeviceInfo npu;
    npu.name = "npu";
    npu.reason = "no \"NPU\" here\n";
    npu.runtime = "Other 4.5";
    npu.capabilities.bare_tensor_models = false;
    info.devices = {cpu, npu};
    return info;
  }
  Result<std::unique_ptr<Session>> Load(const Artifact&, const Target&) override {
    return Status::Error("not a runtime");
  }
};

TEST(IsolatedListing, ARuntimeThatKillsItsProbeIsListedAsCrashedAndTheOthersAreListed) {
  Registry registry;
  registry.Add(std::make_unique<ProbeKillingBackend>());
  registry.Add(std::make_unique<ListedBackend>());
  registry.AddNotBuilt("absent", "no package for it");
  const std::vector<BackendInfo> infos = ListBackendsIsolated(registry);
  ASSERT_EQ(infos.size(), 3u);
  EXPECT_EQ(infos[0].name, "prober");
  EXPECT_TRUE(infos[0].listing_crashed);
  EXPECT_NE(infos[0].reason.find("crashed on signal 9"), std::string::npos) << infos[0].reason;
  EXPECT_TRUE(infos[0].devices.empty());
  // The second as the registry itself lists it, every field carried back.
  const BackendInfo direct = registry.InfoOf("listed");
  EXPECT_EQ(BackendInfoToJsonText(infos[1]), BackendInfoToJsonText(direct));
  EXPECT_FALSE(infos[1].listing_crashed);
  ASSERT_EQ(infos[1].devices.size(), 2u);
  EXPECT_EQ(infos[1].devices[1].reason, "no \"NPU\" here\n");
  EXPECT_FALSE(infos[1].devices[1].capabilities.bare_tensor_models);
  EXPECT_EQ(infos[1].devices[0].capabilities.max_dim, 1 << 20);
  EXPECT_FALSE(infos[2].built);
  EXPECT_EQ(infos[2].reason, "no package for it");
}

TEST(IsolatedListing, AListingThatIsNotOneIsRefused) {
  EXPECT_FALSE(BackendInfoFromJsonText("").ok());
  EXPECT_FALSE(BackendInfoFromJsonText("{\"name\": \"x\"}").ok());
  EXPECT_FALSE(BackendInfoFromJsonText("[1, 2]").ok());
}

}  // namespace
}  // namespace edgebench
