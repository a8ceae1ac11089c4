// --leak-sites (docs/monitoring.md, "Leak sites"): the call stacks whose live heap bytes grew over
// the measured phase, read from heaptrack's trace of the worker (monitor/heaptrack_reader.h), and
// the verdict on each: a site leaks when its growth per query, projected over 10,000 queries,
// stays above --max-growth-mb at the lower bound of its 95% interval.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgebench {

struct LeakSite {
  std::string function;  // the first frame outside the allocator, symbolized ("0x7f12... " if not)
  std::string library;   // the file that frame is in (its base name)
  std::vector<std::string> stack;  // "function (library)", from the site outwards, at most 8
  int64_t grown_bytes = 0;         // live at the window's end less at its start
  int64_t grown_allocations = 0;   // allocations made less freed over the window
  // Least squares of the site's live bytes against the queries completed (or, without them, the
  // seconds passed: LeakSites::axis), one point per tick of heaptrack's clock (10 ms): bytes per
  // query (or second), its standard error, and the fit's r2.
  double slope = 0;
  double slope_stderr = 0;
  double fit_r2 = 0;
  // Derived (DeriveLeakSites): per 1,000 queries (the growth counted, over the queries), the 95%
  // interval of the fit's slope per 1,000 queries, and the verdict.
  double bytes_per_1k_queries = 0;
  double low_per_1k_queries = 0, high_per_1k_queries = 0;
  bool leak = false;
};

struct LeakLibrary {
  std::string library;
  int64_t grown_bytes = 0;
};

struct LeakSites {
  std::string reason;  // why there are no sites (heaptrack missing, the worker died, ...); else ""
  double window_s = 0;   // the measured phase as heaptrack's clock saw it
  int ticks = 0;         // points each site's fit has
  std::string axis = "queries";  // what the fits' slopes are per: "queries" or "seconds"
  // Queries completed inside the traced window (axis "queries"); fewer than the measured phase's
  // when heaptrack was stopped early (EDGEBENCH_LEAK_SITES_MAX_MB). -1: not known.
  double window_queries = -1;
  int64_t allocations = 0, frees = 0;  // seen over the window
  int sites_seen = 0;                  // sites that allocated or freed over the window
  std::vector<LeakSite> sites;         // the largest growths, largest first (at most 20)
  std::vector<LeakLibrary> libraries;  // growth by library, largest first
  // Derived (DeriveLeakSites):
  double queries = 0;  // completed in the measured phase
  int leaks = 0;
  std::string explanation;  // the verdict with its top site, for the notes
};

inline constexpr int kLeakSitesKept = 20;

// Per-query rates, intervals and verdicts from the raw figures, for `queries` measured queries
// and the --max-growth-mb threshold (MB per 10,000 queries).
void DeriveLeakSites(LeakSites& sites, double queries, double max_growth_mb);

}  // namespace edgebench
