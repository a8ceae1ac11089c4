// Backends by name. Registration is explicit, in one place: RegisterBuiltBackends().
//
// A backend is built in (the null backend: constructed at registration), a plugin (a shared
// object opened the first time a caller asks for that backend, so a process opens only the
// runtimes it uses: docs/backends.md), or not built (with the reason CMake found).
// Not thread-safe: a process asks for its backends before it starts its threads.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"

namespace edgebench {

class Registry {
 public:
  void Add(std::unique_ptr<Backend> backend);
  // A backend built as a plugin at `plugin_path`, opened on first use. `declared` (name, runtime,
  // artifact extensions) describes it until then, and for good if it cannot be opened.
  void AddPlugin(BackendInfo declared, std::string plugin_path);
  // A backend this build does not contain, with the reason (shown by `edgebench devices`).
  void AddNotBuilt(BackendInfo info);

  // nullptr when the name is unknown, not built, or its plugin cannot be opened (WhyUnusable
  // says which). Opens the backend's plugin on the first call for it.
  Backend* Find(const std::string& name) const;
  // Every backend's info, built or not, in registration order. Opens every plugin (their
  // devices are known only to their runtimes); a plugin that cannot be opened is listed with
  // loaded = false and the reason.
  std::vector<BackendInfo> List() const;
  // Every backend's name in registration order; opens nothing.
  std::vector<std::string> Names() const;
  // Whether backend `name`'s plugin has been opened (always true for a built-in backend).
  bool IsLoaded(const std::string& name) const;
  // Why `name` cannot be used: unknown, not built, or its plugin cannot be opened. Empty when it
  // can. Opens the plugin if no call did yet.
  std::string WhyUnusable(const std::string& name) const;
  // Destroys every backend now (their runtimes' global state with them). Plugin libraries stay
  // open; a later Find creates the backend anew.
  void ReleaseBackends();

 private:
  struct Entry {
    BackendInfo declared;     // for plugins and backends not built
    std::string plugin_path;  // empty: built in or not built
    std::unique_ptr<Backend> backend;
    bool opened = false;      // the plugin was opened (backend may since have been released)
    std::string open_error;   // why the plugin could not be opened; set once tried
  };
  // Creates the backend of a plugin entry if it has none and was not refused before.
  void Open(Entry& entry) const;

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
