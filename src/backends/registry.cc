#include "backends/registry.h"

#include "backends/plugin_loader.h"
#include "core/strings.h"

namespace edgebench {

void Registry::Add(std::unique_ptr<Backend> backend) {
  const std::string name = backend->Info().name;
  order_.push_back(name);
  Entry& entry = entries_[name];
  entry.backend = std::move(backend);
  entry.opened = true;
}

void Registry::AddPlugin(BackendInfo declared, std::string plugin_path) {
  const std::string name = declared.name;
  order_.push_back(name);
  Entry& entry = entries_[name];
  entry.declared = std::move(declared);
  entry.plugin_path = std::move(plugin_path);
}

void Registry::AddNotBuilt(BackendInfo info) {
  info.built = false;
  const std::string name = info.name;
  order_.push_back(name);
  entries_[name].declared = std::move(info);
}

void Registry::Open(Entry& entry) const {
  if (entry.backend || entry.plugin_path.empty() || !entry.open_error.empty()) return;
  auto backend = LoadBackendPlugin(entry.plugin_path, entry.declared.name);
  if (!backend.ok()) {
    entry.open_error = backend.error();
    return;
  }
  entry.backend = backend.take();
  entry.opened = true;
}

Backend* Registry::Find(const std::string& name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) return nullptr;
  Open(it->second);
  return it->second.backend.get();
}

std::vector<BackendInfo> Registry::List() const {
  std::vector<BackendInfo> infos;
  for (const std::string& name : order_) {
    Entry& entry = entries_.at(name);
    Open(entry);
    if (entry.backend) {
      infos.push_back(entry.backend->Info());
      continue;
    }
    BackendInfo info = entry.declared;
    if (!entry.open_error.empty()) {
      info.loaded = false;
      info.reason = entry.open_error;
    }
    infos.push_back(std::move(info));
  }
  return infos;
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
  Open(entry);
  if (entry.backend) return "";
  if (!entry.open_error.empty()) {
    return "backend '" + name + "' (" + entry.declared.runtime + ") is unavailable: " + entry.open_error;
  }
  return "backend '" + name + "' is not built into this edgebench: " + entry.declared.reason;
}

void Registry::ReleaseBackends() {
  for (auto& [name, entry] : entries_) {
    // A built-in backend cannot be made again: it goes for good, as before plugins.
    entry.backend.reset();
  }
}

}  // namespace edgebench
