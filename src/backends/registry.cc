#include "backends/registry.h"
#include "core/strings.h"

namespace edgebench {

void Registry::Add(std::unique_ptr<Backend> backend) {
  const std::string name = backend->Info().name;
  order_.push_back(name);
  backends_[name] = std::move(backend);
}

void Registry::AddNotBuilt(BackendInfo info) {
  info.built = false;
  order_.push_back(info.name);
  not_built_[info.name] = std::move(info);
}

Backend* Registry::Find(const std::string& name) const {
  const auto it = backends_.find(name);
  return it == backends_.end() ? nullptr : it->second.get();
}

std::vector<BackendInfo> Registry::List() const {
  std::vector<BackendInfo> infos;
  for (const std::string& name : order_) {
    if (const auto it = backends_.find(name); it != backends_.end()) {
      infos.push_back(it->second->Info());
    } else {
      infos.push_back(not_built_.at(name));
    }
  }
  return infos;
}

std::string Registry::WhyUnusable(const std::string& name) const {
  if (backends_.count(name)) return "";
  if (const auto it = not_built_.find(name); it != not_built_.end()) {
    return "backend '" + name + "' is not built into this edgebench: " + it->second.reason;
  }
  const std::string known = Join(order_, ", ");
  return "unknown backend '" + name + "'; known backends: " + known;
}

}  // namespace edgebench
