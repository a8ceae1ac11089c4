// Opening a backend plugin (backends/plugin_abi.h) and finding the directory plugins live in.
#pragma once

#include <memory>
#include <string>

#include "backends/backend.h"
#include "core/status.h"

namespace edgebench {

// The environment variable that overrides where plugins are looked for (tests, installs that
// keep them elsewhere).
inline constexpr const char kBackendDirVariable[] = "EDGEBENCH_BACKEND_DIR";

// $EDGEBENCH_BACKEND_DIR when set, else "backends" next to the running executable
// (/proc/self/exe), where the build puts them.
std::string DefaultBackendPluginDir();

// The file of backend `name`'s plugin in `dir`: dir/libedgebench_backend_<name>.so.
std::string BackendPluginPath(const std::string& dir, const std::string& name);

// An opened plugin: what it says of itself, and how to create its backend.
struct BackendPlugin {
  BackendDescription description;
  Backend* (*create)() = nullptr;
};

// Opens the plugin at `path` (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND: the plugin and its runtime
// bind to their own symbols first, so two runtimes that define the same names can each be
// opened; sanitizer builds drop RTLD_DEEPBIND, which their runtimes refuse), checks its ABI
// version and name, and asks it to describe itself; its backend is not created. An error says
// which file, and why: missing, not loadable (the loader's own message), a different ABI
// version, another backend's plugin. A plugin that opens but says it cannot run on this machine
// is not an error: its description's `unusable` says why.
// The library stays open for the life of the process: runtimes keep threads and static state
// that do not survive being unloaded.
Result<BackendPlugin> OpenBackendPlugin(const std::string& path, const std::string& expected_name);

// A new backend from an opened plugin (`path` names it in the error).
Result<std::unique_ptr<Backend>> CreatePluginBackend(const BackendPlugin& plugin, const std::string& path);

}  // namespace edgebench
