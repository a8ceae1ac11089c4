#include "report/stage_columns.h"

#include "core/strings.h"
#include "report/columns.h"

namespace edgebench {
namespace {

std::string StageMsCell(const std::optional<int64_t>& ns) {
  return ns ? FormatSignificant(static_cast<double>(*ns) / 1e6) : std::string(kNoValue);
}

std::string StageMsOfCell(double ns) { return FormatSignificant(ns / 1e6); }

// A loop stage's per-step record (a diffusion's UNet, guidance, scheduler); null for the others.
const DiffusionStepRecord* StepsOf(const Record& r, const PipelineStageRecord& s) {
  if (!r.pipeline || !r.pipeline->diffusion) return nullptr;
  for (const DiffusionStepRecord& step : r.pipeline->diffusion->steps) {
    if (step.stage == s.name) return &step;
  }
  return nullptr;
}

std::vector<StageColumn> MakeColumns() {
  using S = PipelineStageRecord;
  return {
      {"model", [](const Record& r, const S&) { return r.model; }},
      {"target", [](const Record& r, const S&) { return r.requested_target; }},
      {"scenario", [](const Record& r, const S&) { return r.scenario; }},
      {"stage", [](const Record&, const S& s) { return s.name; }},
      {"kind", [](const Record&, const S& s) { return s.kind; }},
      {"on", [](const Record&, const S& s) { return s.target.empty() ? std::string("host") : s.target; }},
      {"calls/query",
       [](const Record&, const S& s) {
         if (s.queries == 0) return std::string(kNoValue);
         if (s.min_calls == s.max_calls) return std::to_string(s.min_calls);
         return FormatNumber("%.2f", static_cast<double>(s.calls) / static_cast<double>(s.queries)) + " (" +
                std::to_string(s.min_calls) + "-" + std::to_string(s.max_calls) + ")";
       },
       true},
      {"p50 (ms)", [](const Record&, const S& s) { return StageMsCell(s.p50_ns); }, true},
      {"p90 (ms)", [](const Record&, const S& s) { return StageMsCell(s.p90_ns); }, true},
      {"p99 (ms)", [](const Record&, const S& s) { return StageMsCell(s.p99_ns); }, true},
      {"mean (ms)", [](const Record&, const S& s) { return s.queries ? StageMsOfCell(s.mean_ns) : std::string(kNoValue); }, true},
      {"share", [](const Record&, const S& s) { return FormatPercent(s.share, "%.1f"); }, true},
      {"host CPU (ms)",
       [](const Record&, const S& s) { return s.cpu_mean_ns ? StageMsOfCell(*s.cpu_mean_ns) : std::string(kNoValue); },
       true},
      {"first run (ms)", [](const Record&, const S& s) { return StageMsOfCell(static_cast<double>(s.first_run_ns)); }, true},
      // A diffusion's loop stages: a step's median, the first step's apart from the later ones.
      {"step p50 (ms)",
       [](const Record& r, const S& s) {
         const DiffusionStepRecord* steps = StepsOf(r, s);
         return steps ? StageMsCell(steps->p50_ns) : std::string(kNoValue);
       },
       true},
      {"first step p50 (ms)",
       [](const Record& r, const S& s) {
         const DiffusionStepRecord* steps = StepsOf(r, s);
         return steps ? StageMsCell(steps->first_p50_ns) : std::string(kNoValue);
       },
       true},
      {"later steps p50 (ms)",
       [](const Record& r, const S& s) {
         const DiffusionStepRecord* steps = StepsOf(r, s);
         return steps ? StageMsCell(steps->later_p50_ns) : std::string(kNoValue);
       },
       true},
      {"load RSS (MiB)",
       [](const Record&, const S& s) {
         return s.load_rss_bytes ? FormatNumber("%.1f", static_cast<double>(*s.load_rss_bytes) / 1048576.0)
                                 : std::string(kNoValue);
       },
       true},
      {"ran on (nodes)", [](const Record&, const S& s) { return s.ran_on.empty() ? std::string(kNoValue) : s.ran_on; }},
  };
}

}  // namespace

const std::vector<StageColumn>& PipelineStageColumns() {
  static const auto* const columns = new std::vector<StageColumn>(MakeColumns());
  return *columns;
}

}  // namespace edgebench
