#include "record/record_checks.h"

#include <string>
#include <vector>

namespace edgebench {
namespace {

Status Impossible(const Record& r, const std::string& what) {
  return Status::Error("record " + (r.id.empty() ? std::string("(no id)") : r.id) + " (" + r.model + " on " +
                       r.requested_target + "): " + what +
                       "; no machine measures that: the record was edited or corrupted, so it is not read");
}

// Every sample a duration of more than no time.
Status PositiveDurations(const Record& r, const std::vector<int64_t>& samples, const std::string& field) {
  for (size_t i = 0; i < samples.size(); ++i) {
    if (samples[i] <= 0) {
      return Impossible(r, field + "[" + std::to_string(i) + "] is " + std::to_string(samples[i]) +
                               " ns, a query that took no time or less");
    }
  }
  return Status::Ok();
}

Status NonNegative(const Record& r, int64_t value, const std::string& field) {
  if (value < 0) return Impossible(r, field + " is " + std::to_string(value) + ", below zero");
  return Status::Ok();
}

// Per-query series beside the latencies hold one entry per query, or none.
Status SameCount(const Record& r, size_t n, size_t latencies, const std::string& field) {
  if (n != 0 && n != latencies) {
    return Impossible(r, field + " has " + std::to_string(n) + " entries for " + std::to_string(latencies) +
                             " queries");
  }
  return Status::Ok();
}

Status CheckSamples(const Record& r) {
  for (const auto& [samples, name] : {std::pair{&r.warmup_ns, "samples.warmup.latency_ns"},
                                      std::pair{&r.measured_ns, "samples.measured.latency_ns"},
                                      std::pair{&r.measured_service_ns, "samples.measured.service_ns"}}) {
    if (Status s = PositiveDurations(r, *samples, name); !s.ok()) return s;
  }
  for (const auto& [issues, name] : {std::pair{&r.warmup_issue_ns, "samples.warmup.issue_ns"},
                                     std::pair{&r.measured_issue_ns, "samples.measured.issue_ns"}}) {
    for (size_t i = 0; i < issues->size(); ++i) {
      if (Status s = NonNegative(r, (*issues)[i], std::string(name) + "[" + std::to_string(i) + "]"); !s.ok()) {
        return s;
      }
    }
  }
  if (Status s = SameCount(r, r.warmup_issue_ns.size(), r.warmup_ns.size(), "samples.warmup.issue_ns"); !s.ok()) {
    return s;
  }
  const size_t measured = r.measured_ns.size();
  if (Status s = SameCount(r, r.measured_issue_ns.size(), measured, "samples.measured.issue_ns"); !s.ok()) return s;
  if (Status s = SameCount(r, r.measured_stream.size(), measured, "samples.measured.stream"); !s.ok()) return s;
  if (Status s = SameCount(r, r.measured_service_ns.size(), measured, "samples.measured.service_ns"); !s.ok()) {
    return s;
  }
  for (size_t i = 0; i < r.measured_stream.size(); ++i) {
    if (r.measured_stream[i] < 0) {
      return Impossible(r, "samples.measured.stream[" + std::to_string(i) + "] is " +
                               std::to_string(r.measured_stream[i]) + ", not a stream");
    }
  }
  if (r.measured_histograms && r.measured_histograms->count() > 0) {
    const int64_t shortest = r.measured_histograms->Total().min();
    if (shortest <= 0) {
      return Impossible(r, "samples.measured's histograms hold a query of " + std::to_string(shortest) + " ns");
    }
  }
  if (r.frames_delivered.size() != r.frames_dropped.size()) {
    return Impossible(r, "samples.frames_delivered has " + std::to_string(r.frames_delivered.size()) +
                             " streams and samples.frames_dropped " + std::to_string(r.frames_dropped.size()));
  }
  for (size_t i = 0; i < r.frames_delivered.size(); ++i) {
    if (r.frames_delivered[i] < 0 || r.frames_dropped[i] < 0 || r.frames_dropped[i] > r.frames_delivered[i]) {
      return Impossible(r, "stream " + std::to_string(i) + " dropped " + std::to_string(r.frames_dropped[i]) +
                               " of " + std::to_string(r.frames_delivered[i]) + " frames delivered");
    }
  }
  for (const auto& [value, name] : {std::pair{r.measured_wall_ns, "samples.measured_wall_ns"},
                                    std::pair{r.not_issued, "samples.not_issued"},
                                    std::pair{r.load_ns, "timings_ns.load"},
                                    std::pair{r.prepare_ns, "timings_ns.prepare"},
                                    std::pair{r.inputs_ns, "timings_ns.inputs"},
                                    std::pair{r.artifact_bytes, "config.artifact_bytes"}}) {
    if (Status s = NonNegative(r, value, name); !s.ok()) return s;
  }
  return Status::Ok();
}

Status CheckLlm(const Record& r) {
  if (!r.llm) return Status::Ok();
  for (const auto& [requests, phase] : {std::pair{&r.llm->warmup, "warmup"}, std::pair{&r.llm->measured, "measured"}}) {
    for (size_t i = 0; i < requests->size(); ++i) {
      const LlmRequestTiming& t = (*requests)[i];
      const std::string at = std::string("llm.") + phase + "[" + std::to_string(i) + "]";
      if (t.ttft_ns() <= 0) {
        return Impossible(r, at + "'s first token came " + std::to_string(t.ttft_ns()) + " ns after its start");
      }
      int64_t previous = t.first_token_ns;
      for (size_t k = 0; k < t.token_ns.size(); ++k) {
        if (t.token_ns[k] <= previous) {
          return Impossible(r, at + "'s token " + std::to_string(k + 2) + " came no later than the one before");
        }
        previous = t.token_ns[k];
      }
      if (Status s = NonNegative(r, t.prompt_tokens, at + ".prompt_tokens"); !s.ok()) return s;
    }
  }
  return Status::Ok();
}

Status CheckAccuracy(const Record& r) {
  if (!r.accuracy) return Status::Ok();
  const AccuracyRecord& a = *r.accuracy;
  const size_t n = a.labels.size();
  for (const auto& [size, name] : {std::pair{a.top1.size(), "top1"}, std::pair{a.in_top5.size(), "in_top5"},
                                   std::pair{a.preprocess_ns.size(), "preprocess_ns"},
                                   std::pair{a.inference_ns.size(), "inference_ns"}}) {
    if (size != n) {
      return Impossible(r, std::string("accuracy.") + name + " has " + std::to_string(size) + " entries for " +
                               std::to_string(n) + " labelled images");
    }
  }
  if (Status s = PositiveDurations(r, a.inference_ns, "accuracy.inference_ns"); !s.ok()) return s;
  for (size_t i = 0; i < a.preprocess_ns.size(); ++i) {
    if (Status s = NonNegative(r, a.preprocess_ns[i], "accuracy.preprocess_ns[" + std::to_string(i) + "]"); !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckPhysicallyPossible(const Record& r) {
  if (Status s = CheckSamples(r); !s.ok()) return s;
  if (Status s = CheckLlm(r); !s.ok()) return s;
  return CheckAccuracy(r);
}

}  // namespace edgebench
