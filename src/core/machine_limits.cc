#include "core/machine_limits.h"

#include "core/bounded_file.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/environment.h"
#include "core/file_replace.h"
#include "core/strings.h"

namespace edgebench {
namespace {

using json = nlohmann::json;

json BandwidthToJson(const BandwidthMeasurement& b) {
  return {{"gb_per_s", b.gb_per_s},       {"median_gb_per_s", b.median_gb_per_s},
          {"worst_gb_per_s", b.worst_gb_per_s}, {"spread", b.spread()},
          {"threads", b.threads},         {"array_bytes", b.array_bytes},
          {"passes", b.passes},           {"method", b.method}};
}

BandwidthMeasurement BandwidthFromJson(const json& j) {
  BandwidthMeasurement b;
  b.gb_per_s = j.at("gb_per_s").get<double>();
  b.median_gb_per_s = j.value("median_gb_per_s", b.gb_per_s);
  b.worst_gb_per_s = j.value("worst_gb_per_s", b.gb_per_s);
  b.threads = j.at("threads").get<int>();
  b.array_bytes = j.at("array_bytes").get<int64_t>();
  b.passes = j.at("passes").get<int>();
  b.method = j.at("method").get<std::string>();
  return b;
}

json PeakToJson(const ComputePeak& p) {
  return {{"target", p.target}, {"precision", p.precision}, {"gflops", p.gflops},
          {"median_gflops", p.median_gflops}, {"worst_gflops", p.worst_gflops}, {"spread", p.spread()},
          {"size", p.size}, {"threads", p.threads}, {"passes", p.passes}, {"method", p.method}};
}

ComputePeak PeakFromJson(const json& j) {
  ComputePeak p;
  p.target = j.at("target").get<std::string>();
  p.precision = j.at("precision").get<std::string>();
  p.gflops = j.at("gflops").get<double>();
  p.median_gflops = j.value("median_gflops", p.gflops);
  p.worst_gflops = j.value("worst_gflops", p.gflops);
  p.size = j.at("size").get<int64_t>();
  p.threads = j.at("threads").get<int>();
  p.passes = j.at("passes").get<int>();
  p.method = j.at("method").get<std::string>();
  return p;
}

std::string CacheRoot() {
  if (const char* cache = std::getenv("EDGEBENCH_CACHE"); cache && *cache) return cache;
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/edgebench";
  return "";
}

}  // namespace

const BandwidthMeasurement* MachineLimits::BandwidthFor(int threads) const {
  if (threads <= 1 && bandwidth_one_thread) return &*bandwidth_one_thread;
  if (bandwidth_all_threads) return &*bandwidth_all_threads;
  return bandwidth_one_thread ? &*bandwidth_one_thread : nullptr;
}

const ComputePeak* MachineLimits::PeakFor(const std::string& target, const std::string& precision) const {
  for (const ComputePeak& peak : compute_peaks) {
    if (peak.target == target && peak.precision == precision) return &peak;
  }
  return nullptr;
}

std::string ComputePeakSource(const ComputePeak& peak, int run_threads) {
  const auto threads_text = [](int n) { return std::to_string(n) + " thread" + (n == 1 ? "" : "s"); };
  std::string source = peak.method + ", " +
                       (peak.threads > 0 ? threads_text(peak.threads) : std::string("threads as the runtime chose")) +
                       ", best of " + std::to_string(peak.passes);
  if (run_threads > 0 && peak.threads > 0 && run_threads != peak.threads) {
    source += "; the run used " + threads_text(run_threads);
  }
  return source;
}

json MachineLimitsToJson(const MachineLimits& limits) {
  json j = {{"machine", limits.machine}, {"measured_at", limits.measured_at}};
  if (limits.bandwidth_one_thread) j["bandwidth_one_thread"] = BandwidthToJson(*limits.bandwidth_one_thread);
  if (limits.bandwidth_all_threads) j["bandwidth_all_threads"] = BandwidthToJson(*limits.bandwidth_all_threads);
  if (limits.published_peak_gb_per_s > 0) j["published_peak_gb_per_s"] = limits.published_peak_gb_per_s;
  if (limits.published_peak_gflops > 0) j["published_peak_gflops"] = limits.published_peak_gflops;
  if (!limits.notes.empty()) j["notes"] = limits.notes;
  if (!limits.compute_peaks.empty()) {
    j["compute_peaks"] = json::array();
    for (const ComputePeak& peak : limits.compute_peaks) j["compute_peaks"].push_back(PeakToJson(peak));
  }
  if (!limits.compute_peaks_missing.empty()) j["compute_peaks_missing"] = limits.compute_peaks_missing;
  return j;
}

Result<MachineLimits> MachineLimitsFromJson(const json& j) {
  try {
    MachineLimits limits;
    limits.machine = j.at("machine").get<std::string>();
    limits.measured_at = j.value("measured_at", std::string());
    if (j.contains("bandwidth_one_thread")) limits.bandwidth_one_thread = BandwidthFromJson(j.at("bandwidth_one_thread"));
    if (j.contains("bandwidth_all_threads")) limits.bandwidth_all_threads = BandwidthFromJson(j.at("bandwidth_all_threads"));
    limits.published_peak_gb_per_s = j.value("published_peak_gb_per_s", 0.0);
    limits.published_peak_gflops = j.value("published_peak_gflops", 0.0);
    limits.notes = j.value("notes", std::string());
    if (j.contains("compute_peaks")) {
      for (const json& peak : j.at("compute_peaks")) limits.compute_peaks.push_back(PeakFromJson(peak));
    }
    limits.compute_peaks_missing = j.value("compute_peaks_missing", std::vector<std::string>{});
    return limits;
  } catch (const json::exception& e) {
    return Status::Error(std::string("machine limits: ") + e.what());
  }
}

std::string MachineKey(const Environment& env) {
  std::ostringstream key;
  key << env.hostname << "-" << env.cpu_model << "-" << env.logical_cores << "c-"
      << env.memory_total_bytes / (1024 * 1024) << "MiB";
  std::string safe;
  for (char c : key.str()) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.';
    if (plain) {
      safe += c;
    } else if (safe.empty() || safe.back() != '_') {
      safe += '_';
    }
  }
  return safe.substr(0, 200);
}

