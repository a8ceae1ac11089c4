#include "diagnose/bandwidth_probe.h"

#include <algorithm>
#include <barrier>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "monitor/sysfs_text.h"

namespace edgebench {
namespace {

constexpr double kScalar = 3.0;

struct FreeDeleter {
  void operator()(double* p) const { std::free(p); }
};
using Array = std::unique_ptr<double[], FreeDeleter>;

Array AllocateArray(int64_t elements) {
  const size_t bytes = (static_cast<size_t>(elements) * sizeof(double) + 63) / 64 * 64;
  return Array(static_cast<double*>(std::aligned_alloc(64, bytes)));
}

// Kept out of line so that the loop is the same whatever calls it.
[[gnu::noinline]] void Triad(double* __restrict a, const double* __restrict b, const double* __restrict c,
                             int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) a[i] = b[i] + kScalar * c[i];
}

// "48K", "105M", "2048K" as sysfs writes cache sizes.
int64_t ParseCacheSize(const std::string& text) {
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || value <= 0) return 0;
  switch (*end) {
    case 'K': return value * 1024;
    case 'M': return value * 1024 * 1024;
    case 'G': return value * 1024 * 1024 * 1024;
    default: return value;
  }
}

}  // namespace

int64_t LastLevelCacheBytes(const std::string& root) {
  const std::string dir = (root == "/" ? std::string() : root) + "/sys/devices/system/cpu/cpu0/cache";
  int64_t best_level = 0, bytes = 0;
  for (const std::string& index : ListDirectory(dir, "index")) {
    const auto level = ReadIntegerFile(dir + "/" + index + "/level");
    const auto type = ReadWordFile(dir + "/" + index + "/type");
    const auto size = ReadWordFile(dir + "/" + index + "/size");
    if (!level.ok() || !size.ok() || (type.ok() && type.value() == "Instruction")) continue;
    if (level.value() >= best_level) {
      best_level = level.value();
      bytes = ParseCacheSize(size.value());
    }
  }
  return bytes;
}

int64_t DefaultTriadArrayBytes(int64_t last_level_cache_bytes, int64_t memory_total_bytes, std::string* note) {
  constexpr int64_t kMinimum = int64_t{64} << 20;
  int64_t bytes = std::max(kMinimum, 4 * last_level_cache_bytes);
  const int64_t cap = memory_total_bytes > 0 ? memory_total_bytes / 8 / 3 : bytes;
  if (bytes > cap) {
    bytes = cap;
    if (note) {
      *note = "triad arrays of " + std::to_string(bytes >> 20) + " MiB each, under STREAM's 4x the last-level cache (" +
              std::to_string(last_level_cache_bytes >> 20) + " MiB) to fit an eighth of the memory";
    }
  }
  return bytes / 64 * 64;
}

Result<BandwidthMeasurement> MeasureTriadBandwidth(const TriadOptions& options) {
  if (options.threads < 1) return Status::Error("bandwidth probe: threads must be at least 1");
  if (options.passes < 1) return Status::Error("bandwidth probe: passes must be at least 1");
  const int64_t elements = options.array_bytes / static_cast<int64_t>(sizeof(double));
  if (elements < options.threads) return Status::Error("bandwidth probe: arrays too small for the threads");
  Array a = AllocateArray(elements), b = AllocateArray(elements), c = AllocateArray(elements);
  if (!a || !b || !c) {
    return Status::Error("bandwidth probe: cannot allocate 3 arrays of " + std::to_string(options.array_bytes >> 20) +
                         " MiB; give a smaller size");
  }
  const int threads = options.threads;
  std::vector<int64_t> pass_ns(static_cast<size_t>(options.passes), 0);
  int64_t pass_start = 0;
  // Thread 0 reads the clock between two barriers: every thread starts a pass together, and the
  // pass ends when the last one is done.
  std::barrier sync(threads);
  auto work = [&](int t) {
    const int64_t begin = elements * t / threads, end = elements * (t + 1) / threads;
    for (int64_t i = begin; i < end; ++i) {  // first touch: the pages land near the thread
      a[i] = 1.0;
      b[i] = 2.0;
      c[i] = 0.5;
    }
    Triad(a.get(), b.get(), c.get(), begin, end);  // a warm pass, not timed
    for (int pass = 0; pass < options.passes; ++pass) {
      sync.arrive_and_wait();
      if (t == 0) pass_start = NowNs();
      sync.arrive_and_wait();
      Triad(a.get(), b.get(), c.get(), begin, end);
      sync.arrive_and_wait();
      if (t == 0) pass_ns[static_cast<size_t>(pass)] = NowNs() - pass_start;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& thread : pool) thread.join();
  // a = b + 3c = 2 + 1.5 everywhere; anything else means the loop did not run as written.
  for (int64_t i : {int64_t{0}, elements / 2, elements - 1}) {
    if (a[i] != 3.5) return Status::Error("bandwidth probe: the triad's result is wrong; the figure is not kept");
  }
  std::sort(pass_ns.begin(), pass_ns.end());
  const double bytes = 3.0 * static_cast<double>(elements) * sizeof(double);
  auto rate = [&](int64_t ns) { return ns > 0 ? bytes / static_cast<double>(ns) : 0.0; };  // bytes/ns = GB/s
  BandwidthMeasurement m;
  m.gb_per_s = rate(pass_ns.front());
  m.worst_gb_per_s = rate(pass_ns.back());
  m.median_gb_per_s = rate(pass_ns[pass_ns.size() / 2]);
  m.threads = threads;
  m.array_bytes = elements * static_cast<int64_t>(sizeof(double));
  m.passes = options.passes;
  m.method = "triad a[i] = b[i] + s*c[i] over doubles, 24 bytes per element, best of " +
             std::to_string(options.passes) + " passes";
  return m;
}

}  // namespace edgebench
