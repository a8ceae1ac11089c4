#include "record/record_finish.h"

#include <algorithm>
#include <cstdio>

#include "core/strings.h"
#include "record/record_checks.h"
#include "record/emulated_device.h"
#include "record/record_roofline.h"
#include "record/record_sections.h"

namespace edgebench {

namespace {

// "12,345,678".
std::string WithThousands(int64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > (value < 0 ? 1 : 0); i -= 3) {
    digits.insert(static_cast<size_t>(i), ",");
  }
  return digits;
}

constexpr const char* kHistogramNote = "percentiles from histograms";
constexpr const char* kEarlyStoppingNote = "early stopping not evaluated";

// The notes a run past the raw-sample cap carries, derived like the summary: replaced, not
// added again, when a stored record is read and finished anew.
void AddHistogramNotes(Record& r) {
  std::erase_if(r.notes, [](const std::string& note) {
    return note.rfind(kHistogramNote, 0) == 0 || note.rfind(kEarlyStoppingNote, 0) == 0;
  });
  if (!r.measured_histograms) return;
  const std::string error = FormatPercent(r.measured_histograms->relative_error(), "%.3g");
  const std::string cap = r.measured_server
                              ? "the server's cap of " + WithThousands(r.measured_server->raw_sample_cap) + " queries"
                              : "--max-queries " + WithThousands(r.effective_settings.max_queries);
  r.notes.push_back(std::string(kHistogramNote) + ", within " + error + " (" +
                    WithThousands(r.measured_histograms->count()) + " queries exceeded the raw-sample cap, " + cap +
                    "): no raw sample is kept; count, min, max, mean and stddev are exact" +
                    (r.measured_server ? ", as are the achieved and offered rates, late queries and backlog" : ""));
  if (r.effective_settings.confidence > 0) {
    r.notes.push_back(std::string(kEarlyStoppingNote) + ": it needs the raw samples, which this run exceeded; " +
                      (r.measured_server ? "a server run keeps them up to its cap: run it shorter"
                                         : "raise --max-queries to keep them"));
  }
}

}  // namespace

void FinishRecordByRules(Record& r, const std::optional<ScenarioRules>& scenario) {
  if (r.measured_histograms) {
    r.summary = SummarizeHistogram(r.measured_histograms->Total(), r.measured_histograms->TotalMoments(),
                                   r.measured_wall_ns);
  } else {
    r.summary = Summarize(r.measured_ns, r.measured_wall_ns);
  }
  AddHistogramNotes(r);
  r.settling = ComputeSettling(r.warmup_ns, r.measured_ns);
  r.invalid_reasons.clear();
  const RecordSection* mode_section = ModeSectionOf(r);
  if (mode_section && mode_section->finish) mode_section->finish(r, scenario);
  if (r.llm) {
    LlmRecord& l = *r.llm;
    l.summary = SummarizeLlm(l.measured, l.prompt_tokens_run, l.settings);
    l.roofline = ComputeLlmRoofline(l.session, l.summary, l.settings, l.measured, l.prompt_tokens_run,
                                    r.machine_limits ? &*r.machine_limits : nullptr, r.machine_limits_missing,
                                    r.backend + ":" + r.device);
  }
  if (r.work && !r.llm) {
    // An emulated device (PoCL's OpenCL, lavapipe's Vulkan) is the CPU running the device's code:
    // its latencies are kept, but they are no device's share of any roof.
    if (const std::string emulated = EmulatedDeviceOf(r); !emulated.empty()) {
      r.tensor_roofline = {};
      r.tensor_roofline.omitted = "emulated device (" + emulated + "): its latencies are not a device's";
    } else {
      r.tensor_roofline = ComputeTensorRoofline(*r.work, r.summary, r.backend + ":" + r.device,
                                                TargetThreads(r.effective_target), &r.placement,
                                                r.machine_limits ? &*r.machine_limits : nullptr,
                                                r.machine_limits_missing);
    }
  }
  for (const RecordSection& section : RecordSections()) {
    if (!section.mode && section.finish) section.finish(r, scenario);
  }
  // Latency under queueing (server) and over a soak's drift is what those scenarios measure:
  // the coefficient of variation does not judge them. A load section is made (by its entry in
  // the section table) exactly for a tensor model's measured case with its scenario's rules.
  const bool judge_cv = !r.load || scenario->rules.judge_cv;
  if (r.status != CaseStatus::kOk) {
    r.invalid_reasons.push_back("case " + CaseStatusName(r.status) +
                                (r.failed_stage.empty() ? "" : " at " + r.failed_stage));
  } else if (mode_section) {
    if (mode_section->judge) mode_section->judge(r, scenario, r.invalid_reasons);
  } else if (r.llm) {
    if (r.llm->summary.requests < r.llm->settings.repetitions) {
      r.invalid_reasons.push_back(std::to_string(r.llm->summary.requests) + " of " +
                                  std::to_string(r.llm->settings.repetitions) + " requests measured");
    }
    if (r.environment.debug_build) r.invalid_reasons.push_back("debug build of edgebench");
    if (r.environment.sanitizers) r.invalid_reasons.push_back("sanitizer build of edgebench");
  } else {
    const RunSettings& s = r.effective_settings;
    if (r.summary.count < s.min_queries) {
      r.invalid_reasons.push_back("stopped at max_duration (" + std::to_string(s.max_duration_ms) +
                                  " ms) after " + std::to_string(r.summary.count) +
                                  " queries, fewer than min_queries " +
                                  std::to_string(s.min_queries));
    }
    if (judge_cv && r.summary.cv > s.max_cv) {
      char buffer[160];
      std::snprintf(buffer, sizeof buffer,
                    "latency too unstable: coefficient of variation %.3f exceeds max_cv %.3f",
                    r.summary.cv, s.max_cv);
      r.invalid_reasons.push_back(buffer);
    }
    if (r.environment.debug_build) r.invalid_reasons.push_back("debug build of edgebench");
    if (r.environment.sanitizers) r.invalid_reasons.push_back("sanitizer build of edgebench");
    if (r.placement.known && r.placement.nodes_by_device.count(r.device) == 0 &&
        !r.placement.nodes_by_device.empty()) {
      std::string ran;
      for (const auto& [device, nodes] : r.placement.nodes_by_device) {
        ran += (ran.empty() ? "" : ", ") + device + " (" + std::to_string(nodes) + " nodes)";
      }
      r.invalid_reasons.push_back("requested device '" + r.device +
                                  "' ran no node: everything fell back to " + ran);
    }
  }
  if (r.status == CaseStatus::kOk) {
    for (const RecordSection& section : RecordSections()) {
      if (!section.mode && section.judge) section.judge(r, scenario, r.invalid_reasons);
    }
  }
  r.valid = r.invalid_reasons.empty();
}

}  // namespace edgebench
