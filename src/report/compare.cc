#include "report/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "report/compare_memory.h"
#include "report/compare_pairing.h"
#include "metrics/metrics.h"
#include "stats/summary.h"
#include "load/case_kind.h"
#include "core/strings.h"
#include "record/emulated_device.h"
#include "record/record_json.h"

namespace edgebench {

std::string MetricVerdictName(MetricVerdict verdict) {
  switch (verdict) {
    case MetricVerdict::kFaster: return "faster";
    case MetricVerdict::kSlower: return "slower";
    case MetricVerdict::kNoChange: return "no change";
    case MetricVerdict::kNotTested: return "not tested";
  }
  return "not tested";
}

std::string CaseVerdictName(CaseVerdict verdict) {
  switch (verdict) {
    case CaseVerdict::kFaster: return "faster";
    case CaseVerdict::kSlower: return "slower";
    case CaseVerdict::kNoChange: return "no change";
    case CaseVerdict::kNotComparable: return "not comparable";
  }
  return "not comparable";
}

std::optional<double> MetricComparison::MinimumSlowdown() const {
  if (!ci_low || !ci_high) return std::nullopt;
  return higher_is_slower ? *ci_low : -*ci_high;
}

namespace {

UnmatchedCase Unmatched(const std::string& match, const Record& r) {
  return {match, r.model, r.effective_target.empty() ? r.requested_target : r.effective_target, r.scenario};
}

std::vector<double> AsDoubles(const std::vector<int64_t>& values) { return {values.begin(), values.end()}; }

// One tested metric: U test and bootstrap on both sides' values, judged by Criterion's rule.
MetricComparison Tested(const std::string& name, const std::string& unit, double scale, const std::vector<double>& base,
                        const std::vector<double>& candidate, const Statistic& statistic, bool higher_is_slower,
                        const MannWhitneyResult& test, const CompareOptions& options) {
  MetricComparison m;
  m.name = name;
  m.unit = unit;
  m.higher_is_slower = higher_is_slower;
  m.base = ComputeStatistic(base, statistic) * scale;
  m.candidate = ComputeStatistic(candidate, statistic) * scale;
  m.base_samples = static_cast<int64_t>(base.size());
  m.candidate_samples = static_cast<int64_t>(candidate.size());
  m.p_value = test.p;
  BootstrapOptions bootstrap;
  bootstrap.resamples = options.resamples;
  bootstrap.seed = options.seed;
  const auto change = BootstrapRelativeChange(base, candidate, statistic, bootstrap);
  if (!change) {
    m.note = "BASE's value is 0: no relative change";
    return m;
  }
  m.change = change->estimate;
  m.ci_low = change->low;
  m.ci_high = change->high;
  switch (JudgeChange(test.p, *change, options.noise_threshold, higher_is_slower, options.alpha)) {
    case ChangeVerdict::kFaster: m.verdict = MetricVerdict::kFaster; break;
    case ChangeVerdict::kSlower: m.verdict = MetricVerdict::kSlower; break;
    case ChangeVerdict::kNoChange: m.verdict = MetricVerdict::kNoChange; break;
  }
  if (!test.approximation_ok) {
    m.note = std::to_string(base.size()) + " and " + std::to_string(candidate.size()) +
             " samples: fewer than " + std::to_string(kMannWhitneyMinSamples) +
             " on a side, the U test's p is a rough approximation";
  }
  return m;
}

// A metric with values only: the change, no interval or test.
MetricComparison Untested(const std::string& name, const std::string& unit, double base, double candidate,
                          bool higher_is_slower, const std::string& note) {
  MetricComparison m;
  m.name = name;
  m.unit = unit;
  m.higher_is_slower = higher_is_slower;
  m.base = base;
  m.candidate = candidate;
  m.change = base != 0 ? candidate / base - 1 : 0;
  m.note = note;
  return m;
}

bool IsLoadScenario(const std::string& scenario) { return RulesOfScenario(scenario).compared_by_throughput; }

// The throughput a load record is compared by (metrics/metrics.h): offline's samples/s, a
// server's achieved rate, else queries/s.
const Metric& ThroughputMetricOf(const Record& r) {
  const char* name = RulesOfScenario(r.scenario).throughput ? "samples_per_s"
                     : r.load && r.load->server          ? "achieved_qps"
                                                         : "throughput_qps";
  return *FindMetric(name);
}

void AddLatencyMetrics(const Record& b, const Record& c, const CompareOptions& options, CaseComparison& out) {
  if (!b.measured_ns.empty() && !c.measured_ns.empty()) {
    const auto base = AsDoubles(b.measured_ns);
    const auto candidate = AsDoubles(c.measured_ns);
    const MannWhitneyResult test = MannWhitneyU(base, candidate);
    for (double fraction : {0.50, 0.99}) {
      const int64_t needed = SamplesNeededFor(fraction);
      if (static_cast<int64_t>(base.size()) < needed || static_cast<int64_t>(candidate.size()) < needed) {
        out.notes.push_back(PercentileName(fraction) + " not compared: it needs " + std::to_string(needed) +
                            " queries per side (" + std::to_string(base.size()) + " and " +
                            std::to_string(candidate.size()) + ")");
        continue;
      }
      MetricComparison m = Tested(PercentileName(fraction), "ms", 1e-6, base, candidate,
                                  Statistic::Percentile(fraction), true, test, options);
      m.primary = true;
      out.metrics.push_back(std::move(m));
    }
    return;
  }
  // Past the raw-sample cap only histograms are kept: the summaries are still worth showing.
  for (double fraction : {0.50, 0.99}) {
    const auto base = b.summary.Percentile(fraction);
    const auto candidate = c.summary.Percentile(fraction);
    if (!base || !candidate) continue;
    MetricComparison m = Untested(PercentileName(fraction), "ms", static_cast<double>(*base) * 1e-6,
                                  static_cast<double>(*candidate) * 1e-6, true,
                                  "no raw samples (a run past the raw-sample cap keeps histograms): summaries "
                                  "compared, no test or interval");
    m.primary = true;
    out.metrics.push_back(std::move(m));
  }
}

void AddThroughputMetric(const Record& b, const Record& c, const CompareOptions& options, CaseComparison& out) {
  if (!IsLoadScenario(b.scenario) || !b.load || !c.load) return;
  const Metric& metric = ThroughputMetricOf(b);
  const std::string unit = metric.name == std::string("samples_per_s") ? "samples/s" : "qps";
  const double base = metric.value(b).value_or(0);
  const double candidate = metric.value(c).value_or(0);
  auto full_windows = [](const LoadRecord& load) {
    std::vector<double> values;
    for (const LatencyWindow& w : load.windows) {
      if (!w.partial) values.push_back(w.throughput_qps);
    }
    return values;
  };
  const auto base_windows = full_windows(*b.load);
  const auto candidate_windows = full_windows(*c.load);
  constexpr size_t kMinWindows = 5;
  if (base_windows.size() < kMinWindows || candidate_windows.size() < kMinWindows) {
    out.metrics.push_back(Untested("throughput", unit, base, candidate, false,
                                   "fewer than 5 full windows (" + std::to_string(base_windows.size()) + " and " +
                                       std::to_string(candidate_windows.size()) +
                                       "): no interval or test; a longer --min-duration or a shorter "
                                       "--window gives more"));
    return;
  }
  MetricComparison m = Tested("throughput", unit, 1.0, base_windows, candidate_windows, Statistic::Mean(), false,
                              MannWhitneyU(base_windows, candidate_windows), options);
  // The values shown are the runs' own; the interval and test come from the windows.
  m.base = base;
  m.candidate = candidate;
  if (base != 0) m.change = candidate / base - 1;
  m.note = "interval and test over " + std::to_string(base_windows.size()) + " and " +
           std::to_string(candidate_windows.size()) + " windows' throughputs" +
           (m.note.empty() ? "" : "; " + m.note);
  out.metrics.push_back(std::move(m));
}

void AddLlmMetrics(const Record& b, const Record& c, const CompareOptions& options, CaseComparison& out) {
  if (!b.llm || !c.llm) return;
  std::vector<double> base_ttft;
  std::vector<double> candidate_ttft;
  std::vector<double> base_tpot;
  std::vector<double> candidate_tpot;
  for (const LlmRequestTiming& t : b.llm->measured) {
    base_ttft.push_back(static_cast<double>(t.ttft_ns()));
    if (const auto tpot = t.tpot_ns()) base_tpot.push_back(*tpot);
  }
  for (const LlmRequestTiming& t : c.llm->measured) {
    candidate_ttft.push_back(static_cast<double>(t.ttft_ns()));
    if (const auto tpot = t.tpot_ns()) candidate_tpot.push_back(*tpot);
  }
  if (!base_ttft.empty() && !candidate_ttft.empty()) {
    MetricComparison m = Tested("ttft p50", "ms", 1e-6, base_ttft, candidate_ttft, Statistic::Percentile(0.5), true,
                                MannWhitneyU(base_ttft, candidate_ttft), options);
    m.primary = true;
    out.metrics.push_back(std::move(m));
  }
  if (!base_tpot.empty() && !candidate_tpot.empty()) {
    MetricComparison m = Tested("tpot p50", "ms", 1e-6, base_tpot, candidate_tpot, Statistic::Percentile(0.5), true,
                                MannWhitneyU(base_tpot, candidate_tpot), options);
    m.primary = true;
    out.metrics.push_back(std::move(m));
  }
  // Vision-language requests: each stage per request, when both runs have them.
  using Stage = int64_t LlmVisionStages::*;
  for (const auto& [name, stage] : {std::pair<const char*, Stage>{"preprocess p50", &LlmVisionStages::preprocess_ns},
                                    {"encode p50", &LlmVisionStages::encode_ns},
                                    {"image prefill p50", &LlmVisionStages::image_prefill_ns},
                                    {"text prefill p50", &LlmVisionStages::text_prefill_ns}}) {
    std::vector<double> base_stage, candidate_stage;
    for (const LlmRequestTiming& t : b.llm->measured) {
      if (t.vision) base_stage.push_back(static_cast<double>((*t.vision).*stage));
    }
    for (const LlmRequestTiming& t : c.llm->measured) {
      if (t.vision) candidate_stage.push_back(static_cast<double>((*t.vision).*stage));
    }
    if (base_stage.empty() || candidate_stage.empty()) continue;
    out.metrics.push_back(Tested(name, "ms", 1e-6, base_stage, candidate_stage, Statistic::Percentile(0.5), true,
                                 MannWhitneyU(base_stage, candidate_stage), options));
  }
}

void AddEnergyMetric(const Record& b, const Record& c, CaseComparison& out) {
  if (!b.monitor || !c.monitor) return;
  const auto base = MetricValue("energy_mj_per_query", b);
  const auto candidate = MetricValue("energy_mj_per_query", c);
  if (!base || !candidate) return;
  out.metrics.push_back(Untested(CaseKindOf(b.scenario) == CaseKind::kLanguageModel ? "energy/request" : "energy/query", "mJ", *base, *candidate,
                                 true, "one energy reading per run: the change only, no interval or test"));
}

// Why the pair's machines or runtimes differ, each difference a line.
std::vector<std::string> EnvironmentDifferences(const Environment& b, const Environment& c) {
  std::vector<std::string> differences;
  auto differ = [&](const std::string& what, const std::string& x, const std::string& y) {
    if (x != y) differences.push_back(what + " '" + x + "' vs '" + y + "'");
  };
  differ("host", HostName(b), HostName(c));
  differ("CPU", b.cpu_model, c.cpu_model);
  differ("logical cores", std::to_string(b.logical_cores), std::to_string(c.logical_cores));
  differ("memory", std::to_string(b.memory_total_bytes), std::to_string(c.memory_total_bytes));
  return differences;
}

std::string JoinNonEmptyPrefix(const std::vector<std::string>& parts, const std::string& separator) {
  std::string joined;
  for (const std::string& p : parts) joined += (joined.empty() ? "" : separator) + p;
  return joined;
}

}  // namespace

namespace {

// The case's verdict from its metrics': slower when one is, faster when one is and none slower.
void JudgeCase(CaseComparison& out) {
  bool slower = false;
  bool faster = false;
  for (const MetricComparison& m : out.metrics) {
    slower = slower || m.verdict == MetricVerdict::kSlower;
    faster = faster || m.verdict == MetricVerdict::kFaster;
  }
  if (slower && faster) out.notes.push_back("some metrics faster, others slower: judged slower");
  out.verdict = slower ? CaseVerdict::kSlower : faster ? CaseVerdict::kFaster : CaseVerdict::kNoChange;
}

std::vector<const Record*> MeasuredRuns(const std::vector<const Record*>& group) {
  std::vector<const Record*> runs;
  for (const Record* r : group) {
    if (r->status == CaseStatus::kOk) runs.push_back(r);
  }
  return runs;
}

double GeometricMean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += std::log(v);
  return std::exp(sum / static_cast<double>(values.size()));
}

// One metric run by run: each run's value an observation (stats RunLevelRelativeChange).
std::optional<MetricComparison> RunLevel(const std::string& name, const std::string& unit,
                                         const std::vector<double>& base, const std::vector<double>& candidate,
                                         bool higher_is_slower, const CompareOptions& options) {
  const auto change = RunLevelRelativeChange(base, candidate);
  if (!change) return std::nullopt;
  MetricComparison m;
  m.name = name;
  m.unit = unit;
  m.higher_is_slower = higher_is_slower;
  m.base = GeometricMean(base);
  m.candidate = GeometricMean(candidate);
  m.change = change->change.estimate;
  m.ci_low = change->change.low;
  m.ci_high = change->change.high;
  m.p_value = change->p;
  m.base_samples = static_cast<int64_t>(base.size());
  m.candidate_samples = static_cast<int64_t>(candidate.size());
  switch (JudgeChange(change->p, change->change, options.noise_threshold, higher_is_slower, options.alpha)) {
    case ChangeVerdict::kFaster: m.verdict = MetricVerdict::kFaster; break;
    case ChangeVerdict::kSlower: m.verdict = MetricVerdict::kSlower; break;
    case ChangeVerdict::kNoChange: m.verdict = MetricVerdict::kNoChange; break;
  }
  const std::string spread = FormatPercent(change->run_to_run_cv, "%.1f");
  m.note = "run level: " + std::to_string(base.size()) + " BASE and " + std::to_string(candidate.size()) +
           " NEW runs, each run's " + name + " one observation (Student's t on their logarithms); run-to-run "
           "spread " + spread;
  return m;
}

// With three runs or more of a case in the two stores together, p50, p99 and a load scenario's
// throughput are compared run by run, replacing the query-level comparison of the last runs:
// queries within one run do not show what changes from one run to the next. Returns whether it
// did.
bool UseRunLevel(const std::vector<const Record*>& base_runs, const std::vector<const Record*>& candidate_runs,
                 const CompareOptions& options, CaseComparison& out) {
  if (base_runs.empty() || candidate_runs.empty() || base_runs.size() + candidate_runs.size() < 3) return false;
  std::vector<MetricComparison> replaced;
  auto values = [](const std::vector<const Record*>& runs, auto value_of) {
    std::vector<double> values;
    for (const Record* r : runs) {
      if (const std::optional<double> v = value_of(*r)) values.push_back(*v);
    }
    return values;
  };
  const std::string scenario = base_runs.front()->scenario;
  if (CaseKindOf(scenario) != CaseKind::kLanguageModel) {
    for (double fraction : {0.50, 0.99}) {
      auto percentile = [fraction](const Record& r) -> std::optional<double> {
        const auto v = r.summary.Percentile(fraction);
        if (!v) return std::nullopt;
        return static_cast<double>(*v) * 1e-6;
      };
      if (auto m = RunLevel(PercentileName(fraction), "ms", values(base_runs, percentile),
                            values(candidate_runs, percentile), true, options)) {
        m->primary = true;
        replaced.push_back(std::move(*m));
      }
    }
  }
  if (IsLoadScenario(scenario)) {
    const bool offline = RulesOfScenario(scenario).throughput;
    auto throughput = [](const Record& r) -> std::optional<double> {
      return r.load ? ThroughputMetricOf(r).value(r) : std::nullopt;
    };
    if (auto m = RunLevel("throughput", offline ? "samples/s" : "qps", values(base_runs, throughput),
                          values(candidate_runs, throughput), false, options)) {
      replaced.push_back(std::move(*m));
    }
  }
  if (replaced.empty()) return false;
  std::vector<MetricComparison> kept;
  for (MetricComparison& m : out.metrics) {
    const bool superseded = std::any_of(replaced.begin(), replaced.end(),
                                        [&](const MetricComparison& r) { return r.name == m.name; });
    if (!superseded) kept.push_back(std::move(m));
  }
  replaced.insert(replaced.end(), std::make_move_iterator(kept.begin()), std::make_move_iterator(kept.end()));
  out.metrics = std::move(replaced);
  // Notes about the last runs' query counts no longer apply to what was compared.
  out.notes.erase(std::remove_if(out.notes.begin(), out.notes.end(),
                                 [](const std::string& n) { return n.find(" not compared: it needs ") != std::string::npos; }),
                  out.notes.end());
  JudgeCase(out);
  return true;
}

}  // namespace

