// A worker's scratch directory (docs/sandbox.md): made under the orchestrator's temporary
// directory before the worker starts, given to it as TMPDIR and EDGEBENCH_WORKER_SCRATCH (the one
// place outside its request's outputs where its sandbox lets it write), and removed with
// everything in it when the worker has ended, however it ended.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

class WorkerScratch {
 public:
  // mkdtemp("$TMPDIR/edgebench-worker-XXXXXX"), mode 0700.
  static Result<WorkerScratch> Make();
  WorkerScratch(WorkerScratch&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  WorkerScratch& operator=(WorkerScratch&&) = delete;
  WorkerScratch(const WorkerScratch&) = delete;
  ~WorkerScratch();

  const std::string& path() const { return path_; }
  // This process's environment with TMPDIR and EDGEBENCH_WORKER_SCRATCH set to the directory:
  // "NAME=VALUE" strings for execve, built before fork.
  std::vector<std::string> Environment() const;

 private:
  explicit WorkerScratch(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace edgebench
