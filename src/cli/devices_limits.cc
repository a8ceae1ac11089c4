#include "cli/devices_limits.h"

#include <unistd.h>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/command_support.h"
#include "core/clock.h"
#include "core/environment.h"
#include "diagnose/bandwidth_probe.h"
#include "diagnose/compute_peak_probe.h"
#include "monitor/cpu_span.h"
#include "report/text_table.h"

namespace edgebench {
namespace {

std::string Fixed(double value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

std::string BandwidthLine(const BandwidthMeasurement& b) {
  std::ostringstream out;
  out << "memory bandwidth, " << b.threads << " thread" << (b.threads == 1 ? ": " : "s: ") << Fixed(b.gb_per_s, 2)
            << " GB/s (best of " << b.passes << " passes; median " << Fixed(b.median_gb_per_s, 2) << ", worst "
            << Fixed(b.worst_gb_per_s, 2) << ": spread " << Fixed(100 * b.spread(), 1) << "%; 3 arrays of "
      << (b.array_bytes >> 20) << " MiB)";
  return out.str();
}

std::string PeakLine(const ComputePeak& p) {
  std::ostringstream out;
  out << "compute peak, " << p.target << " " << p.precision << ": " << Fixed(p.gflops, 1) << " GFLOP/s ("
            << p.method << ", " << (p.threads > 0 ? std::to_string(p.threads) + " threads" : "threads as the runtime chose")
            << ", best of " << p.passes << " passes; median "
            << Fixed(p.median_gflops, 1) << ", worst " << Fixed(p.worst_gflops, 1) << ": spread "
      << Fixed(100 * p.spread(), 1) << "%)";
  return out.str();
}

void AppendNote(std::string& notes, const std::string& note) { notes += (notes.empty() ? "" : "; ") + note; }

// The busy-machine verdict over the measurement (monitor/cpu_span.h): an error when other
// processes took more than --max-busy-share of the cores, unless --allow-busy keeps the limits
// with the figures in their note. Unchecked (no proc/stat) is said in the note.
Status JudgeLimitsMachine(const LimitsOptions& o, const SensorRoots& roots, const Result<CpuTimes>& before,
                          MachineLimits& limits) {
  Result<CpuTimes> after = before.ok() ? ReadCpuTimes(roots) : before;
  if (!after.ok()) {
    AppendNote(limits.notes, "not checked for other processes' work while measured: " + after.error());
    return Status::Ok();
  }
  const SpanBusy b = JudgeSpanBusy(before.value(), after.value(), static_cast<double>(sysconf(_SC_CLK_TCK)),
                                   o.max_busy_share);
  if (!b.busy) return Status::Ok();
  if (o.allow_busy) {
    AppendNote(limits.notes, "measured on a busy machine, kept by --allow-busy: " + b.figures);
    return Status::Ok();
  }
  return Status::Error("busy machine: " + b.figures +
                       ". A limit measured while other processes take the cores is too low, and every roofline share "
                       "after it too high. Run it again on an idle machine (the limits cached before, if any, are "
                       "kept), or give --allow-busy to cache these with the figures in their note");
}

}  // namespace

void PrintLimits(const MachineLimits& limits, size_t width) {
  std::vector<std::string> lines;
  if (limits.bandwidth_one_thread) lines.push_back(BandwidthLine(*limits.bandwidth_one_thread));
  if (limits.bandwidth_all_threads) lines.push_back(BandwidthLine(*limits.bandwidth_all_threads));
  for (const ComputePeak& peak : limits.compute_peaks) lines.push_back(PeakLine(peak));
  for (const std::string& missing : limits.compute_peaks_missing) lines.push_back("no compute peak: " + missing);
  // Each on its own, continued lines indented under it.
  for (const std::string& line : lines) {
    const std::string text = WrappedParagraph("  ", line, width);
    std::cout << text.substr(2);
  }
}

// Measures on one thread and on every usable core, then each runtime's matrix-product peak;
// keeps what the user published, caches it.
int MeasureLimits(const LimitsOptions& o, Registry& registry) {
  const Environment env = ReadEnvironment();
  MachineLimits limits;
  limits.machine = MachineKey(env);
  limits.measured_at = UtcNowIso8601();
  limits.published_peak_gb_per_s = o.peak_gb_per_s;
  limits.published_peak_gflops = o.peak_gflops;
  // Three arrays of --array-mib each: bounded by the memory there is before any is allocated
  // (a triad that swaps measures the disk, and one past the memory is killed).
  const uint64_t memory = env.memory_total_bytes > 0 ? static_cast<uint64_t>(env.memory_total_bytes) : 0;
  if (o.array_mib > 0 && memory > 0 && 3 * (static_cast<uint64_t>(o.array_mib) << 20) > memory / 2) {
    std::cerr << "edgebench devices --limits: --array-mib " << o.array_mib << ": the triad's three arrays would need "
              << BytesAndGigabytes(3 * (static_cast<uint64_t>(o.array_mib) << 20)) << ", more than half of this "
              << "machine's " << BytesAndGigabytes(memory) << "; give at most " << (memory / 6 >> 20) << " (or leave it out: 4x the last-level cache)\n";
    return 2;
  }
  // Other processes' work while the limits are measured: the machine's CPU time against ours.
  SensorRoots roots;
  roots.root = o.proc_root;
  const auto cpu_before = ReadCpuTimes(roots);
  TriadOptions triad;
  triad.passes = o.passes;
  triad.array_bytes = o.array_mib > 0 ? o.array_mib << 20
                                      : DefaultTriadArrayBytes(LastLevelCacheBytes(), env.memory_total_bytes, &limits.notes);
  std::cerr << "measuring memory bandwidth: triad over 3 arrays of " << (triad.array_bytes >> 20) << " MiB, "
            << triad.passes << " passes, on 1 and " << UsableCores() << " threads\n";
  for (int threads : {1, UsableCores()}) {
    triad.threads = threads;
    auto measured = MeasureTriadBandwidth(triad);
    if (!measured.ok()) {
      std::cerr << "edgebench devices --limits: " << measured.error() << "\n";
      return 1;
    }
    (threads == 1 ? limits.bandwidth_one_thread : limits.bandwidth_all_threads) = measured.take();
    if (UsableCores() == 1) break;
  }
  if (!o.no_compute) {
    ComputePeakOptions peak_options;
    peak_options.size = o.compute_size;
    peak_options.only_targets = o.compute_targets;
    const std::string cached = MachineLimitsPath(limits.machine);
    peak_options.model_dir = cached.empty() ? std::filesystem::temp_directory_path().string() + "/edgebench-probes"
                                            : std::filesystem::path(cached).parent_path().string() + "/probes";
    std::cerr << "measuring each runtime's compute peak: a " << o.compute_size << "x" << o.compute_size
              << " matrix product, fp32 and int8, best of " << peak_options.passes << " passes\n";
    ComputePeakResults peaks = MeasureComputePeaks(registry, peak_options, [](const std::string& target) {
      std::cerr << "  " << target << "\n";
    });
    limits.compute_peaks = std::move(peaks.peaks);
    limits.compute_peaks_missing = std::move(peaks.missing);
  }
  const auto busy = JudgeLimitsMachine(o, roots, cpu_before, limits);
  if (!busy.ok()) {
    std::cout << "\nmachine limits of " << limits.machine << ", measured on a busy machine and not cached\n";
    PrintLimits(limits, TerminalWidth());
    std::cerr << "edgebench devices --limits: " << busy.message() << "\n";
    return 1;
  }
  if (Status saved = SaveMachineLimits(limits); !saved.ok()) {
    std::cerr << "edgebench devices --limits: the limits were measured but not cached: " << saved.message() << "\n";
    return 1;
  }
  std::cout << "\nmachine limits of " << limits.machine << " (cached in " << MachineLimitsPath(limits.machine) << ")\n";
  PrintLimits(limits, TerminalWidth());
  std::cout << "published peak bandwidth: "
            << (limits.published_peak_gb_per_s > 0 ? Fixed(limits.published_peak_gb_per_s, 2) + " GB/s" : "not given (--peak-gbs)")
            << "\npublished peak compute: "
            << (limits.published_peak_gflops > 0 ? Fixed(limits.published_peak_gflops, 1) + " GFLOP/s" : "not given (--peak-gflops)")
            << "\n";
  if (!limits.notes.empty()) std::cout << "note: " << limits.notes << "\n";
  return 0;
}

void AddLimitsOptions(CLI::App* cmd, LimitsOptions& o) {
  cmd->add_flag("--limits", o.measure,
                "measure this machine's memory bandwidth (a STREAM triad on 1 thread and on every usable "
                "core) and cache it for the roofline of every later run");
  cmd->add_option("--peak-gbs", o.peak_gb_per_s, "with --limits: the machine's published peak memory bandwidth, GB/s")
      ->check(FinitePositiveNumber());
  cmd->add_option("--peak-gflops", o.peak_gflops, "with --limits: the machine's published peak compute, GFLOP/s")
      ->check(FinitePositiveNumber());
  cmd->add_option("--passes", o.passes, "with --limits: triad passes per thread count (the best is kept)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--array-mib", o.array_mib,
                  "with --limits: each triad array's size in MiB (default: 4x the last-level cache, at least 64)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  cmd->add_option("--compute-size", o.compute_size,
                  "with --limits: the compute probe's square matrix size (the product is N x N by N x N)")
      ->check(CLI::Range(int64_t{16}, int64_t{8192}))
      ->capture_default_str();
  cmd->add_option("--compute-targets", o.compute_targets,
                  "with --limits: the backend:device targets whose compute peak is measured "
                  "(default: every available device)")
      ->delimiter(',');
  cmd->add_flag("--no-compute", o.no_compute, "with --limits: measure the memory bandwidth only");
  cmd->add_option("--max-busy-share", o.max_busy_share,
                  "with --limits: the share of the cores other processes may use while the limits are measured; "
                  "past it, the limits are not cached (a limit measured on a busy machine is too low)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_flag("--allow-busy", o.allow_busy,
                "with --limits: cache limits measured on a busy machine all the same, with the figures in their note");
}

bool AnyLimitsOptionGiven(const LimitsOptions& o) {
  return o.peak_gb_per_s > 0 || o.peak_gflops > 0 || o.array_mib > 0 || !o.compute_targets.empty() || o.no_compute ||
         o.allow_busy || o.max_busy_share != LimitsOptions{}.max_busy_share;
}

}  // namespace edgebench
