#include "backends/registry.h"

#include "backends/plugin_loader.h"
#include "core/strings.h"

namespace edgebench {

void Registry::Add(std::unique_ptr<Backend> backend) {
  const std::string name = backend->Info().name;
  order_.push_back(name);
  Entry& entry = entries_[name];
  entry.name = name;
  entry.backend = std::move(backend);
  entry.opened = true;
}

void Registry::AddPlugin(std::string name, std::string plugin_path) {
  order_.push_back(name);
  Entry& entry = entries_[name];
  entry.name = std::move(name);
  entry.plugin_path = std::move(plugin_path);
}

void Registry::AddNotBuilt(std::string name, std::string reason) {
  order_.push_back(name);
  Entry& entry = entries_[name];
  entry.name = std::move(name);
  entry.not_built_reason = std::move(reason);
}

void Registry::Open(Entry& entry) const {
  if (entry.opened || entry.plugin_path.empty() || !entry.open_error.empty()) return;
  auto plugin = OpenBackendPlugin(entry.plugin_path, entry.name);
  if (!plugin.ok()) {
    entry.open_error = plugin.error();
    return;
  }
  entry.plugin = plugin.take();
  entry.opened = true;
}

void Registry::Create(Entry& entry) const {
  Open(entry);
  if (entry.backend || !entry.opened || entry.plugin.create == nullptr || !entry.plugin.description.unusable.empty()) {
    return;
  }
  auto backend = CreatePluginBackend(entry.plugin, entry.plugin_path);
  if (!backend.ok()) {
    entry.open_error = backend.error();
    return;
  }
  entry.backend = backend.take();
}

Backend* Registry::Find(const std::string& name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) return nullptr;
  Create(it->second);
  return it->second.backend.get();
}

std::vector<BackendInfo> Registry::List() const {
  std::vector<BackendInfo> infos;
  for (const std::string& name : order_) infos.push_back(InfoOf(name));
  return infos;
}

BackendInfo Registry::InfoOf(const std::string& name) const {
  Entry& entry = entries_.at(name);
  Create(entry);
  if (entry.backend) return entry.backend->Info();
  BackendInfo info = InfoFromDescription(entry.plugin.description);
  info.name = entry.name;
  if (entry.plugin_path.empty() && !entry.not_built_reason.empty()) {
    info.built = false;
    info.reason = entry.not_built_reason;
  } else {
    info.loaded = false;
    if (!entry.open_error.empty()) info.reason = entry.open_error;
  }
  return info;
}

std::vector<std::string> Registry::Names() const { return order_; }

bool Registry::IsLoaded(const std::string& name) const {
  const auto it = entries_.find(name);
  return it != entries_.end() && it->second.opened;
}

std::string Registry::WhyUnusable(const std::string& name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) {
    return "unknown backend '" + name + "'; known backends: " + Join(order_, ", ");
  }
  Entry& entry = it->second;
  Create(entry);
  if (entry.backend) return "";
  const std::string runtime = entry.plugin.description.runtime;
  const std::string which = "backend '" + name + "'" + (runtime.empty() ? "" : " (" + runtime + ")");
  if (!entry.open_error.empty()) return which + " is unavailable: " + entry.open_error;
  if (!entry.plugin.description.unusable.empty()) {
    return which + " cannot run on this machine: " + entry.plugin.description.unusable;
  }
  return which + " is not built into this edgebench: " + entry.not_built_reason;
}

void Registry::ReleaseBackends() {
  for (auto& [name, entry] : entries_) {
    // A built-in backend cannot be made again: it goes for good, as before plugins.
    entry.backend.reset();
  }
}

}  // namespace edgebench
