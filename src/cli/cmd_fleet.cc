// `edgebench fleet INVENTORY SUITE --out DIR`: one suite on every host of an Ansible inventory.
// A thin front to ansible/fleet.yml, which does the work (docs/fleet.md): this command reads the
// suite (every mistake reported before anything runs), lists what each host needs (the build
// beside this executable, every model file) in DIR/.fleet/vars.json, runs ansible-playbook with
// it, and reads back what each host answered: its store in DIR/HOST/results.jsonl, what it is in
// DIR/HOST/host.json, and how its run ended in DIR/HOST/fleet-status.json.
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <set>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "fleet/fleet_files.h"
#include "fleet/fleet_outcome.h"
#include "fleet/ssh_inventory.h"
#include "plan/suite_file.h"

namespace edgebench {
namespace {

namespace fs = std::filesystem;

// Ansible's default ssh arguments (-C, a control master kept 60 s) and keepalives every 5 s, 3
// unanswered ones ending the connection: a lost host is known within about 15 s.
constexpr const char* kFleetSshArgs =
    "-C -o ControlMaster=auto -o ControlPersist=60s -o ServerAliveInterval=5 -o ServerAliveCountMax=3";

struct FleetOptions {
  std::string ssh;  // --ssh [USER@]HOST[:PORT]: a one-host inventory instead of a file
  std::string inventory;
  std::string suite;
  std::string out_dir;
  std::string playbook;
  std::string limit;
  std::vector<std::string> builds;  // --build ARCH=EXECUTABLE, for hosts of another architecture
  int forks = 0;
};

// Each host architecture's edgebench executable: this one for its own, and each --build
// ARCH=EXECUTABLE (checked: the file is an ELF executable for ARCH). A host of an architecture
// without one is refused by the playbook, its status saying which --build it needs.
Result<std::map<std::string, std::string>> FleetExecutables(const std::string& running,
                                                            const std::vector<std::string>& builds) {
  std::map<std::string, std::string> executables;
  auto own = ExecutableArchitecture("/proc/self/exe");
  if (!own.ok()) return Status::Error("cannot tell this edgebench's own architecture: " + own.error());
  executables[own.value()] = running;
  std::set<std::string> given;
  for (const std::string& b : builds) {
    const size_t eq = b.find('=');
    const std::string arch = CanonicalArchitecture(eq == std::string::npos ? "" : b.substr(0, eq));
    if (eq == std::string::npos || arch.empty() || eq + 1 == b.size()) {
      return Status::Error("--build '" + b + "': give ARCH=EXECUTABLE, ARCH one of x86_64 (amd64), aarch64 (arm64), "
                           "riscv64, armv7l, i386 as Ansible names a host's architecture, e.g. --build "
                           "aarch64=build-arm64/edgebench");
    }
    if (!given.insert(arch).second) return Status::Error("--build names " + arch + " twice");
    const std::string executable = b.substr(eq + 1);
    auto found = ExecutableArchitecture(executable);
    if (!found.ok()) return Status::Error("--build " + b + ": " + found.error());
    if (found.value() != arch) {
      return Status::Error("--build " + b + ": '" + executable + "' is an edgebench for " + found.value() + ", not " +
                           arch + " (scripts/test-arm64 makes the arm64 build in build-arm64/)");
    }
    executables[arch] = executable;
  }
  return executables;
}

// The first executable NAME on PATH; empty when there is none.
std::string FindOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return "";
}

// --playbook, else ansible/fleet.yml of the source tree this build came from (beside its build
// directory), else the path compiled in.
std::string DefaultPlaybook(const std::string& executable) {
  std::error_code ec;
  const fs::path beside = fs::canonical(executable, ec).parent_path().parent_path() / "ansible" / "fleet.yml";
  if (!ec && fs::is_regular_file(beside, ec)) return beside.string();
  return EDGEBENCH_FLEET_PLAYBOOK;
}

// Runs ansible-playbook, its output forwarded to stderr (stdout is this command's tables);
// returns its exit status, or -1 with `error` set when it could not start. The output goes
// through a pipe that is read until ansible-playbook exits, not until every writer closes it:
// ssh's ControlPersist masters, which Ansible leaves behind for a minute, inherit it, and would
// otherwise hold the caller's stderr (a pipeline, a test's pipe) open after the run.
int RunAnsible(const std::string& program, const std::vector<std::string>& args,
               const std::vector<std::pair<std::string, std::string>>& environment, std::string& error) {
  std::vector<std::string> all = {program};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  int output[2];
  if (::pipe2(output, O_CLOEXEC) != 0) {
    error = std::string("cannot make a pipe for ansible-playbook's output: ") + std::strerror(errno);
    return -1;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("cannot start ansible-playbook: ") + std::strerror(errno);
    ::close(output[0]);
    ::close(output[1]);
    return -1;
  }
  if (pid == 0) {
    for (const auto& [name, value] : environment) ::setenv(name.c_str(), value.c_str(), 1);
    ::dup2(output[1], STDOUT_FILENO);
    ::dup2(output[1], STDERR_FILENO);
    ::execv(program.c_str(), argv.data());
    const std::string message = "edgebench fleet: cannot run " + program + ": " + std::strerror(errno) + "\n";
    (void)!::write(STDERR_FILENO, message.data(), message.size());
    ::_exit(127);
  }
  ::close(output[1]);
  auto forward = [&](int timeout_ms) {
    pollfd p{output[0], POLLIN, 0};
    while (::poll(&p, 1, timeout_ms) > 0 && (p.revents & (POLLIN | POLLHUP))) {
      char buffer[8192];
      const ssize_t n = ::read(output[0], buffer, sizeof buffer);
      if (n <= 0) return false;  // every writer closed it
      (void)!::write(STDERR_FILENO, buffer, static_cast<size_t>(n));
      timeout_ms = 0;
    }
    return true;
  };
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (!forward(200)) {
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
  }
  forward(0);  // what it wrote last
  ::close(output[0]);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

Status WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status::Error("cannot write " + path.string() + ": " + std::strerror(errno));
  return Status::Ok();
}

int Fleet(const FleetOptions& asked, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench fleet: " << message << "\n";
    return 2;
  };
  std::error_code ec;
  FleetOptions o = asked;
  std::optional<SshDestination> ssh;
  if (!o.ssh.empty()) {
    // One positional argument: the suite.
    if (!o.suite.empty()) {
      return fail("with --ssh, give only the suite: edgebench fleet --ssh " + o.ssh + " SUITE --out DIR (the "
                  "inventory is made from --ssh)");
    }
    o.suite = o.inventory;
    auto parsed = ParseSshDestination(o.ssh);
    if (!parsed.ok()) return fail(parsed.error());
    ssh = parsed.take();
  } else if (o.suite.empty()) {
    return fail("give an inventory and a suite (edgebench fleet INVENTORY SUITE --out DIR), or one host and the "
                "suite (edgebench fleet --ssh USER@HOST SUITE --out DIR)");
  }
  if (!ssh && !fs::exists(o.inventory, ec)) {
    return fail("the inventory '" + o.inventory + "' does not exist (an Ansible inventory: INI or YAML file, or "
                "a directory of them)");
  }
  SuiteReadOptions read_options;
  read_options.known_backends = context.registry.Names();
  read_options.relocate = [](const std::string& resolved) { return FleetHostModelPath(resolved); };
  auto suite = ReadSuiteFile(o.suite, read_options);
  if (!suite.ok()) return fail(suite.error());
  const std::string ansible = FindOnPath("ansible-playbook");
  if (ansible.empty()) {
    return fail("ansible-playbook is not on PATH: install Ansible (Debian's ansible-core); fleet drives it to "
                "reach the hosts");
  }
  const std::string playbook = o.playbook.empty() ? DefaultPlaybook(context.executable) : o.playbook;
  if (!fs::is_regular_file(playbook, ec)) {
    return fail("the playbook '" + playbook + "' does not exist; give ansible/fleet.yml of edgebench's source tree "
                "with --playbook");
  }
  // The wheel runtimes go only where the suite's targets need them (OpenVINO's alone is 160 MB).
  std::set<std::string> backends;
  for (const Target& t : suite.value().targets) backends.insert(t.backend);
  auto executables = FleetExecutables(context.executable, o.builds);
  if (!executables.ok()) return fail(executables.error());
  nlohmann::json builds = nlohmann::json::object();
  for (const auto& [arch, executable] : executables.value()) {
    auto build_files = FleetBuildFiles(executable, backends);
    if (!build_files.ok()) return fail("the " + arch + " build: " + build_files.error());
    nlohmann::json& files = builds[arch] = nlohmann::json::array();
    for (const FleetFile& f : build_files.value()) files.push_back({{"src", f.src}, {"dest", f.dest}, {"mode", f.mode}});
  }

