// The record's `mix` section (docs/mixes.md): which mix a case ran in, as which workload, and
// whether alone or beside the others, with the workload's objectives and the moments its
// process started and ended, so that a mix's interference and timeline are read from its
// records alone (`edgebench report`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/monitor_record.h"

namespace edgebench {

// "p99<=66ms": a metric of the registry (metrics/metrics.h) or a short name for one, a bound and
// its unit, converted to the metric's own unit (plan/mix_file.h parses it).
struct MixObjective {
  std::string text;    // as written
  std::string metric;  // the registry's name: "p99_ms", "dropped_frames", "ttft_p99_ms"
  bool at_most = true; // <= (false: >=)
  double bound = 0;    // in the metric's unit (ms, a fraction, 1/s)
};

struct MixTag {
  std::string mix;       // the mix file's name:
  std::string run;       // one invocation of the mix: its records share it
  std::string workload;  // this workload's name
  std::string phase;     // "alone" or "mixed"
  int round = 1;         // of the mix's `rounds:` (1 when it has one)
  std::vector<std::string> beside;  // mixed: the other workloads running at the same time
  std::vector<MixObjective> objectives;  // judged on the mixed record
  // The mix's steady clock (ns; one machine, so the workers' clock too): when the phase began,
  // and when this workload's process was started and ended; 0 where unknown (records before
  // these were kept).
  int64_t phase_start_ns = 0;
  int64_t process_start_ns = 0;
  int64_t process_end_ns = 0;
  std::optional<int> exit_code;  // the process's; 128 + N when killed by signal N
  // "processes" (this workload had a process of its own) or "together" (the mixed phase's
  // workloads ran on threads of one process: its CPU and memory series are all of theirs, and a
  // crash of one took them all).
  std::string isolation = "processes";
  // The machine's series (CPU, temperature, frequency, power), read once by the mix itself over
  // the mixed phase, its times from the phase's start; on the first workload's mixed record of a
  // round only (the others' workers keep their own process's series).
  std::optional<MonitorRecord> machine;
};

nlohmann::json MixTagToJson(const MixTag& tag);
// An error names the field that is missing or wrong.
Result<MixTag> MixTagFromJson(const nlohmann::json& json);

}  // namespace edgebench
