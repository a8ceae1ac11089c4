// What became of each host of a fleet run, read from what ansible/fleet.yml left in DIR:
// DIR/HOST/fleet-status.json (`started`, written first for every host of the play; then
// `unreachable`, `failed` or `ran` with the suite's exit status), DIR/HOST/host.json (what the
// host is) and the host's store, DIR/HOST/results.jsonl.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "record/record.h"

namespace edgebench {

enum class FleetHostState { kOk, kCasesFailed, kFailed, kUnreachable, kLost };
std::string FleetHostStateName(FleetHostState state);

struct FleetHostOutcome {
  std::string host;  // the inventory name
  FleetHostState state = FleetHostState::kLost;
  std::string reason;  // for every state but kOk: Ansible's or the suite's words
  // From DIR/HOST/host.json (empty when the host was never reached).
  std::string hostname;
  std::string architecture;
  std::string kernel;
  int logical_cores = 0;
  // The host's store as brought home (every run so far, not only this one).
  std::vector<Record> records;
  std::vector<std::string> store_warnings;
};

// Every host of this run (its fleet-status.json written at or after `run_start`), by name.
std::vector<FleetHostOutcome> ReadFleetOutcomes(const std::string& out_dir, std::filesystem::file_time_type run_start);

// host, state, architecture, cores, records (measured/all), reason: one line each.
std::string FleetOutcomeTable(const std::vector<FleetHostOutcome>& outcomes);

// The same cases side by side (report/cases_on_hosts.h): one row per case, one column per host,
// its p50 and p99 in ms or its status ("unavailable", "failed"...); reasons listed below.
std::string FleetCaseTable(const std::vector<FleetHostOutcome>& outcomes);

}  // namespace edgebench
