// A backend plugin for the Registry's tests (tests/backends/registry_test.cc), built as
// libedgebench_backend_fake.so twice: with this edgebench's plugin ABI version, and with
// EDGEBENCH_FAKE_PLUGIN_ABI set to another one, to be refused.
#include "backends/plugin_abi.h"
#include "core/log.h"

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
#endif

}  // namespace
}  // namespace edgebench

#ifdef EDGEBENCH_FAKE_PLUGIN_ABI
extern "C" __attribute__((visibility("default"))) const EdgebenchBackendPlugin* edgebench_backend_plugin() {
  static const EdgebenchBackendPlugin plugin{EDGEBENCH_FAKE_PLUGIN_ABI, "fake", nullptr};
  return &plugin;
}
#else
EDGEBENCH_BACKEND_PLUGIN("fake", edgebench::MakeFakeBackend)
#endif
