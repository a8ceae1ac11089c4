// A backend plugin for the Registry's tests (tests/backends/registry_test.cc), built as
// libedgebench_backend_fake.so twice: with this edgebench's plugin ABI version, and with
// EDGEBENCH_FAKE_PLUGIN_ABI set to another one, to be refused. It says it cannot run on this
// machine when EDGEBENCH_FAKE_PLUGIN_UNUSABLE is set, giving that as the reason.
#include "backends/plugin_abi.h"
#include "core/log.h"

#include <cstdlib>

namespace edgebench {
namespace {

class FakeBackend : public Backend {
 public:
  BackendInfo Info() const override {
    BackendInfo info;
    info.name = "fake";
    info.runtime = "fake runtime";
    // Read from the core's log level: the tests set it and look for their setting here, which
    // holds only if the plugin shares the process's one copy of edgebench_core.
    info.version = LogEnabled(LogLevel::kDebug) ? "debug-on" : "debug-off";
    return info;
  }
  Result<std::unique_ptr<Session>> Load(const Artifact&, const Target&) override {
    return Status::Error("the fake backend loads nothing");
  }
};

#ifndef EDGEBENCH_FAKE_PLUGIN_ABI
std::unique_ptr<Backend> MakeFakeBackend() { return std::make_unique<FakeBackend>(); }

BackendDescription DescribeFakeBackend() {
  const char* unusable = std::getenv("EDGEBENCH_FAKE_PLUGIN_UNUSABLE");
  return {"fake", "fake runtime", {".fake"}, unusable != nullptr ? unusable : "", ""};
}
#endif

}  // namespace
}  // namespace edgebench

#ifdef EDGEBENCH_FAKE_PLUGIN_ABI
extern "C" __attribute__((visibility("default"))) const EdgebenchBackendPlugin* edgebench_backend_plugin() {
  static const EdgebenchBackendPlugin plugin{EDGEBENCH_FAKE_PLUGIN_ABI, "fake", nullptr, nullptr};
  return &plugin;
}
#else
EDGEBENCH_BACKEND_PLUGIN("fake", edgebench::MakeFakeBackend, edgebench::DescribeFakeBackend)
#endif