CaseComparison CompareCase(const Record& b, const Record& c, const CompareOptions& options) {
  CaseComparison out;
  out.model = b.model;
  out.target = b.effective_target.empty() ? b.requested_target : b.effective_target;
  out.scenario = b.scenario;
  out.base = {b.id, b.case_key, b.effective_target, CaseStatusName(b.status), b.valid};
  out.candidate = {c.id, c.case_key, c.effective_target, CaseStatusName(c.status), c.valid};
  std::vector<std::string> reasons;
  if (b.status != CaseStatus::kOk) reasons.push_back("BASE's record is " + CaseStatusName(b.status) + ": " + b.error);
  if (c.status != CaseStatus::kOk) reasons.push_back("NEW's record is " + CaseStatusName(c.status) + ": " + c.error);
  // A record its own verdict rejected (too noisy, a busy machine, ...) still measured something,
  // and a regression in the tail can be what made it INVALID; it is compared, and said so first.
  for (const auto& [side, r] : {std::pair<const char*, const Record*>{"BASE", &b}, {"NEW", &c}}) {
    if (r->status == CaseStatus::kOk && !r->valid) {
      out.notes.insert(out.notes.begin(),
                       std::string(side) + "'s record is INVALID (" +
                           (r->invalid_reasons.empty() ? std::string("no reason recorded")
                                                       : JoinNonEmptyPrefix(r->invalid_reasons, "; ")) +
                           "): the verdict is on numbers its own check did not trust");
    }
  }
  // An emulated device (lavapipe, PoCL) is this machine's CPU running the device's code: set
  // against hardware, or against the CPU it emulates on, its latencies say nothing of a device.
  const std::string b_emulated = EmulatedDeviceOf(b), c_emulated = EmulatedDeviceOf(c);
  if (b_emulated != c_emulated) {
    const auto said = [](const char* side, const std::string& emulated, const std::string& other) {
      return std::string(side) + " ran on an emulated device (" + emulated +
             "): its latencies are this machine's CPU running the device's code, not a device's; the verdict "
             "sets an emulation against " +
             (other.empty() ? std::string("hardware") : "another emulation (" + other + ")");
    };
    if (!c_emulated.empty()) out.notes.insert(out.notes.begin(), said("NEW", c_emulated, b_emulated));
    if (!b_emulated.empty()) out.notes.insert(out.notes.begin(), said("BASE", b_emulated, c_emulated));
  }
  const auto machine = EnvironmentDifferences(b.environment, c.environment);
  if (!machine.empty()) {
    const std::string line = "different environment: " + JoinNonEmptyPrefix(machine, ", ");
    if (options.ignore_environment) {
      out.notes.push_back(line + " (--ignore-environment)");
    } else {
      reasons.push_back(line + "; --ignore-environment compares them anyway");
    }
  }
  auto runtime_of = [](const Record& r) {
    const auto it = r.environment.runtimes.find(r.backend);
    return it == r.environment.runtimes.end() ? std::string("unknown") : it->second;
  };
  if (runtime_of(b) != runtime_of(c) || b.backend != c.backend) {
    const std::string line = "different runtime version: " + b.backend + " " + runtime_of(b) + " vs " + c.backend +
                             " " + runtime_of(c);
    if (options.ignore_runtime_version) {
      out.notes.push_back(line + " (--ignore-runtime-version)");
    } else {
      reasons.push_back(line + "; --ignore-runtime-version compares them anyway");
    }
  }
  if (b.environment.edgebench_version != c.environment.edgebench_version ||
      b.environment.edgebench_commit != c.environment.edgebench_commit) {
    out.notes.push_back("measured by different edgebench builds: " + b.environment.edgebench_version + " (" +
                        b.environment.edgebench_commit + ") vs " + c.environment.edgebench_version + " (" +
                        c.environment.edgebench_commit + ")");
  }
  if (b.case_key != c.case_key) {
    // Paired by --by: say what differs, since the case key covered it.
    if (b.effective_target != c.effective_target) {
      out.notes.push_back("targets differ: " + b.effective_target + " vs " + c.effective_target);
    }
    const nlohmann::json bs = RunSettingsToJson(b.effective_settings);
    const nlohmann::json cs = RunSettingsToJson(c.effective_settings);
    std::vector<std::string> settings;
    for (const auto& [key, value] : bs.items()) {
      if (!cs.contains(key) || cs[key] != value) settings.push_back(key);
    }
    if (!settings.empty()) out.notes.push_back("settings differ: " + JoinNonEmptyPrefix(settings, ", "));
    if (b.artifact_sha256 != c.artifact_sha256) out.notes.push_back("artifacts differ (sha256)");
  }
  if (!reasons.empty()) {
    out.verdict = CaseVerdict::kNotComparable;
    out.reason = JoinNonEmptyPrefix(reasons, "; ");
    return out;
  }
  if (CaseKindOf(b.scenario) != CaseKind::kLanguageModel) AddLatencyMetrics(b, c, options, out);
  AddThroughputMetric(b, c, options, out);
  AddLlmMetrics(b, c, options, out);
  AddEnergyMetric(b, c, out);
  // Memory: one reading per run, judged by its own rule (report/compare_memory.h).
  for (const MemoryChange& change : CompareMemory(b, c)) {
    MetricComparison m = Untested(change.name, change.unit, change.base, change.candidate, true, change.note);
    m.change = change.change;
    m.verdict = change.direction > 0   ? MetricVerdict::kSlower
                : change.direction < 0 ? MetricVerdict::kFaster
                                       : MetricVerdict::kNoChange;
    out.metrics.push_back(m);
  }
  if (out.metrics.empty()) {
    out.verdict = CaseVerdict::kNotComparable;
    out.reason = "nothing to compare: no latency, throughput, TTFT/TPOT or energy in both records (scenario " +
                 b.scenario + ")";
    return out;
  }
  JudgeCase(out);
  return out;
}

