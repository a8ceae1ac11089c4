// A server run past its raw-sample cap (issue 9, "Raw samples must scale"): at 20,000 QPS a
// run of a minute is over a million queries, about 9 MB of raw samples in its record. The
// server keeps every sample in memory while it runs (the per-query path does no extra work);
// at the end, past the cap, they are reduced to what the record derives from them: latency
// histograms by completion window with exact per-stream moments (as a soak's), histograms and
// exact moments of service time and start delay, and the exact scalars of ServerSummary. The
// record then holds no raw measured sample, and stays a few hundred KB whatever the run's
// length.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "stats/histogram_series.h"
#include "stats/latency_histogram.h"
#include "stats/load_summary.h"

namespace edgebench {

// A server run's measured raw samples are kept in its record up to this many queries (about
// 8.8 bytes a query in the JSON record: about 3.5 MB); past it they are reduced (ServerTotals).
inline constexpr int64_t kServerRawSampleCap = 400'000;

// What SummarizeServer derives from raw samples, stored for a run past the cap: the scalars
// exactly as SummarizeServer computed them from every sample, service time and start delay
// as histograms with exact moments.
struct ServerTotals {
  int64_t raw_sample_cap = 0;  // the cap the run exceeded
  int64_t count = 0;           // queries issued (and completed)
  double offered_qps = 0;
  double achieved_qps = 0;
  int64_t late_queries = 0;
  int64_t backlog_at_end = 0;
  LatencyHistogram service;
  LatencyMoments service_moments;
  LatencyHistogram start_delay;
  LatencyMoments start_delay_moments;

  // {"raw_sample_cap", "count", "offered_qps", "achieved_qps", "late_queries", "backlog_at_end",
  //  "service": {"count", "sum_ns", "sum_squares_ns2", "histogram"}, "start_delay": {...}}.
  nlohmann::json ToJson() const;
  // An error names the field that is wrong; both histograms must count `count` queries.
  static Result<ServerTotals> FromJson(const nlohmann::json& json);
};

// The measured phase of a server run past the cap: `latency` the series a soak past its cap
// stores (windows by completion time, per-stream histograms and moments), `server` the rest.
struct ServerHistograms {
  HistogramSeries latency;
  ServerTotals server;
};

// Reduces a server run's measured samples (as RunServer gives them: `issue_ns` the scheduled
// arrivals, ascending, `latency_ns` from them, `service_ns` from the actual starts, `stream` the
// worker of each, 0..streams-1) into histograms by completion window of `window_ns` (> 0) and
// the exact scalars of SummarizeServer over the same samples.
ServerHistograms ReduceServerSamples(const std::vector<int64_t>& issue_ns, const std::vector<int64_t>& latency_ns,
                                     const std::vector<int64_t>& service_ns, const std::vector<int32_t>& stream,
                                     int streams, int64_t window_ns, int64_t raw_sample_cap);

// SummarizeServer's result from stored totals: the scalars exact, the service and start-delay
// percentiles within the histograms' relative error, their count, min, max, mean and stddev
// exact.
ServerSummary SummarizeServerTotals(const ServerTotals& totals, int64_t wall_ns, int64_t not_issued);

}  // namespace edgebench
