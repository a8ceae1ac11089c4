#include "fleet/fleet_outcome.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "core/strings.h"
#include "report/cases_on_hosts.h"
#include "report/store.h"

namespace edgebench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json ReadJson(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  json j = json::parse(in, nullptr, false);
  return j.is_discarded() ? json(nullptr) : j;
}

bool WrittenSince(const fs::path& path, fs::file_time_type since) {
  std::error_code ec;
  const auto time = fs::last_write_time(path, ec);
  return !ec && time >= since;
}

// The last line or two of a long message: what Ansible or the suite said last.
std::string Tail(std::string text, size_t max_chars = 600) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.size() > max_chars) text = "..." + text.substr(text.size() - max_chars);
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

void ReadHostFiles(const fs::path& dir, FleetHostOutcome& o) {
  const json host = ReadJson(dir / "host.json");
  if (host.is_object()) {
    o.hostname = host.value("hostname", "");
    o.architecture = host.value("architecture", "");
    o.kernel = host.value("kernel", "");
    o.logical_cores = host.value("logical_cores", 0);
  }
  std::error_code ec;
  // The device listing failed there (ansible/fleet.yml runs the suite anyway): said with the
  // store's warnings, not lost in host.json.
  if (host.is_object() && host.contains("devices_failed") && host["devices_failed"].is_string()) {
    o.store_warnings.push_back("its device listing failed (host.json): " +
                               Tail(host["devices_failed"].get<std::string>()));
  }
  if (fs::exists(dir / "results.jsonl", ec)) {
    auto store = ReadStore((dir / "results.jsonl").string());
    if (store.ok()) {
      o.records = std::move(store.value().records);
      o.store_warnings.insert(o.store_warnings.end(), store.value().warnings.begin(), store.value().warnings.end());
    } else {
      o.store_warnings.push_back(store.error());
    }
  }
}

}  // namespace

std::string FleetHostStateName(FleetHostState state) {
  switch (state) {
    case FleetHostState::kOk: return "ok";
    case FleetHostState::kCasesFailed: return "ok, cases failed";
    case FleetHostState::kFailed: return "failed";
    case FleetHostState::kUnreachable: return "unreachable";
    case FleetHostState::kLost: return "lost";
  }
  return "?";
}

