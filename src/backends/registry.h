// Backends by name. Registration is explicit, in one place: RegisterBuiltBackends().
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
  // A backend this build does not contain, with the reason (shown by `edgebench devices`).
  void AddNotBuilt(BackendInfo info);

  // nullptr when the name is unknown or not built.
  Backend* Find(const std::string& name) const;
  // Every backend's info, built or not, in registration order.
  std::vector<BackendInfo> List() const;
  // Why `name` cannot be used: unknown or not built. Empty when it can.
  std::string WhyUnusable(const std::string& name) const;
  // Destroys every backend now (their runtimes' global state with them).
  void ReleaseBackends() { backends_.clear(); }

 private:
  std::vector<std::string> order_;
  std::map<std::string, std::unique_ptr<Backend>> backends_;
  std::map<std::string, BackendInfo> not_built_;
};

// Registers every backend known to edgebench: built ones, and the others as not built.
void RegisterBuiltBackends(Registry& registry);

}  // namespace edgebench
