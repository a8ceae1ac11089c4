#include "runner/worker_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <mutex>

#include "core/clock.h"
#include "core/crash_note.h"
#include "worker/conformance_case.h"
#include "worker/together_cases.h"
#include "core/process_memory.h"
#include "monitor/device_sensors.h"
#include "monitor/sampler.h"
#include "record/monitor_json.h"
#include "worker/intermediates_case.h"
#include "runner/interrupt.h"
#include "runner/worker_scratch.h"
#include "worker/sandbox.h"
#include "runner/leak_sites_run.h"
#include "record/record_monitor.h"
#include "worker/heap_tracking.h"
#include "worker/run_case.h"
#include "worker/token_logits_case.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

void WriteLine(int fd, const std::string& line) {
  std::string data = line + "\n";
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// Streams the scenario's phases to the orchestrator.
class ProtocolObserver : public RunObserver {
 public:
  explicit ProtocolObserver(int fd) : fd_(fd) {}
  void OnPhaseStart(const std::string& phase, int64_t expected_ms) override {
    WriteLine(fd_, nlohmann::json{{"phase", phase}, {"expected_ms", expected_ms}}.dump());
  }
  void OnPhaseEnd(const std::string& phase) override {
    WriteLine(fd_, nlohmann::json{{"phase_end", phase}}.dump());
  }
  void OnProgress(int64_t done, int64_t total) override {
    WriteLine(fd_, nlohmann::json{{"progress", done}, {"of", total}}.dump());
  }

 private:
  int fd_;
};

// With $EDGEBENCH_DEBUG_WORKER_MAPS set, a worker copies its /proc/self/maps there once its
// case has run: what a test reads to check that a worker maps only its case's runtime.
void CopyMapsIfAsked() {
  const char* path = std::getenv(kDebugWorkerMapsVariable);
  if (path == nullptr || *path == '\0') return;
  // Streams, not std::filesystem::copy_file: /proc files report a size of 0.
  std::ifstream maps("/proc/self/maps");
  std::ofstream out(path, std::ios::trunc);
  out << maps.rdbuf();
  if (!out) std::cerr << "edgebench worker: cannot write /proc/self/maps to '" << path << "'\n";
}

// Where a measured case writes: a diffusion's --save-images directory, made here before the
// sandbox goes up (it must exist to be allowed).
std::vector<std::string> CaseWritableDirectories(const CaseSpec& spec) {
  if (!spec.pipeline || spec.pipeline->save_images.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(spec.pipeline->save_images, ec);
  return {spec.pipeline->save_images};
}

// The record keeps what held of the sandbox; a case that failed under it says so, as a write
// the sandbox refused reads as a permission error from the runtime.
void NoteSandbox(Record& record, const SandboxReport& sandbox) {
  record.sandbox = sandbox;
  if (record.status != CaseStatus::kOk && sandbox.applied) {
    record.notes.push_back("the worker ran sandboxed (docs/sandbox.md): " + SandboxSummary(sandbox) +
                           ". A permission error in the failure may be the model writing where it may not");
  }
}

// The protocol of cases sharing this process (worker/together_cases.h): every message names its
// case ("case": I), lines are written whole (one thread at a time), and each case's record is
// sent as it ends ({"case_result": RECORD, "case": I}), so that a crash of the process later
// keeps the records of the cases that had already ended.
class TogetherProtocol {
 public:
  TogetherProtocol(int fd, size_t cases) : fd_(fd) {
    for (size_t i = 0; i < cases; ++i) observers_.push_back(std::make_unique<CaseObserver>(*this, i));
  }
  void Send(const nlohmann::json& message) {
    const std::string line = message.dump();
    std::lock_guard<std::mutex> lock(mutex_);
    WriteLine(fd_, line);
  }
  RunObserver* Observer(size_t index) { return observers_[index].get(); }

 private:
  class CaseObserver : public RunObserver {
   public:
    CaseObserver(TogetherProtocol& protocol, size_t index) : protocol_(protocol), index_(index) {}
    void OnPhaseStart(const std::string& phase, int64_t expected_ms) override {
      protocol_.Send({{"phase", phase}, {"expected_ms", expected_ms}, {"case", index_}});
    }
    void OnPhaseEnd(const std::string& phase) override { protocol_.Send({{"phase_end", phase}, {"case", index_}}); }

   private:
    TogetherProtocol& protocol_;
    size_t index_;
  };
  int fd_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<CaseObserver>> observers_;
};

}  // namespace

Record WorkerDiedRecord(const CaseSpec& spec, const Registry& registry, CaseStatus status, const std::string& stage,
                        const std::string& error, int signal) {
  Record r = MakeBaseRecord(spec, registry);
  r.status = status;
  r.failed_stage = stage.empty() ? "worker" : stage;
  r.error = spec.TargetText() + ": " + error;
  r.signal = signal;
  FinishRecord(r);
  return r;
}

int WorkerMain(Registry& registry, int protocol_fd) {
  // --leak-sites: heaptrack traces nothing until the measured phase (worker/heap_tracking.h).
  StartHeapTracking();
  const std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  const auto json = nlohmann::json::parse(input, nullptr, false);
  if (json.is_discarded()) {
    std::cerr << "edgebench worker: stdin is not a JSON request\n";
    return 2;
  }
  auto announce = [&](const std::string& stage) {
    WriteLine(protocol_fd, nlohmann::json{{"stage", stage}}.dump());
  };
  nlohmann::json result;
  // The modes other than measuring a case: each reads its request, runs it and answers, with
  // the device sampled beside it from start to end when the request asks (RequestWithMonitor).
  const std::string mode = json.value("mode", "measure");
  // The sandbox goes up once the request is read and before anything of the model is: a model
  // can be code (worker/sandbox.h).
  SandboxReport sandbox;
  auto enter_sandbox = [&sandbox](std::vector<std::string> writable) {
    for (const char* variable : {kWorkerScratchVariable, kDebugWorkerMapsVariable}) {
      const char* value = std::getenv(variable);
      if (value == nullptr || *value == '\0') continue;
      // The maps copy is a file a test names: its directory.
      writable.push_back(variable == kWorkerScratchVariable ? std::string(value)
                                                            : std::filesystem::path(value).parent_path().string());
    }
    sandbox = ApplyWorkerSandbox(writable);
  };
  auto serve = [&](auto from_json, auto writable, auto run, auto to_json) {
    auto request = from_json(json);
    if (!request.ok()) {
      std::cerr << "edgebench worker: " << request.error() << "\n";
      return false;
    }
    enter_sandbox(writable(request.value()));
    std::optional<MonitorSettings> monitor;
    if (json.contains("monitor")) {
      try {
        monitor = MonitorSettingsFromJson(json.at("monitor"));
      } catch (const std::exception& e) {
        std::cerr << "edgebench worker: monitor: " << e.what() << "\n";
        return false;
      }
    }
    std::unique_ptr<Sampler> sampler;
    if (monitor && monitor->enabled) {
      SensorRoots roots;
      roots.root = monitor->sysfs_root;
      sampler = std::make_unique<Sampler>(OpenDeviceSensors(roots), monitor->sample_hz);
      sampler->Start();
    }
    result = to_json(run(request.value(), registry, [&](const std::string& stage) {
      if (sampler) sampler->Mark(stage, "start");
      announce(stage);
    }));
    if (monitor) {
      MonitorRecord record{*monitor, monitor->enabled ? "" : "--no-monitor: no device state was sampled", {}, {},
                           std::nullopt};
      if (sampler) record.series = sampler->Finish(0);
      // Only measured cases (run, llm, suites) map the worker's memory.
      if (monitor->memory_map) record.memory_map_reason = "--memory-map maps measured cases only (run, llm, suites)";
      result["monitor"] = MonitorRecordToJson(record);
    }
    return true;
  };
  const auto writes_nothing = [](const auto&) { return std::vector<std::string>{}; };
  if (mode == "intermediates") {
    const auto out_dir = [](const IntermediatesRequest& r) { return std::vector<std::string>{r.out_dir}; };
    if (!serve(IntermediatesRequestFromJson, out_dir, RunIntermediatesCase, IntermediatesResultToJson)) return 2;
  } else if (mode == "accuracy") {
    if (!serve(AccuracyRequestFromJson, writes_nothing, RunAccuracyCase, AccuracyResultToJson)) return 2;
  } else if (mode == "outputs") {
    if (!serve(OutputsRequestFromJson, writes_nothing, RunOutputsCase, OutputsResultToJson)) return 2;
  } else if (mode == "token_logits") {
    // The reference writes the logits file; its directory is the mode's own temporary one.
    const auto logits_dir = [](const TokenLogitsRequest& r) {
      return std::vector<std::string>{std::filesystem::path(r.logits_file).parent_path().string()};
    };
    if (!serve(TokenLogitsRequestFromJson, logits_dir, RunTokenLogitsCase, TokenLogitsResultToJson)) return 2;
  } else if (mode == "together") {
    std::vector<CaseSpec> specs;
    std::vector<std::string> writable;
    for (const auto& c : json.value("cases", nlohmann::json::array())) {
      auto spec = CaseSpecFromJson(c);
      if (!spec.ok()) {
        std::cerr << "edgebench worker: case " << specs.size() + 1 << ": " << spec.error() << "\n";
        return 2;
      }
      for (std::string& dir : CaseWritableDirectories(spec.value())) writable.push_back(std::move(dir));
      specs.push_back(spec.take());
    }
    enter_sandbox(writable);
    TogetherProtocol protocol(protocol_fd, specs.size());
    InstallCrashNoteHandlers(protocol_fd);
    NameCrashingThread(true);
    TogetherCallbacks callbacks;
    callbacks.stage = [&](size_t i, const std::string& stage) { protocol.Send({{"stage", stage}, {"case", i}}); };
    callbacks.observer = [&](size_t i) { return protocol.Observer(i); };
    callbacks.done = [&](size_t i, const Record& record) {
      Record noted = record;
      NoteSandbox(noted, sandbox);
      protocol.Send({{"case_result", RecordToJson(noted)}, {"case", i}});
    };
    RunCasesTogether(specs, registry, callbacks);
    result = {{"together", specs.size()}};
  } else if (mode == "conformance") {
    auto request = ConformanceRequestFromJson(json);
    if (!request.ok()) {
      std::cerr << "edgebench worker: " << request.error() << "\n";
      return 2;
    }
    enter_sandbox({});
    ConformanceCallbacks callbacks;
    callbacks.runtime = [&](const ConformanceRuntime& runtime) {
      WriteLine(protocol_fd, nlohmann::json{{"conformance_runtime",
                                             {{"target", runtime.target},
                                              {"runtime", runtime.runtime},
                                              {"version", runtime.version},
                                              {"error", runtime.error}}}}
                                 .dump());
    };
    callbacks.begin = [&](size_t i) { WriteLine(protocol_fd, nlohmann::json{{"conformance_begin", i}}.dump()); };
    callbacks.cell = [&](size_t i, const ConformanceCell& cell) {
      WriteLine(protocol_fd, nlohmann::json{{"conformance_cell", ConformanceCellToJson(cell)}, {"case", i}}.dump());
    };
    RunConformanceCases(request.value(), registry, callbacks);
    result = {{"conformance", request.value().cases.size()}};
  } else {
    auto spec = CaseSpecFromJson(json);
    if (!spec.ok()) {
      std::cerr << "edgebench worker: " << spec.error() << "\n";
      return 2;
    }
    enter_sandbox(CaseWritableDirectories(spec.value()));
    ProtocolObserver observer(protocol_fd);
    // A pipeline's stages say which of them was running if a runtime takes the worker down.
    if (spec.value().pipeline) InstallCrashNoteHandlers(protocol_fd);
    Record record = RunCase(spec.value(), registry, announce, &observer);
    NoteSandbox(record, sandbox);
    result = RecordToJson(record);
  }
  CopyMapsIfAsked();
  WriteLine(protocol_fd, nlohmann::json{{"result", result}}.dump());
  // Tear the runtimes down while the orchestrator still listens: a runtime that crashes on
  // release is a finding worth a note (ONNX Runtime's oneDNN provider does, seen here).
  announce("release");
  registry.ReleaseBackends();
  WriteLine(protocol_fd, nlohmann::json{{"released", true}}.dump());
  return 0;
}

WorkerOutcome RunWorker(const std::string& executable, const nlohmann::json& request,
                        int64_t timeout_ms, const std::vector<std::string>& extra_args,
                        const WorkerMessageCallback& on_message, int64_t memory_limit_mb,
                        const WorkerWrap* wrap) {
  WorkerOutcome outcome;
  int to_child[2];
  int from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) {
    outcome.status = CaseStatus::kFailed;
    outcome.stage = "worker";
    outcome.message = std::string("cannot create pipes for the worker: ") + std::strerror(errno);
    return outcome;
  }
  // Removed when this function returns, after the worker has been waited for.
  auto scratch = WorkerScratch::Make();
  if (!scratch.ok()) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    ::close(from_child[0]);
    ::close(from_child[1]);
    outcome.status = CaseStatus::kFailed;
    outcome.stage = "worker";
    outcome.message = scratch.error();
    return outcome;
  }
  std::vector<std::string> args = {executable};
  args.insert(args.end(), extra_args.begin(), extra_args.end());  // global flags come first
  args.push_back("worker");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment = scratch.value().Environment();
  if (wrap && wrap->environment) {
    for (std::string& entry : wrap->environment(scratch.value().path())) {
      const std::string name = entry.substr(0, entry.find('=') + 1);
      std::erase_if(environment, [&](const std::string& e) { return e.rfind(name, 0) == 0; });
      environment.push_back(std::move(entry));
    }
  }
  std::vector<char*> envp;
  for (auto& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);

  const std::string stderr_path = wrap ? wrap->stderr_path : std::string();
  const int stderr_flags = O_WRONLY | O_CREAT | O_CLOEXEC | (wrap && wrap->stderr_append ? O_APPEND : O_TRUNC);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    outcome.status = CaseStatus::kFailed;
    outcome.stage = "worker";
    outcome.message = std::string("cannot start a worker process: ") + std::strerror(errno);
    return outcome;
  }
  if (pid == 0) {
    // A worker never outlives its orchestrator: killed with it, it cannot keep a core busy and
    // skew whatever runs next.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    ::dup2(to_child[0], STDIN_FILENO);
    ::dup2(from_child[1], STDOUT_FILENO);
    if (!stderr_path.empty()) {
      const int err = ::open(stderr_path.c_str(), stderr_flags, 0644);
      if (err >= 0) ::dup2(err, STDERR_FILENO);
    }
    ::execve(executable.c_str(), argv.data(), envp.data());
    const char* msg = "edgebench: cannot exec the worker\n";
    (void)!::write(STDERR_FILENO, msg, std::strlen(msg));
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  {
    // The child may die before reading; ignore SIGPIPE for this write.
    struct sigaction ignore {}, previous {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &previous);
    WriteLine(to_child[1], request.dump());
    ::sigaction(SIGPIPE, &previous, nullptr);
  }
  ::close(to_child[1]);

  const int64_t deadline = NowNs() + timeout_ms * 1'000'000;
  std::string buffer;
  std::string& stage = outcome.stage;
  bool timed_out = false;
  bool interrupted = false;
  bool over_memory = false;
  int64_t peak_rss = 0;
  const int64_t limit_bytes = memory_limit_mb * 1024 * 1024;
  int64_t next_heartbeat = NowNs() + 1'000'000'000;
  for (;;) {
    if (limit_bytes > 0) {
      peak_rss = std::max(peak_rss, ReadProcessMemory(pid).rss_bytes);
      if (peak_rss > limit_bytes) {
        over_memory = true;
        break;
      }
    }
    if (InterruptSignal() != 0) {
      interrupted = true;
      break;
    }
    const int64_t left_ms = (deadline - NowNs()) / 1'000'000;
    if (left_ms <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfd{from_child[0], POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left_ms, limit_bytes > 0 ? 50 : 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (on_message && NowNs() >= next_heartbeat) {
        next_heartbeat = NowNs() + 1'000'000'000;
        on_message(nlohmann::json{{"heartbeat", true}});
      }
      continue;
    }
    char chunk[65536];
    const ssize_t n = ::read(from_child[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the worker finished or died
    buffer.append(chunk, static_cast<size_t>(n));
    for (size_t nl; (nl = buffer.find('\n')) != std::string::npos;) {
      const auto message = nlohmann::json::parse(buffer.substr(0, nl), nullptr, false);
      buffer.erase(0, nl + 1);
      if (message.is_discarded()) continue;
      if (message.contains("stage")) stage = message["stage"].get<std::string>();
      if (message.contains("result")) outcome.result = message["result"];
      if (message.contains("released")) outcome.released = true;
      if (on_message) on_message(message);
    }
  }
  ::close(from_child[0]);
  if (timed_out || interrupted || over_memory) ::kill(pid, SIGKILL);
  int wait_status = 0;
  while (::waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  if (wrap && wrap->after) wrap->after(scratch.value().path(), outcome);

  if (over_memory) {
    outcome.result.reset();
    outcome.status = CaseStatus::kOom;
    outcome.signal = SIGKILL;
    outcome.message = "the worker's resident memory reached " + std::to_string(peak_rss / (1024 * 1024)) +
                      " MiB during stage '" + stage + "', over the case's limit of " +
                      std::to_string(memory_limit_mb) + " MiB; it was killed. Raise --case-memory if the " +
                      "model needs more";
  } else if (interrupted) {
    outcome.result.reset();
    outcome.status = CaseStatus::kFailed;
    outcome.stage = "interrupted";
    outcome.message = "edgebench was interrupted (signal " + std::to_string(InterruptSignal()) +
                      "); the case's worker was stopped";
  } else if (timed_out) {
    outcome.result.reset();
    outcome.status = CaseStatus::kTimeout;
    outcome.signal = SIGKILL;
    outcome.message = "no result within " + std::to_string(timeout_ms) + " ms (stage '" + stage +
                      "'); the worker was killed. Raise --timeout if the model is this slow";
  } else if (WIFSIGNALED(wait_status) && outcome.result) {
    // The case finished and answered; the runtime crashed while being released.
    const int sig = WTERMSIG(wait_status);
    outcome.after_result = "after the case finished, the worker died on " + SignalText(sig) + " " +
                           (outcome.released ? "while the process exited (static teardown)"
                                             : "while releasing the runtime") +
                           "; the results are kept";
  } else if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    outcome.result.reset();
    outcome.status = CaseStatus::kCrashed;
    outcome.signal = sig;
    outcome.message = "the worker died on " + SignalText(sig) + " during stage '" + stage + "'";
    if (sig == SIGKILL) {
      outcome.message += "; killed from outside edgebench: the kernel's OOM killer does this when the machine runs "
                         "out of memory (see dmesg), or another process did";
    }
  } else if (!outcome.result) {
    const int code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
    outcome.status = CaseStatus::kFailed;
    outcome.message = "the worker exited with code " + std::to_string(code) + " during stage '" +
                      stage + "' without a result";
  }
  return outcome;
}

Record RunCaseInWorker(const std::string& executable, const CaseSpec& spec,
                       const Registry& registry, const std::vector<std::string>& extra_args,
                       const WorkerMessageCallback& on_message) {
  // The scenario's own length decides the timeout (a soak:30m case gets more than 30 minutes),
  // as planning settled it: never re-derived from the requested settings alone.
  auto effective = EffectiveSettingsOf(spec);
  const int64_t timeout_ms = effective.ok() ? effective.value().case_timeout_ms : spec.settings.case_timeout_ms;
  const int64_t memory_mb = effective.ok() ? effective.value().case_memory_mb : spec.settings.case_memory_mb;
  // --leak-sites: the worker under heaptrack, its trace read once it has ended.
  std::optional<HeapTrackTools> heaptrack;
  std::optional<LeakSites> leak_sites;
  WorkerWrap wrap;
  if (spec.monitor.leak_sites && spec.monitor.enabled) {
    auto found = FindHeapTrack();
    if (found.ok()) {
      heaptrack = found.take();
      wrap.environment = [&](const std::string& scratch) {
        return HeapTrackEnvironment(*heaptrack, HeapTrackTracePath(scratch));
      };
      wrap.after = [&](const std::string& scratch, const WorkerOutcome& ended) {
        // The sites are fitted against the queries completed, from the worker's record.
        std::vector<std::pair<int64_t, double>> progress;
        if (ended.result) {
          if (auto record = RecordFromJson(*ended.result); record.ok()) progress = QueryProgress(record.value());
        }
        leak_sites = ReadLeakSites(*heaptrack, HeapTrackTracePath(scratch), progress);
      };
    } else {
      leak_sites = LeakSites{};
      leak_sites->reason = found.error();
    }
  }
  WorkerOutcome outcome =
      RunWorker(executable, CaseSpecToJson(spec), timeout_ms, extra_args, on_message, memory_mb, &wrap);
  if (outcome.result) {
    auto record = RecordFromJson(*outcome.result);
    if (record.ok()) {
      if (!outcome.after_result.empty()) record.value().notes.push_back(outcome.after_result);
      if (leak_sites && record.value().monitor) {
        record.value().monitor->leak_sites = std::move(leak_sites);
        FinishMonitor(record.value());
      }
      return record.take();
    }
    return WorkerDiedRecord(spec, registry, CaseStatus::kFailed, "worker",
                "the worker's record was unreadable: " + record.error(), 0);
  }
  return WorkerDiedRecord(spec, registry, outcome.status, outcome.stage, outcome.message, outcome.signal);
}

nlohmann::json RequestWithMonitor(nlohmann::json request, const MonitorSettings& monitor) {
  request["monitor"] = MonitorSettingsToJson(monitor);
  return request;
}

std::optional<MonitorRecord> AnswerMonitor(const WorkerOutcome& outcome, const MonitorSettings& asked) {
  if (outcome.result && outcome.result->contains("monitor")) {
    try {
      return MonitorRecordFromJson(outcome.result->at("monitor"));
    } catch (const std::exception& e) {
      return MonitorRecord{asked, std::string("the worker's monitor series was unreadable: ") + e.what(), {}, {},
                           std::nullopt};
    }
  }
  if (!asked.enabled) return MonitorRecord{asked, "--no-monitor: no device state was sampled", {}, {}, std::nullopt};
  return MonitorRecord{asked, "the worker ended before it reported its samples", {}, {}, std::nullopt};
}

}  // namespace edgebench