std::string SignedPercent(double fraction, bool sign) {
  return FormatPercent(fraction, sign ? "%+.2f" : "%.2f");
}

Result<Comparison> CompareRecords(const std::vector<Record>& base, const std::vector<Record>& candidate,
                                  const CompareOptions& options) {
  Comparison comparison;
  comparison.noise_threshold = options.noise_threshold;
  const bool by_host = HoldsSeveralHosts(base) || HoldsSeveralHosts(candidate);
  comparison.match_rule = options.match_by.empty() ? (by_host ? "case key and host" : "case key")
                                                   : JoinNonEmptyPrefix(options.match_by, ", ") + (by_host ? ", host" : "");
  const CaseGroups base_groups = GroupCases(base, options.match_by, by_host);
  const CaseGroups candidate_groups = GroupCases(candidate, options.match_by, by_host);
  for (const std::string& key : base_groups.order) {
    const auto& group = base_groups.records.at(key);
    const auto other = candidate_groups.records.find(key);
    if (other == candidate_groups.records.end()) {
      comparison.only_base.push_back(Unmatched(key, *group.back()));
      comparison.only_base.back().measured = !MeasuredRuns(group).empty();
      continue;
    }
    std::vector<std::string> notes;
    std::string ambiguous_base;
    std::string ambiguous_candidate;
    const Record* b = PickCompared(group, "BASE", notes, ambiguous_base);
    const Record* c = PickCompared(other->second, "NEW", notes, ambiguous_candidate);
    CaseComparison compared = CompareCase(*b, *c, options);
    compared.match = key;
    const bool ambiguous = !ambiguous_base.empty() || !ambiguous_candidate.empty();
    if (!ambiguous && compared.verdict != CaseVerdict::kNotComparable &&
        UseRunLevel(MeasuredRuns(group), MeasuredRuns(other->second), options, compared)) {
      ++comparison.run_level_cases;
      notes.push_back("p50 and p99 (and throughput) compared run by run over every measured record; the other "
                      "metrics between the last ones");
    } else if (!ambiguous && compared.verdict != CaseVerdict::kNotComparable) {
      ++comparison.single_run_cases;
    }
    compared.notes.insert(compared.notes.begin(), notes.begin(), notes.end());
    if (ambiguous) {
      compared.verdict = CaseVerdict::kNotComparable;
      compared.metrics.clear();
      std::vector<std::string> reasons;
      for (const std::string* why : {&ambiguous_base, &ambiguous_candidate}) {
        if (!why->empty()) reasons.push_back(*why);
      }
      compared.reason = JoinNonEmptyPrefix(reasons, "; ");
    }
    comparison.cases.push_back(std::move(compared));
  }
  for (const std::string& key : candidate_groups.order) {
    if (!base_groups.records.count(key)) {
      comparison.only_candidate.push_back(Unmatched(key, *candidate_groups.records.at(key).back()));
    }
  }
  if (comparison.cases.empty()) {
    const std::string by = options.match_by.empty()
                               ? "case keys, which cover the model (its artifact's hash), the target with its "
                                 "options, the scenario and its settings"
                               : "--by " + comparison.match_rule;
    return Status::Error("no case in both stores: BASE has " + std::to_string(base_groups.order.size()) +
                         " cases, NEW has " + std::to_string(candidate_groups.order.size()) +
                         ", none matching by " + by +
                         ". To pair runs whose settings differ on purpose, pass --by, e.g. --by "
                         "model,backend,device,scenario");
  }
  return comparison;
}

