// A mix's interference (docs/mixes.md), from its records alone: each workload's figure beside
// the others against its figure alone, as a ratio with a bootstrap interval, its frames dropped
// in both phases, and its objectives judged on the mixed record. `edgebench run MIX.yaml` prints
// it as the run ends; `edgebench report` draws it from a store.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "record/mix_tag.h"
#include "record/record.h"

namespace edgebench {

struct MixObjectiveResult {
  MixObjective objective;
  std::optional<double> value;  // mixed; nullopt: the record has no such figure
  bool met = false;
};

struct MixInterference {
  std::string workload;
  // "p99_ms" or, for a language model, "ttft_p99_ms"; the p50's where a phase has too few
  // samples for a p99.
  std::string metric;
  std::optional<double> alone;
  // Of the queries (or requests) that arrived while every workload that ran beside it was in its
  // measured phase (MixOverlap): a workload whose warmup or tail ran alone is not credited with
  // the others' load.
  std::optional<double> mixed;
  int64_t mixed_samples = 0;        // those queries
  int64_t mixed_samples_total = 0;  // all the mixed records' measured queries
  int rounds = 0;                   // the mixed records' (a mix's `rounds:`): samples pool over them
  // mixed / alone, with the 95% percentile-bootstrap interval on the raw samples.
  std::optional<double> ratio, ratio_low, ratio_high;
  std::optional<double> dropped_alone, dropped_mixed;  // camera scenarios: frames dropped (fraction)
  std::string mixed_status;  // the mixed record's status ("ok", "crashed", ...), or "no record"
  bool mixed_valid = false;
  std::vector<MixObjectiveResult> objectives;
  bool objectives_met = true;
};

// A measured phase, or the span all of a mix's measured phases share, in steady-clock ns.
struct MixWindow {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  double seconds() const { return static_cast<double>(end_ns - start_ns) / 1e9; }
};

// Each measured query's (or language-model request's) arrival and latency (time to first
// token), steady-clock ns, by arrival; empty where the record kept no phase start (records before
// mixes kept them) or only histograms.
std::vector<std::pair<int64_t, int64_t>> MixArrivals(const Record& r);

// The record's measured phase: from its start to its last query's end; none where unknown.
std::optional<MixWindow> MeasuredWindow(const Record& r);

// The span in which every one of `mixed` (the mixed phase's records that ran, status ok) was in
// its measured phase; none when fewer than two have a window, and an empty span (end <= start)
// when they did not overlap.
std::optional<MixWindow> MixOverlap(const std::vector<const Record*>& mixed);

// A workload as judged: its name and objectives (the mix file's, or a record's tag's).
struct MixWorkloadObjectives {
  std::string name;
  std::vector<MixObjective> objectives;
};

// One row per workload, in the order given, from `records` (each with its `mix` tag; of one run
// of one mix): each workload's alone and mixed records of every round, their samples pooled (the
// mixed ones from each round's overlap); objectives met when met in every round.
std::vector<MixInterference> JudgeMixRecords(const std::vector<MixWorkloadObjectives>& workloads,
                                             const std::vector<const Record*>& records);

}  // namespace edgebench
