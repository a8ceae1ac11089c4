// Helpers shared by the tests: paths of the built binary and test models, running commands.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backends/registry.h"
#include "record/record.h"
#include "load/finish_record.h"

namespace edgebench::testing {

inline std::string Executable() { return EDGEBENCH_EXECUTABLE; }
// Where the build put the backend plugins (the test binary is not next to them).
inline std::string BackendPluginDir() { return EDGEBENCH_BACKEND_PLUGIN_DIR; }
inline std::string TestModel(const std::string& name) {
  return std::string(EDGEBENCH_TEST_MODELS) + "/" + name;
}

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout (and stderr when merged by the command line)
};

// Runs a shell command line and captures its stdout.
inline CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// A scratch file's path in the test temp directory, unique to this process; `suite` keeps test
// files apart ("npy_", "inputs_").
inline std::string TempFilePath(const std::string& suite, const std::string& name) {
  return ::testing::TempDir() + "edgebench_" + suite + std::to_string(::getpid()) + "_" + name;
}

// Writes `bytes` to TempFilePath(suite, name) and returns the path.
inline std::string WriteTempFile(const std::string& suite, const std::string& name, const std::string& bytes) {
  const std::string path = TempFilePath(suite, name);
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

// Starts edgebench with `args` in a child process, its output discarded, and returns its pid
// (for tests that signal it mid-run); -1 when it cannot fork.
inline pid_t SpawnQuietly(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int null_fd = ::open("/dev/null", O_WRONLY);
  ::dup2(null_fd, STDOUT_FILENO);
  ::dup2(null_fd, STDERR_FILENO);
  std::vector<std::string> all = {Executable()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

// A record with a plausible configuration and the given samples, finished.
// Every record of an AddressSanitizer or ThreadSanitizer build of edgebench is INVALID for that
// alone ("sanitizer build of edgebench"): tests that expect VALID say so instead there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif

// {1, 2, ..., n}.
inline std::vector<int64_t> OneTo(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 1);
  return v;
}

// The records of a `--format json` output (a JSON array); an empty array when it is not one.
inline nlohmann::json JsonRecords(const std::string& output) {
  auto records = nlohmann::json::parse(output, nullptr, false);
  return records.is_discarded() || !records.is_array() ? nlohmann::json::array() : records;
}

// The records of a `--format jsonl` output: every line that is a JSON object, in order.
inline std::vector<nlohmann::json> JsonLineRecords(const std::string& output) {
  std::vector<nlohmann::json> records;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] == '{') records.push_back(nlohmann::json::parse(line));
  }
  return records;
}

// n query latencies (whole ns) drawn lognormal around `median_ns` with relative spread `sigma`,
// the same for a seed: samples a test controls, where a live run's would depend on the machine.
inline std::vector<int64_t> SeededLatencies(uint64_t seed, double median_ns, size_t n = 400, double sigma = 0.05) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> body(std::log(median_ns), sigma);
  std::vector<int64_t> samples(n);
  for (int64_t& s : samples) s = static_cast<int64_t>(body(rng));
  return samples;
}

// Replaces a measured record's samples with seeded draws around `median_ns` (warmup_n, then
// measured_n, issued back to back), drops its monitor section and finishes it again, so that
// the verdicts a test checks are decided on data it controls, not on live sleeps on a busy
// machine. Two draws of `seed` are taken (it is advanced past them).
inline void ReplaceSamplesWithSeeded(Record& record, uint64_t& seed, double median_ns, size_t warmup_n,
                                     size_t measured_n) {
  record.warmup_ns = SeededLatencies(seed++, median_ns, warmup_n);
  record.measured_ns = SeededLatencies(seed++, median_ns, measured_n);
  record.warmup_issue_ns.clear();
  record.measured_issue_ns.clear();
  int64_t issue = 0;
  for (int64_t ns : record.warmup_ns) record.warmup_issue_ns.push_back(issue), issue += ns;
  record.measured_start_ns = issue;
  for (int64_t ns : record.measured_ns) record.measured_issue_ns.push_back(issue), issue += ns;
  record.measured_stream.clear();
  record.measured_service_ns.clear();
  record.measured_wall_ns = issue - record.measured_start_ns;
  record.monitor.reset();
  FinishRecord(record);
}

inline Record MakeRecord(std::vector<int64_t> measured, std::vector<int64_t> warmup = {}) {
  Record r;
  r.id = "test-1";
  r.started_at = "2026-01-01T00:00:00Z";
  r.model = "m";
  r.artifact = "m.onnx";
  r.requested_target = "null:spin";
  r.effective_target = "null:spin";
  r.backend = "null";
  r.device = "spin";
  r.requested_settings.min_queries = static_cast<int64_t>(measured.size());
  r.effective_settings = r.requested_settings;
  r.measured_ns = std::move(measured);
  r.warmup_ns = std::move(warmup);
  r.measured_wall_ns = 1'000'000'000;
  r.stop_reason = "min_queries_and_duration";
  FinishRecord(r);
  return r;
}

}  // namespace edgebench::testing
