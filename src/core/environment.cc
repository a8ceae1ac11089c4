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
#include "core/cpu_description.h"
#include "core/cpu_emulation.h"
#include "core/version.h"

namespace edgebench {
namespace {

std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "unavailable";
  return line;
}

std::string ReadEnvironmentFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The highest cpuinfo_max_freq of any core: cpu0 is a little core on big.LITTLE SoCs.
std::string CpuMaxFrequencyMhz() {
  long long best_khz = -1;
  for (int cpu = 0; cpu < 4096; ++cpu) {
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
    if (cpu > 0 && ::access(dir.c_str(), F_OK) != 0) break;
    const std::string khz = ReadFirstLine(dir + "/cpufreq/cpuinfo_max_freq");
    if (khz == "unavailable") continue;
    char* end = nullptr;
    const long long value = std::strtoll(khz.c_str(), &end, 10);
    if (end != khz.c_str()) best_khz = std::max(best_khz, value);
  }
  return best_khz < 0 ? "unavailable" : std::to_string(best_khz / 1000);
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
  const std::string cpuinfo = ReadEnvironmentFile("/proc/cpuinfo");
  env.cpu_model = DescribeCpuModel(cpuinfo, ReadEnvironmentFile("/proc/device-tree/model"));
  env.cpu_emulation = ReadCpuEmulation();
  env.logical_cores = static_cast<int>(std::thread::hardware_concurrency());
  env.usable_cores = UsableCores();
  env.cpu_features = ParseCpuFeatures(cpuinfo);
  env.memory_total_bytes = MemoryTotalBytes();
  env.load_average = LoadAverage();
  env.cpu_governor = ReadFirstLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  env.cpu_max_freq_mhz = CpuMaxFrequencyMhz();
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
