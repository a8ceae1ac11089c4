// The machine and build a result was measured on, read once per record.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace edgebench {

struct Environment {
  std::string edgebench_version;
  std::string edgebench_commit;  // git commit of the build, "+dirty" with local changes; "unknown"
  // The name a fleet gave this machine (`edgebench fleet`: the Ansible inventory name, from the
  // EDGEBENCH_HOST environment variable); empty outside a fleet. Two hosts of a fleet may share a
  // hostname; the inventory name tells them apart in reports and comparisons.
  std::string host;
  std::string hostname;
  std::string architecture;  // uname's machine: x86_64, aarch64...
  std::string os;
  std::string kernel;
  std::string cpu_model;
  // What emulates the CPU ("qemu-user cortex-a76": an arm64 build on an x86-64 kernel), or empty
  // on a native one (core/cpu_emulation.h).
  std::string cpu_emulation;
  int logical_cores = 0;
  // The cores this process may run on (its CPU affinity: taskset, cgroup cpusets); fewer than
  // logical_cores on a machine that reserves cores. 0 when unknown.
  int usable_cores = 0;
  std::string cpu_governor;      // "unavailable" when the kernel exposes none
  std::string cpu_max_freq_mhz;  // the highest of any core; "unavailable" when not exposed
  // ISA features that decide which kernels a runtime picks (AVX2, AVX-512, AMX, NEON, SVE...),
  // as /proc/cpuinfo names them; only the ones that matter for inference kernels.
  std::vector<std::string> cpu_features;
  int64_t memory_total_bytes = 0;
  // 1, 5 and 15 minute load averages when the case started: a busy shared machine explains a
  // bad run. Empty when unreadable.
  std::vector<double> load_average;
  std::string compiler;
  std::string build_type;
  bool debug_build = false;
  bool sanitizers = false;
  std::map<std::string, std::string> runtimes;  // backend name -> runtime version
};

Environment ReadEnvironment();

// The cores this process may run on (its CPU affinity), at least 1: the default thread count of
// the runtimes edgebench sizes itself. A host limited to one core by taskset or a cpuset would
// otherwise get as many threads as the machine has cores, all on that one (seen on a fleet host:
// TFLite's builtin kernels 26 times slower with two threads on one core).
int UsableCores();

// How reports and comparisons name the machine of a record: the fleet's host name when it has
// one, else the hostname.
const std::string& HostName(const Environment& environment);

}  // namespace edgebench
