#include "runner/mix_run.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <functional>
#include <memory>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/clock.h"
#include "monitor/device_sensors.h"
#include "monitor/sampler.h"
#include "plan/plan_file.h"
#include "report/store.h"
#include "runner/mix_together.h"

extern char** environ;

namespace edgebench {
namespace {

std::string Milliseconds(int64_t ms) { return std::to_string(ms); }

std::string Decimal(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

// Starts argv with stdout and stderr into files of `dir`; the pid, or an error.
Result<pid_t> Start(const std::vector<std::string>& argv, const std::string& dir) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string out = dir + "/stdout.txt";
  const std::string err = dir + "/stderr.txt";
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return Status::Error("cannot start '" + argv[0] + "': " + std::strerror(rc));
  return pid;
}

int ExitCode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// Waits for every pid of `running` (pid, index), in whichever order they end, and calls
// `ended(index, exit code)` as each does, so that each end is timed when it happens.
void WaitForAll(std::vector<std::pair<pid_t, size_t>> running, const std::function<void(size_t, int)>& ended) {
  while (!running.empty()) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      for (const auto& [unused, index] : running) ended(index, -1);  // no child left to wait for
      return;
    }
    const auto it = std::find_if(running.begin(), running.end(), [&](const auto& r) { return r.first == pid; });
    if (it == running.end()) continue;  // not one of this phase's
    ended(it->second, ExitCode(status));
    running.erase(it);
  }
}

// The machine's channels of a series the mix's own process read: its own memory and CPU time
// (an idle parent's) are left out.
MonitorSeries MachineChannels(const MonitorSeries& s) {
  auto own = [](ChannelKind kind) {
    return kind == ChannelKind::kRss || kind == ChannelKind::kRssPeak || kind == ChannelKind::kProcessCpu;
  };
  MonitorSeries out = s;
  out.channels.clear();
  out.values.clear();
  out.failures.clear();
  std::vector<std::optional<size_t>> index(s.channels.size());
  for (size_t c = 0; c < s.channels.size(); ++c) {
    if (own(s.channels[c].kind)) continue;
    index[c] = out.channels.size();
    out.channels.push_back(s.channels[c]);
    out.values.push_back(c < s.values.size() ? s.values[c] : std::vector<std::optional<double>>(s.t_ns.size()));
  }
  for (const ChannelFailure& f : s.failures) {
    if (f.channel < index.size() && index[f.channel]) out.failures.push_back({*index[f.channel], f.t_ns, f.error});
  }
  return out;
}

// Plans `argv`'s case into `plan_path` (its command with --plan-out), waiting for it: the one
// case a workload runs, or why it cannot run beside others in one process.
Result<CaseSpec> PlanWorkload(std::vector<std::string> argv, const std::string& dir, int& exit_code) {
  const std::string plan_path = dir + "/plan.jsonl";
  argv.insert(argv.end(), {"--plan-out", plan_path});
  auto pid = Start(argv, dir);
  if (!pid.ok()) return pid.status();
  int status = 0;
  while (::waitpid(pid.value(), &status, 0) < 0 && errno == EINTR) {
  }
  exit_code = ExitCode(status);
  if (exit_code != 0) {
    return Status::Error("planning it exited with code " + std::to_string(exit_code) + " (its stderr: " + dir +
                         "/stderr.txt)");
  }
  auto planned = ReadPlanFile(plan_path);
  if (!planned.ok()) return planned.status();
  if (planned.value().size() != 1) {
    return Status::Error("it planned " + std::to_string(planned.value().size()) +
                         " cases; a workload sharing a process runs one");
  }
  PlanFileCase& c = planned.value().front();
  if (!c.skip_reason.empty()) return Status::Error("its case would be skipped: " + c.skip_reason);
  if (!c.not_a_scenario.empty()) return Status::Error("it cannot share a process: " + c.not_a_scenario);
  return std::move(c.spec);
}

}  // namespace