  const fs::path out = fs::absolute(o.out_dir).lexically_normal();
  const fs::path work = out / ".fleet";
  fs::create_directories(work, ec);
  if (ec) return fail("cannot create " + work.string() + ": " + ec.message());

  nlohmann::json models = nlohmann::json::array();
  int64_t model_bytes = 0;
  for (const FleetFile& f : FleetModelFiles(suite.value().model_files)) {
    models.push_back({{"src", f.src}, {"dest", f.dest}});
    model_bytes += static_cast<int64_t>(fs::file_size(f.src, ec));
  }
  if (ssh) {
    o.inventory = (work / "ssh-inventory.ini").string();
    if (Status s = WriteFile(o.inventory, SshShortcutInventory(*ssh)); !s.ok()) return fail(s.message());
  }
  const fs::path host_suite = work / "host-suite.yaml";
  const fs::path vars = work / "vars.json";
  const nlohmann::json variables = {{"edgebench_out", out.string()},
                                    {"edgebench_builds", builds},
                                    {"edgebench_model_files", models},
                                    {"edgebench_host_suite", host_suite.string()}};
  for (const auto& [path, text] : {std::pair{host_suite, suite.value().relocated_yaml},
                                   std::pair{vars, variables.dump(2) + "\n"}}) {
    if (Status s = WriteFile(path, text); !s.ok()) return fail(s.message());
  }

