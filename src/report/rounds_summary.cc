#include "report/rounds_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "stats/significance.h"
#include "core/strings.h"

namespace edgebench {
namespace {

std::optional<double> RoundsMs(const std::optional<int64_t>& ns) {
  if (!ns) return std::nullopt;
  return static_cast<double>(*ns) * 1e-6;
}

// The two figures of a record, in ms: latency p50 and p99; a language model's TPOT p50 and
// TTFT p50.
std::pair<std::optional<double>, std::optional<double>> RoundValues(const Record& r) {
  if (r.llm) return {RoundsMs(r.llm->summary.tpot.Percentile(0.5)), RoundsMs(r.llm->summary.ttft.Percentile(0.5))};
  return {RoundsMs(r.summary.Percentile(0.5)), RoundsMs(r.summary.Percentile(0.99))};
}



void FinishMetric(RoundsMetric& m) {
  std::vector<double> v = m.values;
  if (v.empty()) return;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  m.median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  if (n < 2) return;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  if (mean > 0) m.spread = std::sqrt(ss / static_cast<double>(n - 1)) / mean;
  if (v.front() <= 0) return;
  double log_mean = 0;
  for (double x : v) log_mean += std::log(x);
  log_mean /= static_cast<double>(n);
  double log_ss = 0;
  for (double x : v) log_ss += (std::log(x) - log_mean) * (std::log(x) - log_mean);
  const double se = std::sqrt(log_ss / static_cast<double>(n - 1) / static_cast<double>(n));
  const double t = StudentTQuantile(0.05, static_cast<double>(n - 1));
  m.ci_low = std::exp(log_mean - t * se);
  m.ci_high = std::exp(log_mean + t * se);
}

}  // namespace

NeighbourVerdict JudgeRounds(const std::vector<double>& above, const std::vector<double>& below, double noise,
                             double alpha) {
  NeighbourVerdict v;
  const auto change = RunLevelRelativeChange(above, below);
  if (!change) {
    v.verdict = "not tested";
    v.note = "needs three VALID rounds or more in all, one a side, every value above 0";
    return v;
  }
  v.change = change->change.estimate;
  v.ci_low = change->change.low;
  v.ci_high = change->change.high;
  v.p = change->p;
  switch (JudgeChange(change->p, change->change, noise, /*higher_is_slower=*/true, alpha)) {
    case ChangeVerdict::kSlower: v.verdict = "slower"; break;
    case ChangeVerdict::kFaster: v.verdict = "faster"; break;
    case ChangeVerdict::kNoChange: v.verdict = kNotResolved; break;
  }
  return v;
}

std::string NeighbourVerdict::ChangeText() const {
  return FormatPercent(*change, "%+.1f") + " [" + FormatPercent(*ci_low, "%+.1f") + ", " + FormatPercent(*ci_high, "%+.1f") + "], p " +
         (*p < 0.001 ? std::string("<0.001") : FormatNumber("%.3f", *p));
}

RoundsMetric SummarizeRoundValues(const std::string& name, std::vector<double> values) {
  RoundsMetric m;
  m.name = name;
  m.values = std::move(values);
  FinishMetric(m);
  return m;
}

namespace {

// "10.4 [10.2, 10.6]" with 3 significant digits at least.
std::string MetricText(const RoundsMetric& m) {
  if (!m.median) return "-";
  const double magnitude = std::fabs(*m.median);
  const char* format = magnitude >= 100 ? "%.1f" : magnitude >= 10 ? "%.2f" : magnitude >= 1 ? "%.3f" : "%.4f";
  std::string text = FormatNumber(format, *m.median);
  if (m.ci_low && m.ci_high) text += " [" + FormatNumber(format, *m.ci_low) + ", " + FormatNumber(format, *m.ci_high) + "]";
  return text;
}

// The verdicts' rule, in words: printed under the table and shown in the report.
std::string RuleText(const RoundsSummary& summary) {
  return "a target is faster or slower than the one ranked above it when p < " + FormatNumber("%g", summary.alpha) +
         " and the whole 95% interval of the change lies outside +-" + FormatNumber("%g", summary.noise_threshold * 100) +
         "% (Student's t on the rounds' logarithms, as `edgebench compare` run by run); otherwise not resolved "
         "at this noise";
}

std::string Pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

}  // namespace

RoundsSummary SummarizeRounds(const std::vector<Record>& records, double noise_threshold, double alpha) {
  RoundsSummary summary;
  summary.noise_threshold = noise_threshold;
  summary.alpha = alpha;
  std::map<std::string, size_t> index;  // case key -> case
  for (const Record& r : records) {
    if (!r.round || r.round->rounds < 2) continue;
    auto [it, inserted] = index.emplace(r.case_key, summary.cases.size());
    if (inserted) {
      CaseRounds c;
      c.case_key = r.case_key;
      c.model = r.model;
      c.target = r.effective_target.empty() ? r.requested_target : r.effective_target;
      c.scenario = r.scenario;
      c.rounds = r.round->rounds;
      c.order = r.round->order;
      c.first.name = r.llm ? "tpot p50" : "p50";
      c.second.name = r.llm ? "ttft p50" : "p99";
      summary.cases.push_back(c);
    }
    CaseRounds& c = summary.cases[it->second];
    if (r.status != CaseStatus::kOk) continue;
    ++c.measured;
    if (!r.valid) continue;
    ++c.valid;
    const auto [first, second] = RoundValues(r);
    if (first) c.first.values.push_back(*first);
    if (second) c.second.values.push_back(*second);
  }
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;
  std::vector<std::pair<std::string, std::string>> group_order;
  for (size_t i = 0; i < summary.cases.size(); ++i) {
    CaseRounds& c = summary.cases[i];
    FinishMetric(c.first);
    FinishMetric(c.second);
    const auto key = std::make_pair(c.model, c.scenario);
    if (!groups.count(key)) group_order.push_back(key);
    groups[key].push_back(i);
  }
  for (const auto& key : group_order) {
    std::vector<size_t> members;
    for (size_t i : groups[key]) {
      if (summary.cases[i].first.median) members.push_back(i);
    }
    if (members.size() < 2) continue;
    std::stable_sort(members.begin(), members.end(), [&](size_t a, size_t b) {
      return *summary.cases[a].first.median < *summary.cases[b].first.median;
    });
    RoundsRanking ranking;
    ranking.model = key.first;
    ranking.scenario = key.second;
    ranking.metric = summary.cases[members.front()].first.name;
    ranking.cases = members;
    for (size_t i = 1; i < members.size(); ++i) {
      ranking.verdicts.push_back(JudgeRounds(summary.cases[members[i - 1]].first.values,
                                             summary.cases[members[i]].first.values, noise_threshold, alpha));
    }
    summary.rankings.push_back(std::move(ranking));
  }
  return summary;
}

std::string FormatRoundsSummary(const RoundsSummary& summary) {
  if (summary.cases.empty()) return "";
  const CaseRounds& any = summary.cases.front();
  std::string out = "rounds: " + std::to_string(any.rounds) + ", " + any.order +
                    "; each case's median over its VALID rounds with the 95% interval of their geometric mean "
                    "(Student's t on the rounds' logarithms) and the run-to-run spread (CV)\n";
  size_t model_width = 5, target_width = 6, scenario_width = 8;
  for (const CaseRounds& c : summary.cases) {
    model_width = std::max(model_width, c.model.size());
    target_width = std::max(target_width, c.target.size());
    scenario_width = std::max(scenario_width, c.scenario.size());
  }
  const bool llm = any.first.name != "p50";
  out += Pad("model", model_width + 2) + Pad("target", target_width + 2) + Pad("scenario", scenario_width + 2) +
         Pad("valid", 8) + Pad(llm ? "tpot p50 ms" : "p50 ms", 28) + Pad(llm ? "ttft p50 ms" : "p99 ms", 28) + "spread\n";
  for (const CaseRounds& c : summary.cases) {
    out += Pad(c.model, model_width + 2) + Pad(c.target, target_width + 2) + Pad(c.scenario, scenario_width + 2) +
           Pad(std::to_string(c.valid) + "/" + std::to_string(c.rounds), 8) + Pad(MetricText(c.first), 28) +
           Pad(MetricText(c.second), 28) + (c.first.spread ? FormatPercent(*c.first.spread, "%.1f") : "-") + "\n";
  }
  for (const RoundsRanking& ranking : summary.rankings) {
    out += "ranking of " + ranking.model + " (" + ranking.scenario + ") by median " + ranking.metric + ":\n";
    for (size_t i = 0; i < ranking.cases.size(); ++i) {
      const CaseRounds& c = summary.cases[ranking.cases[i]];
      out += "  " + std::to_string(i + 1) + ". " + c.target + "  " + MetricText(c.first) + " ms";
      if (i > 0) {
        const NeighbourVerdict& v = ranking.verdicts[i - 1];
        const std::string above = summary.cases[ranking.cases[i - 1]].target;
        if (v.verdict == "not tested") {
          out += ": not tested against " + above + " (" + v.note + ")";
        } else {
          out += ": " + (v.not_resolved() ? std::string("not separable from ") : v.verdict + " than ") + above +
                 " (" + v.ChangeText() + (v.not_resolved() ? std::string("; ") + kNotResolved : "") + ")";
        }
      }
      out += "\n";
    }
  }
  return out + "rule: " + RuleText(summary) + "\n";
}

namespace {

nlohmann::json OptionalJson(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

nlohmann::json MetricJson(const RoundsMetric& m) {
  return {{"name", m.name}, {"values", m.values}, {"median", OptionalJson(m.median)}, {"low", OptionalJson(m.ci_low)},
          {"high", OptionalJson(m.ci_high)}, {"spread", OptionalJson(m.spread)}};
}

}  // namespace

nlohmann::json RoundsSummaryJson(const RoundsSummary& summary) {
  if (summary.cases.empty()) return nullptr;
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseRounds& c : summary.cases) {
    cases.push_back({{"model", c.model}, {"target", c.target}, {"scenario", c.scenario}, {"rounds", c.rounds},
                     {"measured", c.measured}, {"valid", c.valid}, {"order", c.order},
                     {"first", MetricJson(c.first)}, {"second", MetricJson(c.second)}});
  }
  nlohmann::json rankings = nlohmann::json::array();
  for (const RoundsRanking& ranking : summary.rankings) {
    nlohmann::json entries = nlohmann::json::array();
    for (size_t i = 0; i < ranking.cases.size(); ++i) {
      const CaseRounds& c = summary.cases[ranking.cases[i]];
      nlohmann::json entry = {{"target", c.target}, {"median", OptionalJson(c.first.median)},
                              {"low", OptionalJson(c.first.ci_low)}, {"high", OptionalJson(c.first.ci_high)}};
      if (i > 0) {
        const NeighbourVerdict& v = ranking.verdicts[i - 1];
        entry["verdict"] = v.verdict;
        entry["against"] = summary.cases[ranking.cases[i - 1]].target;
        entry["change"] = OptionalJson(v.change);
        entry["change_low"] = OptionalJson(v.ci_low);
        entry["change_high"] = OptionalJson(v.ci_high);
        entry["p"] = OptionalJson(v.p);
        entry["note"] = v.note;
      }
      entries.push_back(std::move(entry));
    }
    rankings.push_back({{"model", ranking.model}, {"scenario", ranking.scenario}, {"metric", ranking.metric},
                        {"entries", entries}});
  }
  return {{"cases", cases}, {"rankings", rankings}, {"rule", RuleText(summary)}};
}

}  // namespace edgebench
