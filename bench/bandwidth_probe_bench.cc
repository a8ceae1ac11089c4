// edgebench's memory-bandwidth probe (diagnose/bandwidth_probe.h) against a triad written apart
// here the way STREAM writes it (OpenMP, static schedule, omp_get_wtime around each pass), built
// with the same flags, alternated round by round on the same array size and passes. Prints both
// figures per round, the ratio of their medians (issue 32: within 10%) and how far edgebench's
// own figure moved from round to round (within 5%).
//   bandwidth_probe_bench [--rounds N] [--passes N] [--array-mib N]
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/environment.h"
#include "core/machine_limits.h"
#include "diagnose/bandwidth_probe.h"

namespace {

// STREAM's triad, as its stream.c does it: three static-schedule loops sharing the OpenMP
// team, the best pass kept; 24 bytes per element.
double ReferenceTriad(int threads, long elements, int passes) {
  omp_set_num_threads(threads);
  double* a = static_cast<double*>(std::malloc(sizeof(double) * elements));
  double* b = static_cast<double*>(std::malloc(sizeof(double) * elements));
  double* c = static_cast<double*>(std::malloc(sizeof(double) * elements));
  if (!a || !b || !c) {
    std::fprintf(stderr, "reference triad: cannot allocate\n");
    std::exit(1);
  }
#pragma omp parallel for schedule(static)
  for (long j = 0; j < elements; j++) {
    a[j] = 1.0;
    b[j] = 2.0;
    c[j] = 0.0;
  }
  const double scalar = 3.0;
  double best = 1e30;
  for (int k = 0; k <= passes; k++) {  // pass 0 warms up, as STREAM skips its first
    const double start = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long j = 0; j < elements; j++) a[j] = b[j] + scalar * c[j];
    const double seconds = omp_get_wtime() - start;
    if (k > 0) best = std::min(best, seconds);
  }
  if (a[elements / 2] != 2.0) {
    std::fprintf(stderr, "reference triad: wrong result\n");
    std::exit(1);
  }
  std::free(a);
  std::free(b);
  std::free(c);
  return 3.0 * sizeof(double) * static_cast<double>(elements) / best / 1e9;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 5, passes = 10;
  long long array_mib = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--passes")) passes = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--array-mib")) array_mib = std::atoll(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: bandwidth_probe_bench [--rounds N] [--passes N] [--array-mib N]\n");
      return 2;
    }
  }
  std::string note;
  const int64_t array_bytes =
      array_mib > 0 ? array_mib << 20
                    : edgebench::DefaultTriadArrayBytes(edgebench::LastLevelCacheBytes(),
                                                        edgebench::ReadEnvironment().memory_total_bytes, &note);
  const long elements = static_cast<long>(array_bytes / 8);
  const int cores = edgebench::UsableCores();
  std::printf("arrays of %lld MiB, %d passes, %d rounds, 1 and %d threads%s%s\n",
              static_cast<long long>(array_bytes >> 20), passes, rounds, cores, note.empty() ? "" : "; ", note.c_str());
  std::printf("%-6s %-8s %14s %14s\n", "round", "threads", "reference GB/s", "edgebench GB/s");
  std::vector<int> thread_counts = {1};
  if (cores > 1) thread_counts.push_back(cores);
  for (int threads : thread_counts) {
    std::vector<double> reference, probe;
    for (int round = 0; round < rounds; ++round) {
      edgebench::TriadOptions options;
      options.threads = threads;
      options.array_bytes = array_bytes;
      options.passes = passes;
      // Alternate which goes first, so that neither always follows the other's warm caches.
      double ours = 0, theirs = 0;
      for (int turn = 0; turn < 2; ++turn) {
        if ((turn + round) % 2 == 0) {
          theirs = ReferenceTriad(threads, elements, passes);
        } else {
          auto measured = edgebench::MeasureTriadBandwidth(options);
          if (!measured.ok()) {
            std::fprintf(stderr, "%s\n", measured.error().c_str());
            return 1;
          }
          ours = measured.value().gb_per_s;
        }
      }
      reference.push_back(theirs);
      probe.push_back(ours);
      std::printf("%-6d %-8d %14.2f %14.2f\n", round + 1, threads, theirs, ours);
    }
    const double med = Median(probe);
    const auto [low, high] = std::minmax_element(probe.begin(), probe.end());
    std::printf("threads %d: median reference %.2f GB/s, edgebench %.2f GB/s, ratio %.4f (goal within 10%%); "
                "edgebench round to round: %.2f..%.2f GB/s, spread %.1f%% of the median (goal under 5%%)\n",
                threads, Median(reference), med, med / Median(reference), *low, *high, 100 * (*high - *low) / med);
  }
  return 0;
}