std::vector<std::string> MixWorkloadArguments(const MixSpec& mix, const MixWorkload& w, const std::string& executable,
                                              const std::string& out_dir, bool no_monitor) {
  std::vector<std::string> a = {executable};
  if (w.kind == "llm") {
    const int64_t requests = std::max<int64_t>(
        1, static_cast<int64_t>(std::ceil(static_cast<double>(mix.duration_ms) / 1000.0 / w.every_s)));
    a.insert(a.end(), {"llm", w.path, "-t", w.target, "--rate", Decimal(1.0 / w.every_s), "--arrivals", w.arrivals,
                       "-r", std::to_string(requests), "-n", std::to_string(w.gen)});
    if (w.images.empty()) {
      a.insert(a.end(), {"-p", std::to_string(w.prompt)});
    } else {  // images plus a text: the prompt's length is theirs
      a.insert(a.end(), {"--mmproj", w.mmproj, "--prompt-text", w.prompt_text});
      for (const std::string& image : w.images) a.insert(a.end(), {"--image", image});
    }
  } else {
    a.insert(a.end(), {"run", w.path});
    if (w.kind == "model") a.insert(a.end(), {"-t", w.target});
    for (const std::string& stage : w.stages) a.insert(a.end(), {"--stage", stage});
    a.insert(a.end(), {"--scenario", w.scenario, "--min-duration", Milliseconds(mix.duration_ms), "--max-duration",
                       Milliseconds(mix.duration_ms * 3 / 2), "--min-queries", "1"});
  }
  // The others are the load this workload is measured under, not a busy machine to refuse.
  a.insert(a.end(), {"--allow-busy", "--out", out_dir, "--format", "json"});
  if (no_monitor) a.push_back("--no-monitor");
  return a;
}

