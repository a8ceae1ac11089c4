#include "runner/worker_scratch.h"

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "worker/sandbox.h"

extern char** environ;

namespace edgebench {

Result<WorkerScratch> WorkerScratch::Make() {
  std::error_code ec;
  const std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) return Status::Error("no temporary directory for the worker's scratch: " + ec.message() + " (set TMPDIR)");
  std::string pattern = (base / "edgebench-worker-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return Status::Error("cannot make the worker's scratch directory under " + base.string() + ": " +
                         std::strerror(errno) + " (set TMPDIR to a writable directory)");
  }
  return WorkerScratch(pattern);
}

WorkerScratch::~WorkerScratch() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<std::string> WorkerScratch::Environment() const {
  std::vector<std::string> env;
  const std::string scratch_name = std::string(kWorkerScratchVariable) + "=";
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    if (entry.rfind("TMPDIR=", 0) == 0 || entry.rfind(scratch_name, 0) == 0) continue;
    env.push_back(entry);
  }
  env.push_back("TMPDIR=" + path_);
  env.push_back(scratch_name + path_);
  return env;
}

}  // namespace edgebench
