#include "record/energy_phases.h"

#include "record/energy_integral.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace edgebench {
namespace {

// The smallest positive step a counter took over the series, in its unit: its resolution as
// seen (a RAPL counter reads in uJ and steps by about 15.3 uJ, 2^-16 J, or more).
std::optional<double> SmallestStep(const MonitorSeries& s, size_t c) {
  std::optional<double> smallest, previous;
  for (const auto& v : s.values[c]) {
    if (!v) continue;
    if (previous && *v > *previous && (!smallest || *v - *previous < *smallest)) smallest = *v - *previous;
    previous = v;
  }
  return smallest;
}

std::string SensorText(const MonitorSeries& s, size_t c) {
  const Channel& ch = s.channels[c];
  std::string text = ch.id + " (" + (ch.source.empty() ? ch.reader : ch.source) + ", ";
  if (ch.kind == ChannelKind::kEnergy) {
    text += "an energy counter read in uJ";
    if (const auto step = SmallestStep(s, c)) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, ", smallest step seen %.4g uJ", *step);
      text += buffer;
    }
  } else {
    text += "a power reading in uW, integrated by the trapezoid rule";
  }
  return text + ")";
}

std::optional<std::pair<int64_t, int64_t>> IdleWindow(const MonitorSeries& s) {
  std::optional<int64_t> start, end;
  for (const MonitorMark& m : s.marks) {
    if (m.name != "idle") continue;
    if (m.event == "start") start = m.t_ns;
    if (m.event == "end") end = m.t_ns;
  }
  if (!start || !end || *end <= *start) return std::nullopt;
  return std::make_pair(*start, *end);
}

void DeriveIdle(const MonitorSeries& s, const MonitorContext& ctx, EnergyResult& e) {
  const auto window = IdleWindow(s);
  if (!window) return;  // --idle not given
  e.idle_ns = window->second - window->first;
  std::string why;
  const auto idle_uj = DeviceTotalEnergyUj(s, window->first, window->second, &why);
  if (!idle_uj) {
    e.idle_reason = "no idle power: " + (e.reason.empty() ? why : e.reason);
    return;
  }
  e.idle_power_mw = *idle_uj / 1000.0 / (static_cast<double>(e.idle_ns) / 1e9);
  if (!e.energy_mj) {
    e.idle_reason = "no energy above idle: " + e.reason;
    return;
  }
  e.above_idle_mj = *e.energy_mj - *e.idle_power_mw * static_cast<double>(ctx.measured_wall_ns) / 1e9;
  if (ctx.queries > 0) e.above_idle_per_query_mj = *e.above_idle_mj / static_cast<double>(ctx.queries);
  if (ctx.tokens && *ctx.tokens > 0) e.above_idle_per_token_mj = *e.above_idle_mj / static_cast<double>(*ctx.tokens);
}

void DeriveSplit(const MonitorSeries& s, const MonitorContext& ctx, EnergyResult& e) {
  if (ctx.llm_phases.empty()) return;
  std::vector<MonitorContext::LlmPhase> phases = ctx.llm_phases;
  std::sort(phases.begin(), phases.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
  for (size_t i = 1; i < phases.size(); ++i) {
    if (phases[i].start_ns < phases[i - 1].end_ns) {
      e.split_reason = "requests overlap (concurrency, sequences or a rate above 1): their prefills and decodes run "
                       "at once, and the device's energy cannot be told apart between them";
      return;
    }
  }
  double prefill_uj = 0, decode_uj = 0;
  int64_t prompt_tokens = 0, decoded_tokens = 0;
  for (const auto& p : phases) {
    std::string why;
    const auto prefill = DeviceTotalEnergyUj(s, p.start_ns, p.first_token_ns, &why);
    const auto decode = p.end_ns > p.first_token_ns ? DeviceTotalEnergyUj(s, p.first_token_ns, p.end_ns, &why)
                                                    : std::optional<double>(0.0);
    if (!prefill || !decode) {
      e.split_reason = "no prefill/decode split: " + (e.reason.empty() ? why : e.reason);
      return;
    }
    prefill_uj += *prefill;
    decode_uj += *decode;
    prompt_tokens += p.prompt_tokens;
    decoded_tokens += p.decoded_tokens;
  }
  e.prefill_mj = prefill_uj / 1000.0;
  e.decode_mj = decode_uj / 1000.0;
  if (prompt_tokens > 0) e.prefill_per_token_mj = *e.prefill_mj / static_cast<double>(prompt_tokens);
  if (decoded_tokens > 0) e.decode_per_token_mj = *e.decode_mj / static_cast<double>(decoded_tokens);
}

}  // namespace

void DeriveEnergyPhases(const MonitorSeries& s, const MonitorContext& ctx, EnergyResult& e) {
  e.sample_hz = s.effective_hz;
  for (size_t c = 0; c < s.channels.size(); ++c) {
    const ChannelKind kind = s.channels[c].kind;
    if (kind == ChannelKind::kEnergy || kind == ChannelKind::kPower) e.sensors.push_back(SensorText(s, c));
  }
  DeriveIdle(s, ctx, e);
  DeriveSplit(s, ctx, e);
}

}  // namespace edgebench