std::string Comparison::SummaryLine() const {
  std::map<CaseVerdict, int> counts;
  // Cases neither store measured (skipped, unavailable or failed on both sides: a suite's cross
  // product plans many) are counted apart from pairs that measured and cannot be compared.
  int measured_by_neither = 0;
  for (const CaseComparison& c : cases) {
    const std::string ok = CaseStatusName(CaseStatus::kOk);
    if (c.verdict == CaseVerdict::kNotComparable && c.base.status != ok && c.candidate.status != ok) {
      ++measured_by_neither;
    } else {
      ++counts[c.verdict];
    }
  }
  std::vector<std::string> parts;
  for (CaseVerdict v : {CaseVerdict::kSlower, CaseVerdict::kFaster, CaseVerdict::kNoChange,
                        CaseVerdict::kNotComparable}) {
    if (counts[v]) parts.push_back(std::to_string(counts[v]) + " " + CaseVerdictName(v));
  }
  if (measured_by_neither) parts.push_back(std::to_string(measured_by_neither) + " measured by neither");
  if (!only_base.empty()) parts.push_back(std::to_string(only_base.size()) + " only in BASE");
  if (!only_candidate.empty()) parts.push_back(std::to_string(only_candidate.size()) + " only in NEW");
  return JoinNonEmptyPrefix(parts, ", ");
}

