#include "core/environment.h"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/commit.h"
#include "core/version.h"

namespace edgebench {
namespace {

std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "unavailable";
  return line;
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown";
}

std::string OsName() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string value = line.substr(12);
      if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
      return value;
    }
  }
  return "unknown";
}

// The ISA features of /proc/cpuinfo's "flags" (x86) or "Features" (Arm) line that decide which
// kernels inference runtimes pick.
std::vector<std::string> CpuFeatures() {
  static const char* const kRelevant[] = {
      "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
      "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_int8", "amx_bf16",
      "asimd", "asimdhp", "asimddp", "fphp", "i8mm", "bf16", "sve", "sve2", "sme"};
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0 && line.rfind("Features", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::istringstream words(line.substr(colon + 1));
    std::vector<std::string> present;
    for (std::string w; words >> w;) present.push_back(w);
    std::vector<std::string> features;
    for (const char* f : kRelevant) {
      if (std::find(present.begin(), present.end(), f) != present.end()) features.push_back(f);
    }
    return features;
  }
  return {};
}

int64_t MemoryTotalBytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  int64_t kb = 0;
  while (in >> key >> kb) {
    if (key == "MemTotal:") return kb * 1024;
    in.ignore(256, '\n');
  }
  return 0;
}

std::vector<double> LoadAverage() {
  std::ifstream in("/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  if (!(in >> one >> five >> fifteen)) return {};
  return {one, five, fifteen};
}

}  // namespace

Environment ReadEnvironment() {
  Environment env;
  env.edgebench_version = kEdgebenchVersion;
  env.edgebench_commit = kEdgebenchCommit;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) env.hostname = host;
  if (const char* fleet_host = std::getenv("EDGEBENCH_HOST")) env.host = fleet_host;
  env.os = OsName();
  struct utsname uts {};
  if (::uname(&uts) == 0) {
    env.kernel = std::string(uts.sysname) + " " + uts.release + " " + uts.machine;
    env.architecture = uts.machine;
  }
  env.cpu_model = CpuModel();
  env.logical_cores = static_cast<int>(std::thread::hardware_concurrency());
  env.usable_cores = UsableCores();
  env.cpu_features = CpuFeatures();
  env.memory_total_bytes = MemoryTotalBytes();
  env.load_average = LoadAverage();
  env.cpu_governor = ReadFirstLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  const std::string max_khz = ReadFirstLine("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  env.cpu_max_freq_mhz =
      max_khz == "unavailable" ? max_khz : std::to_string(std::stoll(max_khz) / 1000);
#if defined(__clang__)
  env.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  env.compiler = std::string("gcc ") + __VERSION__;
#else
  env.compiler = "unknown";
#endif
  env.build_type = kEdgebenchBuildType;
#ifdef NDEBUG
  env.debug_build = false;
#else
  env.debug_build = true;
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  env.sanitizers = true;
#endif
  return env;
}

int UsableCores() {
  cpu_set_t affinity;
  CPU_ZERO(&affinity);
  if (::sched_getaffinity(0, sizeof affinity, &affinity) == 0 && CPU_COUNT(&affinity) > 0) {
    return CPU_COUNT(&affinity);
  }
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

const std::string& HostName(const Environment& environment) {
  return environment.host.empty() ? environment.hostname : environment.host;
}

}  // namespace edgebench
