#include "core/environment.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

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

}  // namespace

Environment ReadEnvironment() {
  Environment env;
  env.edgebench_version = kEdgebenchVersion;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) env.hostname = host;
  env.os = OsName();
  struct utsname uts {};
  if (::uname(&uts) == 0) env.kernel = std::string(uts.sysname) + " " + uts.release + " " + uts.machine;
  env.cpu_model = CpuModel();
  env.logical_cores = static_cast<int>(std::thread::hardware_concurrency());
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

}  // namespace edgebench
