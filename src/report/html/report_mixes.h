// The report's mix section (docs/mixes.md, docs/report.md): for every run of a mix file, a shared
// timeline of its mixed phase (each workload's latency, or a language model's time to first
// token, at the moment each query arrived; the moments each workload's process started and
// ended; each process's CPU and memory and the machine's series beneath) and the interference
// table (each workload beside the others against itself alone). Null when no record ran in a mix.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "record/record.h"
#include "report/html/report_labels.h"

namespace edgebench {

// A workload's timeline keeps at most this many points: past it, consecutive queries are taken
// in groups and each group's slowest is drawn, so that no spike is thinned away.
inline constexpr size_t kMaxMixTimelinePoints = 2000;

// {"runs": [{mix, run, rounds: [{round, end_s, overlap_from_s, overlap_to_s, workloads: [{name,
//   kind, metric, label, status, valid, exit_code, started_s, ended_s, points: [[t_s, ms]],
//   grouped, cpu: {t_s, process_cpu_pct, rss_mb}}], machine: {source, series: [names], t_s,
//   name: [...]}}], interference: [rows]}]}: a timeline per round's mixed phase, its times in
// seconds from that phase's start; the overlap is the span in which every workload was in its
// measured phase (the mixed figures' queries arrived in it).
nlohmann::json MixesSection(const std::vector<Record>& records, const CaseLabels& labels);

}  // namespace edgebench