Result<std::vector<MixProcess>> RunMix(const MixSpec& mix, const MixRunOptions& options) {
  std::vector<MixProcess> processes;
  auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  // Starts the workloads of one phase together and waits for all of them.
  int round = 1;
  // Each process's folder: PHASE/WORKLOAD, under round-K/ when the mix has rounds.
  auto folder = [&](const std::string& phase, const std::string& workload) {
    return options.work_dir + (mix.rounds > 1 ? "/round-" + std::to_string(round) : "") + "/" + phase + "/" + workload;
  };
  // A workload's process in a phase, before it starts: its folder made afresh, its command line
  // (storing into the folder) and its log.
  auto prepare = [&](const std::string& phase, const MixWorkload& w) -> Result<MixProcess> {
    MixProcess p;
    p.workload = w.name;
    p.phase = phase;
    p.round = round;
    const std::string dir = folder(phase, w.name);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::Error("cannot make '" + dir + "': " + ec.message());
    p.argv = MixWorkloadArguments(mix, w, options.executable, dir + "/store", options.no_monitor);
    p.log_path = dir + "/stderr.txt";
    return p;
  };
  auto run_phase = [&](const std::string& phase, const std::vector<const MixWorkload*>& workloads) -> Status {
    std::vector<std::pair<pid_t, size_t>> running;
    const bool together = phase == "mixed" && mix.isolation == "together";
    // isolation: together: each workload planned by its own command first (outside the phase).
    std::vector<TogetherWorkload> shared;
    std::vector<size_t> shared_process;  // each shared workload's index in `processes`
    const size_t first_process = processes.size();
    if (together && !options.registry) return Status::Error("isolation: together needs the registry (MixRunOptions)");
    if (together) {
      for (const MixWorkload* w : workloads) {
        auto prepared = prepare(phase, *w);
        if (!prepared.ok()) return prepared.status();
        MixProcess p = prepared.take();
        const std::string dir = folder(phase, w->name);
        auto spec = PlanWorkload(p.argv, dir, p.exit_code);
        if (!spec.ok()) {
          say(phase + " " + w->name + ": cannot join the shared process: " + spec.error());
          if (p.exit_code == 0) p.exit_code = 2;
          processes.push_back(std::move(p));
          continue;
        }
        shared.push_back({w->name, spec.take()});
        shared_process.push_back(processes.size());
        processes.push_back(std::move(p));
      }
    }
    // The machine, read once over the mixed phase by this process.
    std::unique_ptr<Sampler> machine;
    if (phase == "mixed" && !options.no_monitor) {
      machine = std::make_unique<Sampler>(OpenDeviceSensors(SensorRoots{}), MonitorSettings{}.sample_hz);
      machine->Start();
    }
    const int64_t phase_start = NowNs();
    if (together) {
      for (size_t i = first_process; i < processes.size(); ++i) processes[i].phase_start_ns = phase_start;
      if (!shared.empty()) {
        const std::string dir = folder(phase, "together");
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        const int64_t start = NowNs();
        TogetherOutcome outcome = RunWorkloadsTogether(options.executable, shared, *options.registry, dir + "/stderr.txt");
        const int64_t end = NowNs();
        for (size_t k = 0; k < shared.size(); ++k) {
          MixProcess& p = processes[shared_process[k]];
          p.argv = {options.executable, "worker", "(isolation: together)"};
          p.log_path = dir + "/stderr.txt";
          p.start_ns = start;
          p.end_ns = end;
          p.exit_code = outcome.exit_code;
          p.records = {std::move(outcome.records[k])};
        }
      }
    }
    for (const MixWorkload* w : together ? std::vector<const MixWorkload*>{} : workloads) {
      auto prepared = prepare(phase, *w);
      if (!prepared.ok()) return prepared.status();
      MixProcess p = prepared.take();
      p.phase_start_ns = phase_start;
      p.start_ns = NowNs();
      auto pid = Start(p.argv, folder(phase, w->name));
      if (!pid.ok()) {  // the ones already started are stopped, not left behind
        for (const auto& [started, unused] : running) ::kill(started, SIGTERM);
        WaitForAll(running, [](size_t, int) {});
        return pid.status();
      }
      running.emplace_back(pid.value(), processes.size());
      processes.push_back(std::move(p));
    }
    WaitForAll(running, [&](size_t index, int exit_code) {
      processes[index].exit_code = exit_code;
      processes[index].end_ns = NowNs();
    });
    std::optional<MonitorRecord> machine_record;
    if (machine) {
      machine_record = MonitorRecord{};
      machine_record->series = MachineChannels(machine->Finish(phase_start));
    }
    for (size_t index = first_process; index < processes.size(); ++index) {
      MixProcess& p = processes[index];
      const std::string store = folder(phase, p.workload) + "/store/results.jsonl";
      std::error_code ec;
      if (!together && std::filesystem::exists(store, ec)) {
        auto records = ReadRecords(store);
        if (records.ok()) p.records = std::move(records.value());
      }
      MixTag tag;
      tag.mix = mix.name;
      tag.run = options.run_id;
      tag.workload = p.workload;
      tag.phase = phase;
      tag.round = round;
      tag.phase_start_ns = p.phase_start_ns;
      tag.process_start_ns = p.start_ns;
      tag.process_end_ns = p.end_ns;
      tag.exit_code = p.exit_code;
      tag.isolation = together ? "together" : "processes";
      for (const MixWorkload* w : workloads) {
        if (w->name == p.workload) tag.objectives = w->objectives;
      }
      if (phase == "mixed") {
        for (const MixWorkload* other : workloads) {
          if (other->name != p.workload) tag.beside.push_back(other->name);
        }
      }
      for (Record& r : p.records) r.mix = tag;
      if (machine_record && !p.records.empty()) {  // on the first of the phase's records only
        p.records.front().mix->machine = std::move(machine_record);
        machine_record.reset();
      }
      say(phase + " " + p.workload + ": exit " + std::to_string(p.exit_code) + ", " + std::to_string(p.records.size()) +
          " record(s)");
    }
    return Status::Ok();
  };
  std::vector<const MixWorkload*> all;
  for (const MixWorkload& w : mix.workloads) all.push_back(&w);
  auto alone = [&]() -> Status {
    for (const MixWorkload* w : all) {
      say("alone: " + w->name + " for " + std::to_string(mix.duration_ms / 1000) + " s");
      if (Status s = run_phase("alone", {w}); !s.ok()) return s;
    }
    return Status::Ok();
  };
  for (round = 1; round <= mix.rounds; ++round) {
    // The order alternates from round to round, so that drift over the run weighs on both.
    const bool alone_first = (mix.alone == "before") == (round % 2 == 1);
    if (mix.rounds > 1) say("round " + std::to_string(round) + " of " + std::to_string(mix.rounds));
    if (mix.alone != "none" && alone_first) {
      if (Status s = alone(); !s.ok()) return s;
    }
    say("mixed: " + std::to_string(all.size()) + " workloads at once for " + std::to_string(mix.duration_ms / 1000) +
        " s");
    if (Status s = run_phase("mixed", all); !s.ok()) return s;
    if (mix.alone != "none" && !alone_first) {
      if (Status s = alone(); !s.ok()) return s;
    }
  }
  return processes;
}

std::vector<MixInterference> JudgeMix(const MixSpec& mix, const std::vector<MixProcess>& processes) {
  std::vector<MixWorkloadObjectives> workloads;
  for (const MixWorkload& w : mix.workloads) workloads.push_back({w.name, w.objectives});
  std::vector<const Record*> records;
  for (const MixProcess& p : processes) {
    if (!p.records.empty()) records.push_back(&p.records.front());
  }
  return JudgeMixRecords(workloads, records);
}

}  // namespace edgebench
