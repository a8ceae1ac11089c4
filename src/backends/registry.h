// Backends by name. Registration is explicit, in one place: RegisterBuiltBackends().
//
// A backend is built in (the null backend: constructed at registration), a plugin (a shared
// object opened the first time a caller asks for that backend, so a process opens only the
// runtimes it uses: docs/backends.md), or not built (with the reason CMake found). A plugin
// describes itself when it is opened (name, runtime, files, whether it can run on this machine:
// backends/plugin_abi.h) and the registry keeps the answer; nothing here declares it again.
// Not thread-safe: a process asks for its backends before it starts its threads.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/plugin_loader.h"

namespace edgebench {

class Registry {
 public:
  void Add(std::unique_ptr<Backend> backend);
  // Backend `name`, built as a plugin at `plugin_path`: opened, and asked to describe itself, on
  // first use.
  void AddPlugin(std::string name, std::string plugin_path);
  // Backend `name`, which this build does not contain, with the reason (shown by `edgebench devices`).
  void AddNotBuilt(std::string name, std::string reason);

  // nullptr when the name is unknown, not built, its plugin cannot be opened, or it says it
  // cannot run on this machine (WhyUnusable says which). Opens the backend's plugin and creates
  // the backend on the first call for it.
  Backend* Find(const std::string& name) const;
  // Every backend's info, built or not, in registration order. Opens every plugin (their
  // devices are known only to their runtimes); a plugin that cannot be opened, or that cannot run
  // here, is listed with loaded = false, the reason, and what it said of itself.
  std::vector<BackendInfo> List() const;
  // One backend's info, as List() gives it (name must be one of Names()).
  BackendInfo InfoOf(const std::string& name) const;
  // Every backend's name in registration order; opens nothing.
  std::vector<std::string> Names() const;
  // Whether backend `name`'s plugin has been opened (always true for a built-in backend).
  bool IsLoaded(const std::string& name) const;
  // Why `name` cannot be used: unknown, not built, its plugin cannot be opened, or it cannot run
  // here. Empty when it can. Opens the plugin if no call did yet.
  std::string WhyUnusable(const std::string& name) const;
  // Destroys every backend now (their runtimes' global state with them). Plugin libraries stay
  // open; a later Find creates the backend anew.
  void ReleaseBackends();

 private:
  struct Entry {
    std::string name;
    std::string plugin_path;       // empty: built in or not built
    std::string not_built_reason;  // set for a backend this build does not contain
    std::unique_ptr<Backend> backend;
    bool opened = false;      // the plugin was opened (backend may since have been released)
    std::string open_error;   // why the plugin could not be opened or its backend created
    BackendPlugin plugin;     // what the opened plugin said of itself, and its factory
  };
  // Opens the plugin of a plugin entry if no call tried yet, keeping what it says of itself.
  void Open(Entry& entry) const;
  // Opens the plugin, then creates the backend if it has none and can run here.
  void Create(Entry& entry) const;

  std::vector<std::string> order_;
  // mutable: Find opens plugins lazily; what it finds does not change what the registry holds.
  mutable std::map<std::string, Entry> entries_;
};

// Registers every backend known to edgebench: the null backend, the plugins this build made
// (looked for in `plugin_dir`), and the others as not built.
void RegisterBuiltBackends(Registry& registry, const std::string& plugin_dir);
// The same, with plugins looked for in DefaultBackendPluginDir() (backends/plugin_loader.h).
void RegisterBuiltBackends(Registry& registry);

}  // namespace edgebench