std::string IntervalText(const MetricComparison& m) {
  if (!m.ci_low || !m.ci_high) return "-";
  const std::string interval = "[" + SignedPercent(*m.ci_low) + ", " + SignedPercent(*m.ci_high) + "]";
  // Wider than 200 points: the samples are too few or vary too much for the interval to say
  // how large the change is (one was [-100%, +13,579,885%]); said, not left to the reader.
  if (*m.ci_high - *m.ci_low > 2.0) return interval + " too wide to size the change (few or noisy samples)";
  return interval;
}

namespace {

std::string Number(double value, const std::string& unit) {
  char text[48];
  if (unit == "ms") {
    std::snprintf(text, sizeof text, "%.3f ms", value);
  } else if (unit == "mJ") {
    std::snprintf(text, sizeof text, "%.3g mJ", value);
  } else {
    std::snprintf(text, sizeof text, "%.1f %s", value, unit.c_str());
  }
  return text;
}

std::string PValue(const std::optional<double>& p) {
  if (!p) return "-";
  char text[32];
  if (*p == 0) return "<1e-300";  // below the smallest double the normal tail gives
  if (*p < 1e-4) {
    std::snprintf(text, sizeof text, "%.0e", *p);
  } else {
    std::snprintf(text, sizeof text, "%.4f", *p);
  }
  return text;
}


using CompareRow = std::vector<std::string>;

std::vector<CompareRow> TableRows(const Comparison& comparison) {
  std::vector<CompareRow> rows;
  for (const CaseComparison& c : comparison.cases) {
    if (c.verdict == CaseVerdict::kNotComparable && c.metrics.empty()) {
      rows.push_back({c.model, c.target, c.scenario, "-", "-", "-", "-", "-", "-", CaseVerdictName(c.verdict)});
      continue;
    }
    for (const MetricComparison& m : c.metrics) {
      // A verdict on an INVALID record is marked where it is read, not only in the notes.
      const bool invalid = !c.base.valid || !c.candidate.valid;
      rows.push_back({c.model, c.target, c.scenario, m.name, Number(m.base, m.unit), Number(m.candidate, m.unit),
                      SignedPercent(m.change), IntervalText(m), PValue(m.p_value),
                      MetricVerdictName(m.verdict) + (invalid ? " (INVALID record)" : "")});
    }
  }
  return rows;
}

const CompareRow kHeader = {"model", "target", "scenario", "metric", "base", "new", "change", "95% CI", "p", "verdict"};

// Notes and reasons under the table, one line each, naming the case.
std::vector<std::string> NoteLines(const Comparison& comparison) {
  std::vector<std::string> lines;
  for (const CaseComparison& c : comparison.cases) {
    const std::string name = c.model + " on " + c.target + " (" + c.scenario + ")";
    if (!c.reason.empty()) lines.push_back(name + ": not comparable: " + c.reason);
    for (const std::string& note : c.notes) lines.push_back(name + ": " + note);
    for (const MetricComparison& m : c.metrics) {
      if (!m.note.empty()) lines.push_back(name + ", " + m.name + ": " + m.note);
    }
  }
  for (const UnmatchedCase& u : comparison.only_base) {
    lines.push_back("only in BASE: " + u.model + " on " + u.target + " (" + u.scenario + ")");
  }
  for (const UnmatchedCase& u : comparison.only_candidate) {
    lines.push_back("only in NEW: " + u.model + " on " + u.target + " (" + u.scenario + ")");
  }
  return lines;
}

std::string RuleLine(const Comparison& comparison) {
  std::string line =
      "rule: slower/faster when p < 0.05 and the whole 95% interval of the change lies outside +-" +
      SignedPercent(comparison.noise_threshold, false) +
      " (the noise threshold); one run a side: a Mann-Whitney U test on the queries and a bootstrap interval; "
      "three runs or more in all: Student's t on the runs' values; cases paired by " +
      comparison.match_rule;
  if (comparison.single_run_cases > 0) {
    line += "\ncaution: " + std::to_string(comparison.single_run_cases) +
            " case(s) had one run a side: their test sees how queries of one run vary, not how runs vary, "
            "which on a shared or heating machine can be far more; measure each store twice or more (run the "
            "suite again into the same store) to compare run by run";
  }
  return line;
}

}  // namespace

