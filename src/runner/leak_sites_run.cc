#include "runner/leak_sites_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "monitor/heaptrack_reader.h"
#include "worker/heap_tracking.h"

namespace edgebench {
namespace {

bool IsFile(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

// Runs `program` with stdin from `in` and stdout into `out` (stderr into `err`), for at most
// `timeout_s`; its exit status, or an error.
Result<int> RunFiltered(const std::string& program, const std::string& in, const std::string& out,
                        const std::string& err, int timeout_s) {
  const int in_fd = ::open(in.c_str(), O_RDONLY | O_CLOEXEC);
  if (in_fd < 0) return Status::Error("cannot read " + in + ": " + std::strerror(errno));
  const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out_fd < 0 || err_fd < 0) {
    const std::string why = std::strerror(errno);
    ::close(in_fd);
    if (out_fd >= 0) ::close(out_fd);
    if (err_fd >= 0) ::close(err_fd);
    return Status::Error("cannot write " + out + ": " + why);
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    const std::string why = std::strerror(errno);
    ::close(in_fd);
    ::close(out_fd);
    ::close(err_fd);
    return Status::Error("cannot start " + program + ": " + why);
  }
  if (pid == 0) {
    ::dup2(in_fd, STDIN_FILENO);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    char* argv[] = {const_cast<char*>(program.c_str()), nullptr};
    ::execv(program.c_str(), argv);
    ::_exit(127);
  }
  ::close(in_fd);
  ::close(out_fd);
  ::close(err_fd);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return Status::Error("lost " + program + ": " + std::strerror(errno));
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return Status::Error(program + " took more than " + std::to_string(timeout_s) + " s and was stopped");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFSIGNALED(status)) return Status::Error(program + " died of signal " + std::to_string(WTERMSIG(status)));
  return WEXITSTATUS(status);
}

}  // namespace

Result<HeapTrackTools> FindHeapTrack() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return Status::Error(
      "--leak-sites: this edgebench is a sanitizer build, whose runtime must come first in its processes; heaptrack's "
      "library cannot be preloaded before it. Use a release build (scripts/build)");
#endif
  std::vector<std::string> dirs;
  if (const char* dir = std::getenv("EDGEBENCH_HEAPTRACK_DIR"); dir != nullptr && *dir != '\0') {
    dirs.push_back(dir);
  } else {
    dirs = {"/usr/lib/heaptrack", "/usr/lib/x86_64-linux-gnu/heaptrack", "/usr/lib/aarch64-linux-gnu/heaptrack",
            "/usr/local/lib/heaptrack"};
  }
  for (const std::string& dir : dirs) {
    HeapTrackTools tools{dir + "/libheaptrack_preload.so", dir + "/libexec/heaptrack_interpret"};
    if (IsFile(tools.preload) && IsFile(tools.interpreter)) return tools;
  }
  std::string looked;
  for (const std::string& dir : dirs) looked += (looked.empty() ? "" : ", ") + dir;
  return Status::Error("--leak-sites needs heaptrack (libheaptrack_preload.so and libexec/heaptrack_interpret), not "
                       "found in " + looked +
                       ": install Debian's heaptrack package, or set EDGEBENCH_HEAPTRACK_DIR to the directory that "
                       "holds them");
}

std::string HeapTrackTracePath(const std::string& scratch) { return scratch + "/heaptrack.raw"; }

std::vector<std::string> HeapTrackEnvironment(const HeapTrackTools& tools, const std::string& trace_path) {
  std::string preload = tools.preload;
  if (const char* user = std::getenv("LD_PRELOAD"); user != nullptr && *user != '\0') preload += std::string(":") + user;
  return {"LD_PRELOAD=" + preload, "DUMP_HEAPTRACK_OUTPUT=" + trace_path, std::string(kHeapTrackingVariable) + "=1",
          std::string(kHeapTrackingTraceVariable) + "=" + trace_path};
}

LeakSites ReadLeakSites(const HeapTrackTools& tools, const std::string& trace_path,
                        const std::vector<std::pair<int64_t, double>>& progress, int timeout_s) {
  LeakSites sites;
  if (!IsFile(trace_path)) {
    sites.reason = "heaptrack wrote no trace (" + trace_path + " is missing): its library did not load in the worker";
    return sites;
  }
  const std::string symbolized = trace_path + ".txt";
  const std::string errors = trace_path + ".err";
  auto status = RunFiltered(tools.interpreter, trace_path, symbolized, errors, timeout_s);
  if (!status.ok()) {
    sites.reason = "heaptrack_interpret: " + status.error();
    return sites;
  }
  if (status.value() != 0) {
    std::ifstream err(errors);
    std::string said(2048, '\0');
    err.read(said.data(), static_cast<std::streamsize>(said.size()));
    said.resize(static_cast<size_t>(err.gcount()));
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
    sites.reason = "heaptrack_interpret exited with " + std::to_string(status.value()) +
                   (said.empty() ? std::string() : ": " + said);
    return sites;
  }
  std::ifstream in(symbolized);
  auto read = ReadHeaptrackSites(in, kHeapTrackingStartFunction, progress);
  if (!read.ok()) {
    sites.reason = read.error();
    return sites;
  }
  return read.take();
}

}  // namespace edgebench
