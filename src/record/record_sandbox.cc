#include "record/record_sandbox.h"

namespace edgebench {

nlohmann::json SandboxReportToJson(const SandboxReport& r) {
  nlohmann::json j{{"applied", r.applied}, {"landlock_abi", r.landlock_abi}};
  if (r.applied) {
    j["writable"] = r.writable;
    j["tcp_refused"] = r.tcp_refused;
    j["scoped"] = r.scoped;
    j["network_namespace"] = r.network_namespace;
  } else {
    j["not_applied"] = r.not_applied;
  }
  if (!r.notes.empty()) j["notes"] = r.notes;
  return j;
}

Result<SandboxReport> SandboxReportFromJson(const nlohmann::json& j) {
  try {
    SandboxReport r;
    r.applied = j.at("applied").get<bool>();
    r.landlock_abi = j.value("landlock_abi", 0);
    r.writable = j.value("writable", std::vector<std::string>{});
    r.tcp_refused = j.value("tcp_refused", false);
    r.scoped = j.value("scoped", false);
    r.network_namespace = j.value("network_namespace", false);
    r.not_applied = j.value("not_applied", "");
    r.notes = j.value("notes", std::vector<std::string>{});
    return r;
  } catch (const std::exception& e) {
    return Status::Error(std::string("sandbox: ") + e.what());
  }
}

std::string SandboxSummary(const SandboxReport& r) {
  if (!r.applied) return "not sandboxed: " + r.not_applied;
  std::string dirs;
  for (const std::string& d : r.writable) dirs += (dirs.empty() ? "" : ", ") + d;
  return "sandboxed (Landlock ABI " + std::to_string(r.landlock_abi) + "): writes only beneath " + dirs + "; " +
         (r.network_namespace ? "no network"
          : r.tcp_refused     ? "no TCP (other sockets open: no network namespace of its own)"
                              : "network open (this Landlock cannot refuse sockets)");
}

}  // namespace edgebench