std::string MachineLimitsPath(const std::string& machine_key) {
  const std::string root = CacheRoot();
  return root.empty() ? "" : root + "/limits/" + machine_key + ".json";
}

Status CheckMachineLimitsPlausible(const MachineLimits& limits) {
  // Far above any memory (HBM3e is ~5 TB/s) or any chip's compute (~10 PFLOP/s at int8): a figure
  // past these, zero, negative or not a number is not a measurement of a machine.
  constexpr double kMaxGbPerS = 100'000;
  constexpr double kMaxGflops = 10'000'000;
  constexpr size_t kMaxPeaks = 1000;
  const auto bad = [](double value, double max) { return !std::isfinite(value) || !(value > 0) || value > max; };
  for (const auto* b : {&limits.bandwidth_one_thread, &limits.bandwidth_all_threads}) {
    if (*b && bad((*b)->gb_per_s, kMaxGbPerS)) {
      return Status::Error("a bandwidth of " + FormatNumber("%g", (*b)->gb_per_s) + " GB/s is not a measurement");
    }
  }
  for (double published : {limits.published_peak_gb_per_s, limits.published_peak_gflops}) {
    if (published != 0 && bad(published, std::max(kMaxGbPerS, kMaxGflops))) {
      return Status::Error("a published peak of " + FormatNumber("%g", published) + " is not a machine's");
    }
  }
  if (limits.compute_peaks.size() > kMaxPeaks || limits.compute_peaks_missing.size() > kMaxPeaks ||
      limits.notes.size() > 4096) {
    return Status::Error("it holds " + std::to_string(limits.compute_peaks.size()) +
                         " compute peaks (or an overlong list of missing ones or notes); a machine has a few per "
                         "runtime");
  }
  for (const ComputePeak& peak : limits.compute_peaks) {
    if (bad(peak.gflops, kMaxGflops)) {
      return Status::Error("a compute peak of " + FormatNumber("%g", peak.gflops) + " GFLOP/s (" + peak.target +
                           ") is not a measurement");
    }
  }
  return Status::Ok();
}

std::optional<MachineLimits> LoadMachineLimits(const Environment& environment, std::string* why) {
  const std::string path = MachineLimitsPath(MachineKey(environment));
  auto fail = [&](const std::string& reason) -> std::optional<MachineLimits> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (path.empty()) return fail("no cache directory (neither EDGEBENCH_CACHE nor HOME is set)");
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return fail("this machine's limits were never measured (no " + path + "); run `edgebench devices --limits`");
  }
  // The cache is a file anyone could have written: bounded, regular, this machine's, plausible.
  auto text = ReadBoundedTextFile(path, kMaxMachineLimitsFileBytes, "machine limits file");
  if (!text.ok()) return fail(text.error() + "; run `edgebench devices --limits` to measure again");
  json j = json::parse(text.value(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return fail(path + " is not JSON; run `edgebench devices --limits` to measure again");
  auto limits = MachineLimitsFromJson(j);
  if (!limits.ok()) return fail(path + ": " + limits.error() + "; run `edgebench devices --limits` to measure again");
  if (limits.value().machine != MachineKey(environment)) {
    return fail(path + " holds the limits of another machine (" + limits.value().machine +
                "); run `edgebench devices --limits` to measure this one");
  }
  if (Status plausible = CheckMachineLimitsPlausible(limits.value()); !plausible.ok()) {
    return fail(path + ": " + plausible.message() + "; run `edgebench devices --limits` to measure again");
  }
  return limits.take();
}

Status SaveMachineLimits(const MachineLimits& limits) {
  if (limits.machine.empty()) return Status::Error("the machine's limits name no machine to be cached under");
  const std::string path = MachineLimitsPath(limits.machine);
  if (path.empty()) return Status::Error("no cache directory for the machine's limits: set EDGEBENCH_CACHE or HOME");
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (ec) return Status::Error("cannot create " + std::filesystem::path(path).parent_path().string() + ": " + ec.message());
  return ReplaceFileContents(path, MachineLimitsToJson(limits).dump(2) + "\n");
}

}  // namespace edgebench
