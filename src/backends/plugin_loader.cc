#include "backends/plugin_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "backends/plugin_abi.h"
#include "core/log.h"

namespace edgebench {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// AddressSanitizer and ThreadSanitizer refuse RTLD_DEEPBIND (their interceptors would be
// bypassed). Sanitizer builds are for finding edgebench's bugs; they run without it, so a run
// that needs two clashing runtimes in one process is not theirs to make.
constexpr int kPluginOpenFlags = RTLD_NOW | RTLD_LOCAL;
#else
constexpr int kPluginOpenFlags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
#endif

}  // namespace

std::string DefaultBackendPluginDir() {
  if (const char* dir = std::getenv(kBackendDirVariable); dir != nullptr && *dir != '\0') {
    return dir;
  }
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "backends";  // relative to the working directory: the best guess left
  return (self.parent_path() / "backends").string();
}

std::string BackendPluginPath(const std::string& dir, const std::string& name) {
  return dir + "/libedgebench_backend_" + name + ".so";
}

Result<BackendPlugin> OpenBackendPlugin(const std::string& path, const std::string& expected_name) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return Status::Error("its plugin '" + path + "' does not exist (build the `edgebench` target, " +
                         "which builds the plugins, or set " + kBackendDirVariable +
                         " to the directory that holds them)");
  }
  ::dlerror();
  void* library = ::dlopen(path.c_str(), kPluginOpenFlags);
  if (library == nullptr) {
    const char* why = ::dlerror();
    return Status::Error("its plugin '" + path + "' could not be loaded: " +
                         (why != nullptr ? why : "dlopen failed without a reason"));
  }
  // From here on the library stays open (see the header), also when it is refused: unloading a
  // runtime that has run its static constructors is the riskier path.
  auto entry = reinterpret_cast<EdgebenchBackendPluginEntry>(::dlsym(library, kBackendPluginEntrySymbol));
  if (entry == nullptr) {
    return Status::Error("'" + path + "' is not an edgebench backend plugin: it has no symbol '" +
                         kBackendPluginEntrySymbol + "'");
  }
  const EdgebenchBackendPlugin* plugin = entry();
  if (plugin == nullptr) {
    return Status::Error("the plugin '" + path + "' returned no description of itself");
  }
  if (plugin->abi_version != kBackendPluginAbiVersion) {
    return Status::Error("the plugin '" + path + "' was built for backend plugin ABI version " +
                         std::to_string(plugin->abi_version) + ", and this edgebench uses version " +
                         std::to_string(kBackendPluginAbiVersion) +
                         ": rebuild the plugin with this edgebench (a stale file from another build?)");
  }
  const std::string name = plugin->name != nullptr ? plugin->name : "";
  if (name != expected_name) {
    return Status::Error("the plugin '" + path + "' is backend '" + name + "', not '" + expected_name +
                         "'");
  }
  if (plugin->describe == nullptr || plugin->create == nullptr) {
    return Status::Error("the plugin '" + path + "' has no way to " +
                         (plugin->describe == nullptr ? "describe" : "create") + " its backend");
  }
  BackendPlugin opened;
  opened.description = plugin->describe();
  if (opened.description.name != name) {
    return Status::Error("the plugin '" + path + "' describes backend '" + opened.description.name +
                         "', not '" + name + "'");
  }
  opened.create = plugin->create;
  Log(LogLevel::kDebug, "opened backend plugin '" + path + "'" +
                            (opened.description.unusable.empty() ? "" : ": " + opened.description.unusable));
  return opened;
}

Result<std::unique_ptr<Backend>> CreatePluginBackend(const BackendPlugin& plugin, const std::string& path) {
  Backend* backend = plugin.create != nullptr ? plugin.create() : nullptr;
  if (backend == nullptr) {
    return Status::Error("the plugin '" + path + "' could not create backend '" + plugin.description.name + "'");
  }
  return std::unique_ptr<Backend>(backend);
}

}  // namespace edgebench
