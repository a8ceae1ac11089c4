// `edgebench devices`: every backend with its version and devices, available or not and why;
// with --sensors, every sensor reader and channel of this machine (or of a tree copied from a
// board, --sysfs-root) with one current value; with --limits, this machine's memory bandwidth
// and each runtime's matrix-product peak measured and cached for the roofline of every later run
// (docs/roofline.md).
#include <chrono>
#include <filesystem>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/environment.h"
#include "core/machine_limits.h"
#include "diagnose/bandwidth_probe.h"
#include "diagnose/compute_peak_probe.h"
#include "monitor/device_sensors.h"
#include "record/record.h"

namespace edgebench {
namespace {

// A value as read: integers as integers (45000 mC, 2400000 kHz), others to 0.1.
std::string FormatValue(double value) {
  std::ostringstream out;
  if (value == std::floor(value) && std::fabs(value) < 1e18) {
    out << static_cast<long long>(value);
  } else {
    out << std::fixed << std::setprecision(1) << value;
  }
  return out.str();
}

void PrintSensors(const SensorRoots& roots) {
  SensorSet sensors = OpenDeviceSensors(roots);
  std::cout << "\nsensors under " << roots.root << "\n";
  std::cout << std::left << std::setw(10) << "reader" << std::setw(11) << "available" << "details\n";
  for (const ReaderStatus& status : sensors.statuses()) {
    std::cout << std::setw(9) << status.reader << " " << std::setw(10)
              << (status.available ? "yes" : "no") << " " << status.reason << "\n";
  }
  // Two samples, so that rates (utilisation) have an interval to be computed over.
  sensors.Sample(NowNs());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::vector<std::string> errors(sensors.channels().size());
  const SensorSample sample = sensors.Sample(NowNs());
  for (const ChannelFailure& failure : sensors.failures()) errors[failure.channel] = failure.error;

  // The value last: a reason in its place can be long.
  std::cout << "\n"
            << std::setw(24) << "channel" << " " << std::setw(16) << "kind" << " " << std::setw(5)
            << "unit" << " " << std::setw(26) << "label" << " " << std::setw(56) << "source" << " "
            << "value\n";
  for (size_t i = 0; i < sensors.channels().size(); ++i) {
    const Channel& c = sensors.channels()[i];
    std::string value = "-";
    if (sample.values[i]) {
      value = FormatValue(*sample.values[i]);
    } else {
      value += errors[i].empty() ? " (not known yet)" : " (" + errors[i] + ")";
    }
    std::string label = c.label;
    if (c.device_total) label += " [total]";
    if (c.part_of_total) label += " [part]";
    std::cout << std::setw(24) << c.id << " " << std::setw(16) << ChannelKindName(c.kind) << " "
              << std::setw(5) << ChannelUnit(c.kind) << " " << std::setw(26) << label << " "
              << std::setw(56) << c.source << " " << value << "\n";
  }
}

struct LimitsOptions {
  bool measure = false;
  double peak_gb_per_s = 0;
  double peak_gflops = 0;
  int passes = 10;
  int64_t array_mib = 0;  // 0: STREAM's rule
  int64_t compute_size = 1024;
  std::vector<std::string> compute_targets;  // empty: every available device
  bool no_compute = false;
};

std::string Fixed(double value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

void PrintBandwidth(const BandwidthMeasurement& b) {
  std::cout << "memory bandwidth, " << b.threads << " thread" << (b.threads == 1 ? ": " : "s: ") << Fixed(b.gb_per_s, 2)
            << " GB/s (best of " << b.passes << " passes; median " << Fixed(b.median_gb_per_s, 2) << ", worst "
            << Fixed(b.worst_gb_per_s, 2) << ": spread " << Fixed(100 * b.spread(), 1) << "%; 3 arrays of "
            << (b.array_bytes >> 20) << " MiB)\n";
}

void PrintPeak(const ComputePeak& p) {
  std::cout << "compute peak, " << p.target << " " << p.precision << ": " << Fixed(p.gflops, 1) << " GFLOP/s ("
            << p.method << ", " << (p.threads > 0 ? std::to_string(p.threads) + " threads" : "threads as the runtime chose")
            << ", best of " << p.passes << " passes; median "
            << Fixed(p.median_gflops, 1) << ", worst " << Fixed(p.worst_gflops, 1) << ": spread "
            << Fixed(100 * p.spread(), 1) << "%)\n";
}

void PrintLimits(const MachineLimits& limits) {
  if (limits.bandwidth_one_thread) PrintBandwidth(*limits.bandwidth_one_thread);
  if (limits.bandwidth_all_threads) PrintBandwidth(*limits.bandwidth_all_threads);
  for (const ComputePeak& peak : limits.compute_peaks) PrintPeak(peak);
  for (const std::string& missing : limits.compute_peaks_missing) std::cout << "no compute peak: " << missing << "\n";
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
  if (Status saved = SaveMachineLimits(limits); !saved.ok()) {
    std::cerr << "edgebench devices --limits: the limits were measured but not cached: " << saved.message() << "\n";
    return 1;
  }
  std::cout << "\nmachine limits of " << limits.machine << " (cached in " << MachineLimitsPath(limits.machine) << ")\n";
  PrintLimits(limits);
  std::cout << "published peak bandwidth: "
            << (limits.published_peak_gb_per_s > 0 ? Fixed(limits.published_peak_gb_per_s, 2) + " GB/s" : "not given (--peak-gbs)")
            << "\npublished peak compute: "
            << (limits.published_peak_gflops > 0 ? Fixed(limits.published_peak_gflops, 1) + " GFLOP/s" : "not given (--peak-gflops)")
            << "\n";
  if (!limits.notes.empty()) std::cout << "note: " << limits.notes << "\n";
  return 0;
}

}  // namespace

void AddDevicesCommand(CLI::App& app, CommandContext& context) {
  CLI::App* cmd = app.add_subcommand("devices", "list backends, their devices and availability");
  auto show_sensors = std::make_shared<bool>(false);
  auto sysfs_root = std::make_shared<std::string>("/");
  cmd->add_flag("--sensors", *show_sensors,
                "also list the device sensors (memory, CPU, frequency, temperature, power, energy), "
                "each reader available or why not, with a current value");
  cmd->add_option("--sysfs-root", *sysfs_root,
                  "where /proc and /sys are read from (a tree copied from a board)")
      ->capture_default_str();
  auto limits = std::make_shared<LimitsOptions>();
  cmd->add_flag("--limits", limits->measure,
                "measure this machine's memory bandwidth (a STREAM triad on 1 thread and on every usable "
                "core) and cache it for the roofline of every later run");
  cmd->add_option("--peak-gbs", limits->peak_gb_per_s, "with --limits: the machine's published peak memory bandwidth, GB/s")
      ->check(FinitePositiveNumber());
  cmd->add_option("--peak-gflops", limits->peak_gflops, "with --limits: the machine's published peak compute, GFLOP/s")
      ->check(FinitePositiveNumber());
  cmd->add_option("--passes", limits->passes, "with --limits: triad passes per thread count (the best is kept)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--array-mib", limits->array_mib,
                  "with --limits: each triad array's size in MiB (default: 4x the last-level cache, at least 64)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  cmd->add_option("--compute-size", limits->compute_size,
                  "with --limits: the compute probe's square matrix size (the product is N x N by N x N)")
      ->check(CLI::Range(int64_t{16}, int64_t{8192}))
      ->capture_default_str();
  cmd->add_option("--compute-targets", limits->compute_targets,
                  "with --limits: the backend:device targets whose compute peak is measured "
                  "(default: every available device)")
      ->delimiter(',');
  cmd->add_flag("--no-compute", limits->no_compute, "with --limits: measure the memory bandwidth only");
  cmd->callback([&context, show_sensors, sysfs_root, limits] {
    if (limits->measure) {
      context.exit_code = MeasureLimits(*limits, context.registry);
      return;
    }
    if (limits->peak_gb_per_s > 0 || limits->peak_gflops > 0 || limits->array_mib > 0 ||
        !limits->compute_targets.empty() || limits->no_compute) {
      std::cerr << "edgebench devices: --peak-gbs, --peak-gflops, --array-mib, --compute-targets and --no-compute "
                   "go with --limits\n";
      context.exit_code = 2;
      return;
    }
    std::cout << std::left << std::setw(22) << "target" << std::setw(13) << "available"
              << std::setw(34) << "runtime" << "details\n";
    for (const BackendInfo& info : context.registry.List()) {
      const std::string runtime = info.runtime + (info.version.empty() ? "" : " " + info.version);
      if (!info.built || !info.loaded) {
        std::cout << std::setw(22) << (info.name + ":*") << std::setw(13)
                  << (info.built ? "unavailable" : "not built") << std::setw(34) << runtime
                  << info.reason << "\n";
        continue;
      }
      for (const DeviceInfo& d : info.devices) {
        std::cout << std::setw(22) << (info.name + ":" + d.name) << std::setw(13)
                  << (d.available ? "yes" : "no") << std::setw(34)
                  << (d.runtime.empty() ? runtime : d.runtime)
                  << (d.available ? d.description : d.reason) << "\n";
      }
    }
    std::string why;
    if (const auto cached = LoadMachineLimits(ReadEnvironment(), &why)) {
      std::cout << "\nmachine limits (measured " << cached->measured_at << "; `edgebench devices --limits` measures again)\n";
      PrintLimits(*cached);
    } else {
      std::cout << "\nmachine limits: " << why << "\n";
    }
    if (*show_sensors) {
      SensorRoots roots;
      roots.root = *sysfs_root;
      PrintSensors(roots);
    }
  });
}

}  // namespace edgebench
