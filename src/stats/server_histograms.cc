#include "stats/server_histograms.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace edgebench {
namespace {

using nlohmann::json;

Status InvalidServerTotals(const std::string& what) {
  return Status::Error("server totals JSON ('server' in samples.measured): " + what +
                       " (was it written by edgebench, and not edited?)");
}

json DistributionToJson(const LatencyHistogram& histogram, const LatencyMoments& moments) {
  json j = moments.ToJson();
  j["histogram"] = histogram.ToJson();
  return j;
}

Status DistributionFromJson(const json& j, const char* name, int64_t count, LatencyHistogram& histogram,
                            LatencyMoments& moments) {
  const std::string field = std::string("'") + name + "'";
  if (!j.contains(name) || !j.at(name).is_object()) return InvalidServerTotals(field + " is missing or not an object");
  const json& d = j.at(name);
  auto m = LatencyMoments::FromJson(d);
  if (!m.ok()) return InvalidServerTotals(field + ": " + m.error());
  if (!d.contains("histogram")) return InvalidServerTotals(field + " has no 'histogram'");
  auto h = LatencyHistogram::FromJson(d.at("histogram"));
  if (!h.ok()) return InvalidServerTotals(field + ": " + h.error());
  if (m.value().count != count || h.value().count() != count) {
    return InvalidServerTotals(field + " counts " + std::to_string(h.value().count()) + " queries in its histogram and " +
                   std::to_string(m.value().count) + " in its moments, 'count' says " + std::to_string(count));
  }
  histogram = h.take();
  moments = m.take();
  return Status::Ok();
}

}  // namespace

json ServerTotals::ToJson() const {
  return {{"raw_sample_cap", raw_sample_cap},
          {"count", count},
          {"offered_qps", offered_qps},
          {"achieved_qps", achieved_qps},
          {"late_queries", late_queries},
          {"backlog_at_end", backlog_at_end},
          {"service", DistributionToJson(service, service_moments)},
          {"start_delay", DistributionToJson(start_delay, start_delay_moments)}};
}

Result<ServerTotals> ServerTotals::FromJson(const json& j) {
  if (!j.is_object()) return InvalidServerTotals("not an object");
  ServerTotals t;
  for (const auto& [key, field] : {std::pair<const char*, int64_t*>{"raw_sample_cap", &t.raw_sample_cap},
                                   std::pair<const char*, int64_t*>{"count", &t.count},
                                   std::pair<const char*, int64_t*>{"late_queries", &t.late_queries},
                                   std::pair<const char*, int64_t*>{"backlog_at_end", &t.backlog_at_end}}) {
    if (!j.contains(key) || !j.at(key).is_number_integer() || j.at(key).get<int64_t>() < 0) {
      return InvalidServerTotals(std::string("'") + key + "' is missing or not a non-negative integer");
    }
    *field = j.at(key).get<int64_t>();
  }
  for (const auto& [key, field] : {std::pair<const char*, double*>{"offered_qps", &t.offered_qps},
                                   std::pair<const char*, double*>{"achieved_qps", &t.achieved_qps}}) {
    if (!j.contains(key) || !j.at(key).is_number() || !(j.at(key).get<double>() >= 0) ||
        !std::isfinite(j.at(key).get<double>())) {
      return InvalidServerTotals(std::string("'") + key + "' is missing or not a non-negative number");
    }
    *field = j.at(key).get<double>();
  }
  if (t.late_queries > t.count || t.backlog_at_end > t.count) {
    return InvalidServerTotals("'late_queries' or 'backlog_at_end' exceeds 'count' (" + std::to_string(t.count) + ")");
  }
  if (Status s = DistributionFromJson(j, "service", t.count, t.service, t.service_moments); !s.ok()) return s;
  if (Status s = DistributionFromJson(j, "start_delay", t.count, t.start_delay, t.start_delay_moments); !s.ok()) {
    return s;
  }
  return t;
}

ServerHistograms ReduceServerSamples(const std::vector<int64_t>& issue_ns, const std::vector<int64_t>& latency_ns,
                                     const std::vector<int64_t>& service_ns, const std::vector<int32_t>& stream,
                                     int streams, int64_t window_ns, int64_t raw_sample_cap) {
  ServerHistograms out;
  const size_t n = std::min({issue_ns.size(), latency_ns.size(), service_ns.size()});
  const auto stream_count = static_cast<size_t>(std::max(streams, 1));
  HistogramSeries& series = out.latency;
  series.window_ns = std::max<int64_t>(window_ns, 1);
  series.streams.resize(stream_count);
  series.stream_moments.resize(stream_count);
  ServerTotals& totals = out.server;
  totals.raw_sample_cap = raw_sample_cap;
  for (size_t i = 0; i < n; ++i) {
    // Windows by completion time, as SplitIntoWindows counts raw samples.
    const int64_t completion = issue_ns[i] + latency_ns[i];
    const auto window = static_cast<size_t>(std::max<int64_t>(completion, 0) / series.window_ns);
    if (window >= series.windows.size()) series.windows.resize(window + 1);
    series.windows[window].Add(latency_ns[i]);
    const size_t s = i < stream.size() && stream[i] >= 0 ? std::min(static_cast<size_t>(stream[i]), stream_count - 1) : 0;
    series.streams[s].Add(latency_ns[i]);
    series.stream_moments[s].Add(latency_ns[i]);
    const int64_t delay = std::max<int64_t>(latency_ns[i] - service_ns[i], 0);
    totals.service.Add(service_ns[i]);
    totals.service_moments.Add(service_ns[i]);
    totals.start_delay.Add(delay);
    totals.start_delay_moments.Add(delay);
  }
  // The scalars exactly as the raw samples give them.
  const ServerSummary exact = SummarizeServer(issue_ns, latency_ns, service_ns, 0, 0);
  totals.count = static_cast<int64_t>(n);
  totals.offered_qps = exact.offered_qps;
  totals.achieved_qps = exact.achieved_qps;
  totals.late_queries = exact.late_queries;
  totals.backlog_at_end = exact.backlog_at_end;
  return out;
}

ServerSummary SummarizeServerTotals(const ServerTotals& totals, int64_t wall_ns, int64_t not_issued) {
  ServerSummary s;
  s.offered_qps = totals.offered_qps;
  s.achieved_qps = totals.achieved_qps;
  s.late_queries = totals.late_queries;
  s.backlog_at_end = totals.backlog_at_end;
  s.not_issued = not_issued;
  s.service = SummarizeHistogram(totals.service, totals.service_moments, wall_ns);
  s.start_delay = SummarizeHistogram(totals.start_delay, totals.start_delay_moments, wall_ns);
  return s;
}

}  // namespace edgebench