std::string ComparisonText(const Comparison& comparison) {
  std::vector<CompareRow> rows = TableRows(comparison);
  rows.insert(rows.begin(), kHeader);
  std::vector<size_t> widths(kHeader.size(), 0);
  for (const CompareRow& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::ostringstream out;
  for (const CompareRow& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    out << line << "\n";
  }
  const auto notes = NoteLines(comparison);
  if (!notes.empty()) out << "\n";
  for (const std::string& line : notes) out << line << "\n";
  out << "\n" << comparison.SummaryLine() << "\n" << RuleLine(comparison) << "\n";
  return out.str();
}

std::string ComparisonMarkdown(const Comparison& comparison) {
  std::ostringstream out;
  out << "**edgebench compare: " << comparison.SummaryLine() << "**\n\n";
  auto cell = [](std::string text) {
    for (size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) text.replace(at, 1, "\\|");
    return text;
  };
  const std::vector<CompareRow> rows = TableRows(comparison);
  out << "|";
  for (const std::string& h : kHeader) out << " " << h << " |";
  out << "\n|";
  for (size_t i = 0; i < kHeader.size(); ++i) out << (i >= 4 && i <= 8 ? " ---: |" : " --- |");
  out << "\n";
  for (const CompareRow& row : rows) {
    out << "|";
    for (size_t i = 0; i < row.size(); ++i) {
      // The verdict word in bold; a marker after it ("(INVALID record)") stays plain.
      const bool last = i + 1 == row.size();
      const std::string word = last ? row[i].substr(0, row[i].find(' ')) : std::string();
      if (last && (word == "slower" || word == "faster")) {
        out << " **" << word << "**" << cell(row[i].substr(word.size())) << " |";
      } else {
        out << " " << cell(row[i]) << " |";
      }
    }
    out << "\n";
  }
  const auto notes = NoteLines(comparison);
  if (!notes.empty()) out << "\n";
  for (const std::string& line : notes) out << "- " << cell(line) << "\n";
  out << "\n" << RuleLine(comparison) << " (`edgebench compare`, docs/compare.md).\n";
  return out.str();
}

nlohmann::json ComparisonToJson(const Comparison& comparison) {
  auto optional = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseComparison& c : comparison.cases) {
    nlohmann::json metrics = nlohmann::json::array();
    for (const MetricComparison& m : c.metrics) {
      metrics.push_back({{"metric", m.name},
                         {"unit", m.unit},
                         {"higher_is_slower", m.higher_is_slower},
                         {"primary", m.primary},
                         {"base", m.base},
                         {"new", m.candidate},
                         {"change", m.change},
                         {"ci_low", optional(m.ci_low)},
                         {"ci_high", optional(m.ci_high)},
                         {"p", optional(m.p_value)},
                         {"base_samples", m.base_samples},
                         {"new_samples", m.candidate_samples},
                         {"verdict", MetricVerdictName(m.verdict)},
                         {"note", m.note}});
    }
    auto side = [](const CompareSide& s) {
      return nlohmann::json{{"record_id", s.record_id}, {"case_key", s.case_key}, {"target", s.target},
                            {"status", s.status}, {"valid", s.valid}};
    };
    cases.push_back({{"match", c.match},
                     {"model", c.model},
                     {"target", c.target},
                     {"scenario", c.scenario},
                     {"base", side(c.base)},
                     {"new", side(c.candidate)},
                     {"verdict", CaseVerdictName(c.verdict)},
                     {"reason", c.reason},
                     {"notes", c.notes},
                     {"metrics", metrics}});
  }
  auto unmatched = [](const std::vector<UnmatchedCase>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const UnmatchedCase& u : list) {
      out.push_back({{"match", u.match}, {"model", u.model}, {"target", u.target}, {"scenario", u.scenario}});
    }
    return out;
  };
  return {{"summary", comparison.SummaryLine()},
          {"noise_threshold", comparison.noise_threshold},
          {"matched_by", comparison.match_rule},
          {"run_level_cases", comparison.run_level_cases},
          {"single_run_cases", comparison.single_run_cases},
          {"cases", cases},
          {"only_in_base", unmatched(comparison.only_base)},
          {"only_in_new", unmatched(comparison.only_candidate)}};
}

}  // namespace edgebench
