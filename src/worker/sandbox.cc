#include "worker/sandbox.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace edgebench {
namespace {

// Landlock's ABI (linux/landlock.h), spelled out here so that the worker builds against any
// kernel headers and asks the running kernel what it has.
constexpr uint32_t kCreateRulesetVersion = 1U << 0;
constexpr int kRulePathBeneath = 1;

struct RulesetAttr {
  uint64_t handled_access_fs = 0;
  uint64_t handled_access_net = 0;  // ABI 4
  uint64_t scoped = 0;              // ABI 6
};

struct __attribute__((packed)) PathBeneathAttr {
  uint64_t allowed_access = 0;
  int32_t parent_fd = -1;
};

// Every right that changes the file system, by the ABI that brought it.
constexpr uint64_t kWriteFile = 1ULL << 1;
constexpr uint64_t kRemoveDir = 1ULL << 4, kRemoveFile = 1ULL << 5, kMakeChar = 1ULL << 6, kMakeDir = 1ULL << 7,
                   kMakeReg = 1ULL << 8, kMakeSock = 1ULL << 9, kMakeFifo = 1ULL << 10, kMakeBlock = 1ULL << 11,
                   kMakeSym = 1ULL << 12;
constexpr uint64_t kRefer = 1ULL << 13;     // ABI 2
constexpr uint64_t kTruncate = 1ULL << 14;  // ABI 3
constexpr uint64_t kNetBindTcp = 1ULL << 0, kNetConnectTcp = 1ULL << 1;      // ABI 4
constexpr uint64_t kScopeAbstractUnix = 1ULL << 0, kScopeSignal = 1ULL << 1;  // ABI 6

uint64_t WriteRights(int abi) {
  uint64_t rights = kWriteFile | kRemoveDir | kRemoveFile | kMakeChar | kMakeDir | kMakeReg | kMakeSock | kMakeFifo |
                    kMakeBlock | kMakeSym;
  if (abi >= 2) rights |= kRefer;
  if (abi >= 3) rights |= kTruncate;
  return rights;
}

int LandlockAbi() {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

// The Threads: line of /proc/self/status; 0 when it cannot be read.
int ThreadCount() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  }
  return 0;
}

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

SandboxReport ApplyWorkerSandbox(const std::vector<std::string>& writable) {
  SandboxReport report;
  const char* setting = std::getenv(kWorkerSandboxVariable);
  if (setting != nullptr && std::string(setting) == "off") {
    report.not_applied = std::string(kWorkerSandboxVariable) + "=off: the worker ran with the user's full rights";
    return report;
  }
  report.landlock_abi = LandlockAbi();
  if (report.landlock_abi < 1) {
    report.not_applied = "this kernel has no Landlock (Linux 5.13 and later, with landlock in the LSM list): the "
                         "worker ran with the user's full rights";
    return report;
  }
  if (const int threads = ThreadCount(); threads != 1) {
    report.not_applied = "the worker had " + std::to_string(threads) +
                         " threads before its sandbox (Landlock binds only the threads it is applied to)";
    return report;
  }
  const int abi = report.landlock_abi;
  const uint64_t rights = WriteRights(abi);
  RulesetAttr attr;
  attr.handled_access_fs = rights;
  if (abi >= 4) attr.handled_access_net = kNetBindTcp | kNetConnectTcp;
  if (abi >= 6) attr.scoped = kScopeAbstractUnix | kScopeSignal;
  const size_t attr_size = abi >= 6 ? sizeof(RulesetAttr) : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0));
  if (ruleset < 0) {
    report.not_applied = Errno("landlock_create_ruleset failed");
    return report;
  }
  std::vector<std::string> beneath = writable;
  beneath.push_back("/dev");
  beneath.push_back("/proc");
  for (const std::string& dir : beneath) {
    if (dir.empty()) continue;
    const int fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      report.notes.push_back(Errno("'" + dir + "' is not writable in the sandbox (cannot open it as a directory)"));
      continue;
    }
    PathBeneathAttr rule;
    rule.allowed_access = rights;
    rule.parent_fd = fd;
    const long added = ::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0);
    const int saved = errno;
    ::close(fd);
    if (added != 0) {
      errno = saved;
      report.notes.push_back(Errno("'" + dir + "' is not writable in the sandbox (landlock_add_rule)"));
      continue;
    }
    report.writable.push_back(dir);
  }
  // An empty network namespace where the worker may make one: no network at all, UDP included.
  if (::unshare(CLONE_NEWNET) == 0) {
    report.network_namespace = true;
  } else {
    report.notes.push_back(Errno("no network namespace of its own (unshare)") +
                           (abi >= 4 ? "; TCP is refused by Landlock, other sockets are not"
                                     : "; this Landlock (ABI " + std::to_string(abi) + ") cannot refuse sockets"));
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
    report.not_applied = Errno("landlock_restrict_self failed");
    report.writable.clear();
    ::close(ruleset);
    return report;
  }
  ::close(ruleset);
  report.applied = true;
  report.tcp_refused = abi >= 4;
  report.scoped = abi >= 6;
  return report;
}

std::string SandboxAvailability() {
  const char* setting = std::getenv(kWorkerSandboxVariable);
  if (setting != nullptr && std::string(setting) == "off") {
    return std::string(kWorkerSandboxVariable) + "=off: workers run with your full rights";
  }
  const int abi = LandlockAbi();
  if (abi < 1) return "this kernel has no Landlock: workers run with your full rights (each record says so)";
  return "Landlock ABI " + std::to_string(abi) +
         ": each worker writes only beneath its scratch directory and the outputs its case names" +
         (abi >= 4 ? ", with no TCP" : "") + (abi >= 6 ? ", no signals or abstract sockets outside it" : "") +
         "; no network at all where it may make a network namespace of its own (as root)";
}

}  // namespace edgebench
