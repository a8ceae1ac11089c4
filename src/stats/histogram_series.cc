#include "stats/histogram_series.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/int128_text.h"

namespace edgebench {
namespace {

using nlohmann::json;

Status Invalid(const std::string& what) {
  return Status::Error("histogram samples JSON: " + what +
                       " (was it written by edgebench, and not edited?)");
}

}  // namespace

void LatencyMoments::Merge(const LatencyMoments& other) {
  count += other.count;
  sum += other.sum;
  sum_squares += other.sum_squares;
}

double LatencyMoments::mean() const {
  return count > 0 ? static_cast<double>(static_cast<long double>(sum) / static_cast<long double>(count)) : 0;
}

double LatencyMoments::stddev() const {
  if (count < 2) return 0;
  // n * sum_squares - sum^2 = n^2 x the population variance, exact in 128 bits where it fits;
  // otherwise in long double (64-bit mantissa), still far finer than any latency's noise.
  const __int128 n = count;
  __int128 scaled_squares = 0;
  __int128 squared_sum = 0;
  long double variance = 0;
  if (!__builtin_mul_overflow(n, sum_squares, &scaled_squares) &&
      !__builtin_mul_overflow(sum, sum, &squared_sum)) {
    variance = static_cast<long double>(scaled_squares - squared_sum) /
               (static_cast<long double>(count) * static_cast<long double>(count - 1));
  } else {
    const long double s = static_cast<long double>(sum);
    variance = (static_cast<long double>(sum_squares) - s * s / static_cast<long double>(count)) /
               static_cast<long double>(count - 1);
  }
  return variance > 0 ? static_cast<double>(std::sqrt(variance)) : 0;
}

json LatencyMoments::ToJson() const {
  return {{"count", count}, {"sum_ns", Int128ToDecimal(sum)}, {"sum_squares_ns2", Int128ToDecimal(sum_squares)}};
}

Result<LatencyMoments> LatencyMoments::FromJson(const json& j) {
  if (!j.is_object()) return Invalid("stream moments are not an object");
  LatencyMoments m;
  if (!j.contains("count") || !j.at("count").is_number_integer() || j.at("count").get<int64_t>() < 0) {
    return Invalid("'count' is missing or not a non-negative integer");
  }
  m.count = j.at("count").get<int64_t>();
  for (const auto& [key, field] : {std::pair<const char*, __int128*>{"sum_ns", &m.sum},
                                   std::pair<const char*, __int128*>{"sum_squares_ns2", &m.sum_squares}}) {
    if (!j.contains(key) || !j.at(key).is_string()) return Invalid(std::string("'") + key + "' is missing or not a decimal string");
    const auto value = Int128FromDecimal(j.at(key).get<std::string>());
    if (!value) return Invalid(std::string("'") + key + "' is not a non-negative decimal integer below 2^127");
    *field = *value;
  }
  return m;
}

int64_t HistogramSeries::count() const {
  int64_t total = 0;
  for (const LatencyHistogram& w : windows) total += w.count();
  return total;
}

LatencyHistogram HistogramSeries::Total() const {
  LatencyHistogram total(windows.empty() ? 8 : windows.front().sub_bucket_bits());
  for (const LatencyHistogram& w : windows) total.Merge(w);
  return total;
}

LatencyMoments HistogramSeries::TotalMoments() const {
  LatencyMoments total;
  for (const LatencyMoments& m : stream_moments) total.Merge(m);
  return total;
}

double HistogramSeries::relative_error() const {
  double error = 0;
  for (const LatencyHistogram& w : windows) error = std::max(error, w.relative_error());
  return error;
}

json HistogramSeries::ToJson() const {
  json list = json::array();
  for (const LatencyHistogram& w : windows) list.push_back(w.ToJson());
  json stream_list = json::array();
  for (size_t s = 0; s < stream_moments.size(); ++s) {
    json entry = stream_moments[s].ToJson();
    if (stream_moments.size() > 1 && s < streams.size()) entry["histogram"] = streams[s].ToJson();
    stream_list.push_back(entry);
  }
  return {{"window_ns", window_ns}, {"histogram_windows", list}, {"streams", stream_list}};
}

Result<HistogramSeries> HistogramSeries::FromJson(const json& j) {
  HistogramSeries series;
  if (!j.is_object()) return Invalid("not an object");
  if (!j.contains("window_ns") || !j.at("window_ns").is_number_integer() || j.at("window_ns").get<int64_t>() <= 0) {
    return Invalid("'window_ns' is missing or not a positive integer");
  }
  series.window_ns = j.at("window_ns").get<int64_t>();
  if (!j.contains("histogram_windows") || !j.at("histogram_windows").is_array()) {
    return Invalid("'histogram_windows' is missing or not an array");
  }
  for (size_t i = 0; i < j.at("histogram_windows").size(); ++i) {
    auto h = LatencyHistogram::FromJson(j.at("histogram_windows").at(i));
    if (!h.ok()) return Invalid("window " + std::to_string(i) + ": " + h.error());
    series.windows.push_back(h.take());
  }
  if (!j.contains("streams") || !j.at("streams").is_array() || j.at("streams").empty()) {
    return Invalid("'streams' is missing or not a non-empty array");
  }
  const json& streams = j.at("streams");
  for (size_t s = 0; s < streams.size(); ++s) {
    auto m = LatencyMoments::FromJson(streams.at(s));
    if (!m.ok()) return Invalid("stream " + std::to_string(s) + ": " + m.error());
    series.stream_moments.push_back(m.take());
    if (streams.size() > 1) {
      if (!streams.at(s).contains("histogram")) return Invalid("stream " + std::to_string(s) + " has no 'histogram'");
      auto h = LatencyHistogram::FromJson(streams.at(s).at("histogram"));
      if (!h.ok()) return Invalid("stream " + std::to_string(s) + ": " + h.error());
      if (h.value().count() != series.stream_moments.back().count) {
        return Invalid("stream " + std::to_string(s) + "'s histogram counts " + std::to_string(h.value().count()) +
                       " queries, its moments " + std::to_string(series.stream_moments.back().count));
      }
      series.streams.push_back(h.take());
    }
  }
  if (streams.size() == 1) series.streams.push_back(series.Total());
  const int64_t total = series.count();
  if (series.TotalMoments().count != total) {
    return Invalid("the windows count " + std::to_string(total) + " queries, the streams " +
                   std::to_string(series.TotalMoments().count));
  }
  return series;
}

LatencySummary SummarizeHistogram(const LatencyHistogram& histogram, const LatencyMoments& moments,
                                  int64_t wall_ns) {
  LatencySummary s;
  s.count = histogram.count();
  s.wall_ns = wall_ns;
  for (double p : kReportedPercentiles) s.percentiles.emplace_back(p, histogram.Percentile(p));
  if (s.count == 0) return s;
  s.min_ns = histogram.min();
  s.max_ns = histogram.max();
  s.mean_ns = moments.mean();
  s.stddev_ns = moments.stddev();
  s.cv = s.mean_ns > 0 ? s.stddev_ns / s.mean_ns : 0;
  s.throughput_qps = wall_ns > 0 ? static_cast<double>(s.count) * 1e9 / static_cast<double>(wall_ns) : 0;
  return s;
}

std::vector<LatencyWindow> WindowsFromHistograms(const HistogramSeries& series, int64_t wall_ns) {
  std::vector<LatencyWindow> windows;
  const int64_t window_ns = series.window_ns;
  if (window_ns <= 0 || wall_ns <= 0) return windows;
  const int64_t window_count = (wall_ns - 1) / window_ns + 1;  // ceil without overflow
  windows.resize(static_cast<size_t>(window_count));
  for (int64_t w = 0; w < window_count; ++w) {
    LatencyWindow& window = windows[static_cast<size_t>(w)];
    const bool last = w == window_count - 1;
    const size_t index = static_cast<size_t>(w);
    // The last window also takes any histogram past it (completions exactly at wall_ns).
    const LatencyHistogram* histogram = index < series.windows.size() ? &series.windows[index] : nullptr;
    LatencyHistogram merged(histogram ? histogram->sub_bucket_bits() : 8);
    if (last && series.windows.size() > index + 1) {
      for (size_t i = index; i < series.windows.size(); ++i) merged.Merge(series.windows[i]);
      histogram = &merged;
    }
    window.start_ns = w * window_ns;
    window.end_ns = std::min(wall_ns, window.start_ns + window_ns);
    window.partial = window.end_ns - window.start_ns < window_ns;
    if (histogram) {
      window.count = histogram->count();
      window.p50_ns = histogram->Percentile(0.50);
      window.p99_ns = histogram->Percentile(0.99);
    }
    window.throughput_qps = static_cast<double>(window.count) * 1e9 /
                            static_cast<double>(window.end_ns - window.start_ns);
  }
  return windows;
}

}  // namespace edgebench
