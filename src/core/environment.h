// The machine and build a result was measured on, read once per record.
#pragma once

#include <map>
#include <string>

namespace edgebench {

struct Environment {
  std::string edgebench_version;
  std::string hostname;
  std::string os;
  std::string kernel;
  std::string cpu_model;
  int logical_cores = 0;
  std::string cpu_governor;      // "unavailable" when the kernel exposes none
  std::string cpu_max_freq_mhz;  // of cpu0; "unavailable" when not exposed
  std::string compiler;
  std::string build_type;
  bool debug_build = false;
  bool sanitizers = false;
  std::map<std::string, std::string> runtimes;  // backend name -> runtime version
};

Environment ReadEnvironment();

}  // namespace edgebench