std::vector<FleetHostOutcome> ReadFleetOutcomes(const std::string& out_dir, fs::file_time_type run_start) {
  std::vector<FleetHostOutcome> outcomes;
  std::error_code ec;
  for (fs::directory_iterator it(out_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path status_path = it->path() / "fleet-status.json";
    if (!it->is_directory() || it->path().filename().string()[0] == '.' || !WrittenSince(status_path, run_start)) {
      continue;
    }
    FleetHostOutcome o;
    o.host = it->path().filename().string();
    ReadHostFiles(it->path(), o);
    const json status = ReadJson(status_path);
    const std::string state = status.is_object() ? status.value("state", "") : "";
    const std::string task = status.is_object() ? status.value("task", "") : "";
    const std::string reason = status.is_object() ? Tail(status.value("reason", "")) : "";
    if (state == "ran") {
      const json rc = status.value("rc", json(nullptr));
      const int code = rc.is_number_integer() ? rc.get<int>() : -1;
      o.state = code == 0 ? FleetHostState::kOk : code == 1 ? FleetHostState::kCasesFailed : FleetHostState::kFailed;
      if (code == 1) o.reason = "some cases did not measure (their records say why)";
      if (code > 1 || code < 0) {
        o.reason = "edgebench suite exited " + std::to_string(code) + ": " + Tail(status.value("stderr", ""));
      }
    } else if (state == "unreachable") {
      o.state = FleetHostState::kUnreachable;
      o.reason = (task.empty() ? "" : task + ": ") + reason;
    } else if (state == "failed") {
      o.state = FleetHostState::kFailed;
      o.reason = (task.empty() ? "" : task + ": ") + reason;
    } else {
      o.state = FleetHostState::kLost;
      o.reason = "Ansible stopped working on it before its suite ended (lost or cut off: its messages are in "
                 "DIR/.fleet/ansible.log); run the same command again to resume it";
    }
    outcomes.push_back(std::move(o));
  }
  std::sort(outcomes.begin(), outcomes.end(),
            [](const FleetHostOutcome& a, const FleetHostOutcome& b) { return a.host < b.host; });
  return outcomes;
}

std::string FleetOutcomeTable(const std::vector<FleetHostOutcome>& outcomes) {
  std::ostringstream out;
  char line[512];
  std::snprintf(line, sizeof line, "%-16s %-17s %-10s %-6s %-9s %s\n", "host", "state", "arch", "cores",
                "records", "reason");
  out << line;
  for (const FleetHostOutcome& o : outcomes) {
    int measured = 0;
    for (const Record& r : o.records) measured += r.status == CaseStatus::kOk ? 1 : 0;
    const std::string records = std::to_string(measured) + "/" + std::to_string(o.records.size());
    // The cores edgebench may use there (its affinity, from the records) of the host's cores.
    std::string cores = o.logical_cores ? std::to_string(o.logical_cores) : "-";
    if (!o.records.empty() && o.records.back().environment.usable_cores > 0) {
      const Environment& e = o.records.back().environment;
      cores = std::to_string(e.usable_cores) + "/" + std::to_string(e.logical_cores);
    }
    std::snprintf(line, sizeof line, "%-16s %-17s %-10s %-6s %-9s ", o.host.c_str(),
                  FleetHostStateName(o.state).c_str(), o.architecture.empty() ? "-" : o.architecture.c_str(),
                  cores.c_str(), records.c_str());
    // A host whose records were made on an emulated CPU (qemu-user): its latencies are the
    // emulator's, read beside a native host's, never against them.
    std::string reason = o.reason;
    if (!o.records.empty() && !o.records.back().environment.cpu_emulation.empty()) {
      reason = "emulated CPU (" + o.records.back().environment.cpu_emulation + "): its latencies are the emulator's" +
               (reason.empty() ? "" : "; " + reason);
    }
    out << line << reason << "\n";
  }
  return out.str();
}

std::string FleetCaseTable(const std::vector<FleetHostOutcome>& outcomes) {
  std::vector<std::string> hosts;
  std::vector<const Record*> records;
  for (const FleetHostOutcome& o : outcomes) {
    hosts.push_back(o.host);
    for (const Record& r : o.records) records.push_back(&r);
  }
  const CasesOnHosts grouped = GroupCasesOnHosts(records, hosts);
  size_t label_width = 4;
  for (const CasesOnHosts::Row& row : grouped.rows) label_width = std::max(label_width, row.label.size());
  std::ostringstream out;
  out << std::string(label_width, ' ');
  for (const std::string& host : grouped.hosts) {
    char head[64];
    std::snprintf(head, sizeof head, "  %-22s", (host + " p50/p99 ms").c_str());
    out << head;
  }
  out << "\n";
  std::vector<std::string> reasons;
  for (const CasesOnHosts::Row& row : grouped.rows) {
    out << row.label << std::string(label_width - row.label.size(), ' ');
    for (const std::string& host : grouped.hosts) {
      const auto it = row.by_host.find(host);
      std::string cell = "-";
      if (it != row.by_host.end()) {
        const Record& r = *it->second;
        const LatencySummary& summary = MainLatencySummary(r);
        const auto p50 = summary.Percentile(0.50);
        const auto p99 = summary.Percentile(0.99);
        if (r.status == CaseStatus::kOk && p50 && p99) {
          cell = FormatNumber("%.3f", *p50 / 1e6) + " / " + FormatNumber("%.3f", *p99 / 1e6) +
                 (r.valid ? "" : " INVALID");
        } else {
          cell = CaseStatusName(r.status);
          if (!r.error.empty()) {
            reasons.push_back(host + ": " + row.label + ": " + CaseStatusName(r.status) + ": " + Tail(r.error, 300));
            cell += " [" + std::to_string(reasons.size()) + "]";
          }
        }
      }
      char text[64];
      std::snprintf(text, sizeof text, "  %-22s", cell.c_str());
      out << text;
    }
    out << "\n";
  }
  for (size_t i = 0; i < reasons.size(); ++i) out << "[" << i + 1 << "] " << reasons[i] << "\n";
  return out.str();
}

}  // namespace edgebench
