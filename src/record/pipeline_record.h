// The record's `pipeline` section (docs/pipelines.md): what each stage of a pipeline case
// cost. The record's own latencies are the queries' end to end; this section splits them by
// stage, over the measured queries the stages were timed on:
//   per stage its latency distribution (the wall time of all its calls in a query), its calls
//   per query (a stage after a crop runs once per detection), its share of the end-to-end
//   time, where its model ran (nodes per device, from the stage's own runtime), for host
//   stages the CPU time beside the wall time, and its first run (the first query's).
// The shares of all stages add up to 1 less the harness's own part (`harness_share`): the few
// clock reads and the hand-off between stages.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/diffusion_record.h"

namespace edgebench {

struct PipelineStageRecord {
  std::string name;
  std::string kind;      // decode_image, preprocess, model, ssd_detections, crop, top_k
  std::string target;    // a model stage's effective target; empty for host stages
  std::string artifact;  // a model stage's file
  std::string ran_on;    // a model stage's placement (core/placement.h PlacementText)
  std::map<std::string, int> nodes_by_device;
  int64_t queries = 0;   // measured queries timed
  int64_t calls = 0;     // over them
  int32_t min_calls = 0, max_calls = 0;  // per query
  // Over the measured queries, in ns: the stage's time per query.
  // A percentile is absent where the queries are too few to give it (stats/summary.h).
  std::optional<int64_t> p50_ns, p90_ns, p99_ns;
  int64_t max_ns = 0;
  double mean_ns = 0;
  double share = 0;  // of the mean end-to-end latency
  std::optional<double> cpu_mean_ns;  // host stages: the lane thread's CPU time per query
  int64_t first_run_ns = 0;           // its time in the case's first query
  // A model stage: how much its sessions (one per lane) added to the worker's resident memory
  // while they loaded and were prepared.
  std::optional<int64_t> load_rss_bytes;
};

// One query's stages as they ran, for the trace: its start on the measured phase's axis (ns
// after the phase started, as a query's issue time) and each stage's time, one after another.
struct PipelineQueryTimeline {
  int32_t stream = 0;  // the lane: the stream (or server session) that ran it
  int64_t start_ns = 0;
  std::vector<int64_t> stage_ns;
};

// The timeline keeps this many measured queries per stream.
inline constexpr size_t kPipelineTimelineQueries = 20;

struct PipelineRecord {
  std::string name;
  std::string file;   // the pipeline file
  std::string input;  // the query's input file
  std::vector<PipelineStageRecord> stages;
  double harness_share = 0;      // 1 - the stages' shares
  int64_t untimed_queries = 0;   // queries run past the per-lane cap, not timed per stage
  std::vector<PipelineQueryTimeline> timeline;  // the first measured queries of each stream
  std::optional<DiffusionRecord> diffusion;     // a diffusion pipeline's steps and outputs
};

nlohmann::json PipelineRecordToJson(const PipelineRecord& pipeline);
// An error names what is missing or of the wrong type.
Result<PipelineRecord> PipelineRecordFromJson(const nlohmann::json& json);

}  // namespace edgebench
