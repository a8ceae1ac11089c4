#include "record/leak_sites.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace edgebench {
namespace {

// What must hold, besides the interval, before a site is called a leak: the growth really seen
// (a few bytes projected over 10,000 queries are noise), a fit that is a line and not one step
// (a buffer made once mid-phase fits a line with r2 0.75 at best), and enough queries.
constexpr double kMinSeenBytes = 1024.0 * 1024.0;
constexpr double kMinFitR2 = 0.9;
constexpr double kMinQueries = 100;
constexpr double kZ95 = 1.96;
constexpr double kMiB = 1024.0 * 1024.0;

// "ns::Class::Method" of "ns::Class::Method(int, char const*) const": the notes' name for a site.
std::string ShortName(const std::string& function) {
  int depth = 0;
  for (size_t i = 0; i < function.size(); ++i) {
    const char c = function[i];
    if (c == '<') ++depth;
    if (c == '>' && depth > 0) --depth;
    if (c == '(' && depth == 0) {
      if (i >= 8 && function.compare(i - 8, 8, "operator") == 0 && function.compare(i, 2, "()") == 0) {
        ++i;
        continue;
      }
      if (i > 0) return function.substr(0, i);
    }
  }
  return function;
}

std::string Figures(const LeakSite& s) {
  char buffer[200];
  std::snprintf(buffer, sizeof buffer, "%.0f bytes per 1,000 queries [%.0f, %.0f] (%lld bytes in %lld allocations, r2 %.2f)",
                s.bytes_per_1k_queries, s.low_per_1k_queries, s.high_per_1k_queries,
                static_cast<long long>(s.grown_bytes), static_cast<long long>(s.grown_allocations), s.fit_r2);
  return buffer;
}

}  // namespace

void DeriveLeakSites(LeakSites& sites, double queries, double max_growth_mb) {
  sites.queries = queries;
  sites.leaks = 0;
  sites.explanation.clear();
  if (!sites.reason.empty()) {
    sites.explanation = "no leak sites: " + sites.reason;
    return;
  }
  // Heaptrack stopped early (its trace reached its size limit): the window's own queries.
  const bool cut = sites.window_queries >= 0 && sites.window_queries < 0.95 * queries;
  const double measured_queries = queries;
  if (cut) queries = sites.window_queries;
  const double per_query_s = queries > 0 ? sites.window_s / queries : 0;
  for (LeakSite& s : sites.sites) {
    s.leak = false;
    if (queries <= 0) continue;
    s.bytes_per_1k_queries = static_cast<double>(s.grown_bytes) / queries * 1000.0;
    // The count is exact; the interval is the fit's: a buffer made once, however large, fits a
    // flat line and its interval stays near 0.
    const double scale = (sites.axis == "seconds" ? per_query_s : 1.0) * 1000.0;
    s.low_per_1k_queries = (s.slope - kZ95 * s.slope_stderr) * scale;
    s.high_per_1k_queries = (s.slope + kZ95 * s.slope_stderr) * scale;
    const double low_mb_per_10k = s.low_per_1k_queries * 10.0 / kMiB;
    s.leak = low_mb_per_10k > max_growth_mb && static_cast<double>(s.grown_bytes) >= kMinSeenBytes &&
             s.fit_r2 >= kMinFitR2 && queries >= kMinQueries;
    if (s.leak) ++sites.leaks;
  }
  if (queries <= 0) {
    sites.explanation = "no leak verdict: no query completed in the measured phase";
    return;
  }
  std::string covered;
  if (cut) {
    char text[200];
    std::snprintf(text, sizeof text,
                  " (heaptrack's trace covers %.0f of the %.0f measured queries: it was stopped when the trace "
                  "passed EDGEBENCH_LEAK_SITES_MAX_MB)",
                  queries, measured_queries);
    covered = text;
  }
  if (sites.sites.empty()) {
    sites.explanation = "no site grew over the measured phase" + covered;
    return;
  }
  const LeakSite& top = sites.sites.front();
  const std::string where = ShortName(top.function) + " (" + top.library + ")";
  char threshold[80];
  std::snprintf(threshold, sizeof threshold, "%g MB per 10,000 queries", max_growth_mb);
  if (sites.leaks > 0) {
    for (const LeakSite& s : sites.sites) {
      if (!s.leak) continue;
      sites.explanation = std::to_string(sites.leaks) + (sites.leaks == 1 ? " site leaks" : " sites leak") +
                          "; the largest: " + ShortName(s.function) + " (" + s.library + ") grew " + Figures(s) +
                          ", over " + threshold + " at the interval's lower bound" + covered;
      break;
    }
  } else {
    sites.explanation = "no site leaks (none over " + std::string(threshold) +
                        " at its interval's lower bound); the largest growth: " + where + " " + Figures(top) + covered;
  }
}

}  // namespace edgebench