  std::vector<std::string> args = {"-i", o.inventory, playbook, "-e", "@" + vars.string()};
  if (o.forks > 0) args.insert(args.end(), {"--forks", std::to_string(o.forks)});
  if (!o.limit.empty()) args.insert(args.end(), {"--limit", o.limit});
  std::cerr << "edgebench fleet: suite " << suite.value().name << " (" << suite.value().models.size() << " models, "
            << models.size() << " files, " << model_bytes / 1024 << " KiB) on the hosts of " << o.inventory
            << " through " << playbook << "; Ansible's log: " << (work / "ansible.log").string() << "\n";
  const auto start_time = fs::file_time_type::clock::now();
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, std::string>> environment = {
      {"ANSIBLE_LOG_PATH", (work / "ansible.log").string()}, {"ANSIBLE_RETRY_FILES_ENABLED", "false"}};
  // A host that stops answering mid-suite (powered off, killed, cut off) must be reported lost,
  // not waited on for ever: without keepalives ssh waits on a dead connection (seen: a host
  // killed mid-suite, its ProxyCommand's nc left holding the pipe). Ansible's default ssh
  // arguments plus keepalives, unless the caller set ANSIBLE_SSH_ARGS.
  if (std::getenv("ANSIBLE_SSH_ARGS") == nullptr) {
    environment.emplace_back("ANSIBLE_SSH_ARGS", kFleetSshArgs);
  }
  std::string error;
  const int rc = RunAnsible(ansible, args, environment, error);
  if (rc < 0) return fail(error);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // A second of slack: a file system's timestamps may be coarser than the clock's.
  const auto outcomes = ReadFleetOutcomes(out.string(), start_time - std::chrono::seconds(1));
  if (outcomes.empty()) {
    return fail("ansible-playbook exited " + std::to_string(rc) + " without reaching any host (its messages are "
                "above and in " + (work / "ansible.log").string() + ")");
  }
  std::cout << "Fleet: " << outcomes.size() << " hosts, " << static_cast<int64_t>(seconds + 0.5)
            << " s (ansible-playbook exited " << rc << ")\n\n"
            << FleetOutcomeTable(outcomes) << "\n"
            << FleetCaseTable(outcomes) << "\nStores: " << out.string() << "/HOST/results.jsonl; "
            << "one report of every host: edgebench report " << out.string() << "/*/\n";
  bool all_ok = true;
  for (const FleetHostOutcome& h : outcomes) {
    all_ok = all_ok && h.state == FleetHostState::kOk;
    for (const std::string& w : h.store_warnings) std::cerr << "edgebench fleet: " << h.host << ": " << w << "\n";
  }
  return all_ok ? 0 : 1;
}

}  // namespace

void AddFleetCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<FleetOptions>();
  CLI::App* cmd = app.add_subcommand("fleet", "run a suite on every host of an Ansible inventory, stores brought home");
  cmd->footer(
      "Drives ansible-playbook (ansible/fleet.yml, which can also be run by hand: docs/fleet.md). Every host gets "
      "this edgebench build and the suite's model files (copied with checksums: unchanged files are not sent "
      "again), runs the suite with --resume under EDGEBENCH_HOST=its inventory name (in every record's "
      "environment), and its store comes home to DIR/HOST/results.jsonl, with DIR/HOST/host.json (what the host "
      "is and `edgebench devices` there). Hosts run in parallel; a host that fails or cannot be reached is "
      "reported with Ansible's reason and the others finish. Run the same command again to resume: each host "
      "continues where its store stopped.\n"
      "Exit status: 0 when every host ran its suite with every case measured, 1 when any host failed, could not "
      "be reached or had cases that did not measure, 2 for bad arguments or when Ansible reached no host.");
  cmd->add_option("inventory", o->inventory, "an Ansible inventory (INI or YAML); with --ssh, the suite instead")
      ->required();
  cmd->add_option("suite", o->suite, "the suite file (docs/suites.md)");
  cmd->add_option("--ssh", o->ssh,
                  "one host, [USER@]HOST[:PORT], instead of an inventory: edgebench fleet --ssh bench@board SUITE "
                  "--out DIR (its store comes home to DIR/HOST)")
      ->check(NonEmpty());
  cmd->add_option("-o,--out", o->out_dir, "where the hosts' stores come home: DIR/HOST/results.jsonl")
      ->required()
      ->check(NonEmpty());
  cmd->add_option("--forks", o->forks, "hosts worked on at once (Ansible's --forks; default: Ansible's, 5)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--limit", o->limit, "only these hosts (Ansible's --limit pattern)")->check(NonEmpty());
  cmd->add_option("--build", o->builds,
                  "ARCH=EXECUTABLE: the edgebench build for hosts of another architecture (repeatable), e.g. "
                  "aarch64=build-arm64/edgebench; hosts of this edgebench's own architecture get this build, a host "
                  "of an architecture without one fails with that said")
      ->check(NonEmpty());
  cmd->add_option("--playbook", o->playbook, "the playbook (default: ansible/fleet.yml of edgebench's source tree)")
      ->check(NonEmpty());
  cmd->callback([o, &context] { context.exit_code = Fleet(*o, context); });
}

}  // namespace edgebench
