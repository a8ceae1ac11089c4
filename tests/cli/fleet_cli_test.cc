// `edgebench fleet` on a real fleet made on this machine: three hosts, each a network namespace
// with its own sshd on its own loopback (tests/fleet/namespace_hosts.sh), reached by Ansible
// through `ip netns exec NS nc 127.0.0.1 22`. They differ as real machines do: fleet-a has every
// core, fleet-b is limited to one core (taskset), fleet-c lacks the LiteRT library (hidden by a
// bind mount in its mount namespace).
//
// Faults: fleet-c's sshd is not running when the first run starts (unreachable); fleet-b is
// killed (every process of its PID namespace) once its first record is stored, mid-suite. Both
// are brought back and the same command run again: every host ends with exactly one record per
// case, fleet-b's records from before its loss kept, fleet-c's LiteRT case an `unavailable` row
// with the loader's reason. The hosts are torn down after the suite, also when a check fails.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "../fixtures_util.h"
#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;
namespace fs = std::filesystem;

const std::vector<std::string> kHosts = {"fleet-a", "fleet-b", "fleet-c"};

std::string Quote(const std::string& s) { return "'" + s + "'"; }

class FleetCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(::testing::TempDir() + "edgebench_fleet_" + std::to_string(::getpid()));
    fs::create_directories(*dir_);
    ASSERT_EQ(Hosts("keys").exit_code, 0);
  }
  static void TearDownTestSuite() {
    Hosts("teardown");
    fs::remove_all(*dir_);
    delete dir_;
  }
  // tests/fleet/namespace_hosts.sh COMMAND DIR [NAME OPTIONS...], its output kept for messages.
  static testing::CommandResult Hosts(const std::string& command, const std::string& name_and_options = "") {
    return RunCommand("bash " + Quote(std::string(EDGEBENCH_SOURCE_DIR) + "/tests/fleet/namespace_hosts.sh") + " " +
                      command + " " + Quote(*dir_) + " " + name_and_options + " 2>&1");
  }
  static testing::CommandResult Host(const std::string& command, const std::string& name,
                                     const std::string& options = "") {
    return Hosts(command, name + " " + options);
  }
  static std::string HostDir(const std::string& name) { return *dir_ + "/hosts/" + name; }
  static std::string NetNs(const std::string& name) {
    std::ifstream in(HostDir(name) + "/netns");
    std::string ns;
    std::getline(in, ns);
    return ns;
  }
  // An INI inventory of the three hosts: each reached through its namespace, with a working
  // directory of its own (they share this machine's file system).
  static std::string WriteInventory() {
    const std::string path = *dir_ + "/inventory.ini";
    std::ofstream out(path);
    out << "[fleet]\n";
    for (const std::string& h : kHosts) {
      fs::create_directories(HostDir(h) + "/home");
      out << h << " ansible_host=" << NetNs(h) << " edgebench_remote_dir=" << HostDir(h) << "/home/edgebench\n";
    }
    out << "\n[fleet:vars]\nansible_user=root\nansible_python_interpreter=/usr/bin/python3\n"
        << "ansible_ssh_private_key_file=" << *dir_ << "/id_ed25519\n"
        << "ansible_ssh_common_args='-o ProxyCommand=\"ip netns exec %h nc 127.0.0.1 22\" "
        << "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null'\n";
    // A sanitizer build's settings (scripts/test-sanitizers) reach edgebench on the hosts only
    // through the playbook: sshd passes no environment on.
    std::string environment;
    for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS"}) {
      if (const char* value = std::getenv(name)) {
        environment += std::string(environment.empty() ? "" : ", ") + "'" + name + "': '" + value + "'";
      }
    }
    if (!environment.empty()) out << "edgebench_environment={" << environment << "}\n";
    return path;
  }
  // BlazeFace in two formats on two runtimes, four cases, each at least 0.6 s, so that a host
  // can be lost between its first record and its last.
  static std::string WriteSuite() {
    const std::string path = *dir_ + "/fleet-suite.yaml";
    std::ofstream out(path);
    out << "name: fleet-test\nmodels:\n  - name: blazeface\n    artifacts: [" << testing::BlazeFaceShort() << ", "
        << testing::BlazeFaceOnnx() << "]\n"
        << "targets: [ort:cpu, \"ort:cpu?threads=1\", litert:cpu, \"litert:cpu?threads=1\"]\n"
        << "settings:\n  warmup: 5\n  min_queries: 50\n  min_duration_ms: 600\n  max_duration_ms: 5000\n";
    return path;
  }
  static std::string Fleet(const std::string& inventory, const std::string& suite) {
    // The controller's ~/.ansible and ssh state stay in the test's directory.
    return "HOME=" + Quote(*dir_ + "/controller") + " " + Executable() + " fleet " + Quote(inventory) + " " +
           Quote(suite) + " --out " + Quote(*dir_ + "/out") + " 2>&1";
  }
  static std::vector<Record> Store(const std::string& host) {
    auto records = ReadRecords(*dir_ + "/out/" + host + "/results.jsonl");
    return records.ok() ? records.take() : std::vector<Record>{};
  }

  static std::string* dir_;
};
std::string* FleetCli::dir_ = nullptr;

TEST_F(FleetCli, ThreeHostsWithAnUnreachableAndALostOneEndWithOneRecordPerHostAndCase) {
  for (const std::string& fixture : {testing::BlazeFaceShort(), testing::BlazeFaceOnnx()}) {
    if (!fs::exists(fixture)) GTEST_SKIP() << "fixture missing: " << fixture;
  }
  std::string litert;
  // Debian's multiarch library directory of the architecture this test was built for.
#if defined(__aarch64__)
  const char* const multiarch_lib_dir = "/usr/lib/aarch64-linux-gnu";
#else
  const char* const multiarch_lib_dir = "/usr/lib/x86_64-linux-gnu";
#endif
  for (const auto& entry : fs::directory_iterator(multiarch_lib_dir)) {
    if (entry.path().filename().string().rfind("libtensorflow-lite.so.", 0) == 0) litert = entry.path().string();
  }
  ASSERT_FALSE(litert.empty()) << "no libtensorflow-lite.so.* to hide from fleet-c";
  for (const auto& [name, options] : std::vector<std::pair<std::string, std::string>>{
           {"fleet-a", ""}, {"fleet-b", "--cores 0"}, {"fleet-c", "--hide " + litert}}) {
    const auto up = Host("up", name, options);
    ASSERT_EQ(up.exit_code, 0) << up.output;
  }
  const std::string inventory = WriteInventory();
  const std::string suite = WriteSuite();
  // fleet-c's sshd stops before the run: its namespace is there, nothing answers on port 22.
  ASSERT_EQ(Host("kill", "fleet-c").exit_code, 0);

  // fleet-b is lost once its first record is stored.
  const std::string b_store = HostDir("fleet-b") + "/home/edgebench/results/results.jsonl";
  std::atomic<bool> done{false};
  testing::CommandResult first;
  std::thread run([&] {
    first = RunCommand(Fleet(inventory, suite));
    done = true;
  });
  bool killed = false;
  while (!done) {
    std::ifstream in(b_store);
    std::string line;
    if (std::getline(in, line) && !line.empty() && line.back() == '}') {
      killed = Host("kill", "fleet-b").exit_code == 0;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  run.join();
  ASSERT_TRUE(killed) << "fleet-b finished before it could be lost:\n" << first.output;
  EXPECT_EQ(first.exit_code, 1) << first.output;
  EXPECT_NE(first.output.find("fleet-a          ok"), std::string::npos) << first.output;
  EXPECT_NE(first.output.find("fleet-c          unreachable"), std::string::npos) << first.output;
  EXPECT_TRUE(first.output.find("fleet-b          unreachable") != std::string::npos ||
              first.output.find("fleet-b          lost") != std::string::npos ||
              first.output.find("fleet-b          failed") != std::string::npos)
      << first.output;
  EXPECT_EQ(Store("fleet-a").size(), 4u) << first.output;
  const std::vector<Record> b_before = [&] {
    auto records = ReadRecords(b_store);
    return records.ok() ? records.take() : std::vector<Record>{};
  }();
  ASSERT_GE(b_before.size(), 1u);
  EXPECT_LT(b_before.size(), 4u) << "fleet-b was to be lost mid-suite";

  // Both back; the same command resumes every host where its store stopped.
  ASSERT_EQ(Host("up", "fleet-b", "--cores 0").exit_code, 0);
  ASSERT_EQ(Host("up", "fleet-c", "--hide " + litert).exit_code, 0);
  const auto second = RunCommand(Fleet(inventory, suite));
  // 1: fleet-c's LiteRT cases are unavailable, a result its record states.
  EXPECT_EQ(second.exit_code, 1) << second.output;
  EXPECT_NE(second.output.find("fleet-a          ok"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("fleet-b          ok"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("fleet-c          ok, cases failed"), std::string::npos) << second.output;

  std::set<std::string> case_keys;
  for (const std::string& host : kHosts) {
    const std::vector<Record> records = Store(host);
    std::map<std::string, int> per_case;
    for (const Record& r : records) {
      ++per_case[r.case_key];
      case_keys.insert(r.case_key);
      EXPECT_EQ(r.environment.host, host) << r.id;
      EXPECT_EQ(r.environment.hostname, host) << r.id;
      EXPECT_FALSE(r.environment.architecture.empty());
      if (host == "fleet-b") {
        EXPECT_EQ(r.environment.usable_cores, 1) << r.id;
        // One core usable: a target without threads= gets one thread, not one per core of the
        // machine all on that core.
        if (r.status == CaseStatus::kOk && r.requested_target.find("threads=") == std::string::npos) {
          EXPECT_NE(r.effective_target.find("threads=1"), std::string::npos) << r.effective_target;
        }
      }
      const bool litert_case = r.backend == "litert";
      if (host == "fleet-c" && litert_case) {
        EXPECT_EQ(r.status, CaseStatus::kUnavailable) << r.id;
        EXPECT_NE(r.error.find("libtensorflow-lite"), std::string::npos) << r.error;
      } else {
        EXPECT_EQ(r.status, CaseStatus::kOk) << host << " " << r.requested_target << ": " << r.error;
      }
    }
    EXPECT_EQ(per_case.size(), 4u) << host;
    for (const auto& [key, count] : per_case) EXPECT_EQ(count, 1) << host << " case " << key;
  }
  EXPECT_EQ(case_keys.size(), 4u) << "the same four cases on every host";
  // Nothing fleet-b measured before it was lost was measured again or lost.
  const std::vector<Record> b_after = Store("fleet-b");
  for (const Record& before : b_before) {
    EXPECT_TRUE(std::any_of(b_after.begin(), b_after.end(), [&](const Record& r) { return r.id == before.id; }))
        << before.id;
  }
  // The per-host table of the second run, and host.json of each host.
  EXPECT_NE(second.output.find("fleet-c p50/p99 ms"), std::string::npos) << second.output;
  for (const std::string& host : kHosts) EXPECT_TRUE(fs::exists(*dir_ + "/out/" + host + "/host.json")) << host;

  // One report of the three stores, hosts side by side.
  const auto report = RunCommand(Executable() + " report " + Quote(*dir_ + "/out/fleet-a") + " " +
                                 Quote(*dir_ + "/out/fleet-b") + " " + Quote(*dir_ + "/out/fleet-c") + " --out " +
                                 Quote(*dir_ + "/report.html") + " 2>&1");
  ASSERT_EQ(report.exit_code, 0) << report.output;
  std::ifstream page(*dir_ + "/report.html");
  const std::string html((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("\"hosts\":[\"fleet-a\",\"fleet-b\",\"fleet-c\"]"), std::string::npos);
  // Two hosts compared: the same case keys, paired; the machines differ, so only on request.
  const auto compare = RunCommand(Executable() + " compare " + Quote(*dir_ + "/out/fleet-a") + " " +
                                  Quote(*dir_ + "/out/fleet-b") + " --ignore-environment --format json 2>/dev/null");
  const auto json = nlohmann::json::parse(compare.output, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << compare.output;
  EXPECT_EQ(json["cases"].size(), 4u) << compare.output;
}

TEST_F(FleetCli, BadArgumentsAreRefusedBeforeAnythingRuns) {
  const std::string suite = WriteSuite();
  auto r = RunCommand(Executable() + " fleet /nonexistent/inventory " + Quote(suite) + " --out " +
                      Quote(*dir_ + "/bad") + " 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("the inventory '/nonexistent/inventory' does not exist"), std::string::npos) << r.output;
  std::ofstream(*dir_ + "/empty.ini") << "[fleet]\n";
  r = RunCommand(Executable() + " fleet " + Quote(*dir_ + "/empty.ini") + " /nonexistent/suite.yaml --out " +
                 Quote(*dir_ + "/bad") + " 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("/nonexistent/suite.yaml"), std::string::npos) << r.output;
  // An inventory without hosts: Ansible reaches none, and fleet says so.
  r = RunCommand("HOME=" + Quote(*dir_ + "/controller") + " " + Executable() + " fleet " +
                 Quote(*dir_ + "/empty.ini") + " " + Quote(suite) + " --out " + Quote(*dir_ + "/bad") + " 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("without reaching any host"), std::string::npos) << r.output;
}

// A build for another architecture (--build ARCH=EXECUTABLE) is checked before anything runs: an
// unknown architecture, a file that is not an executable, an executable for another one.
TEST_F(FleetCli, ABuildForAnotherArchitectureIsCheckedBeforeAnythingRuns) {
  const std::string suite = WriteSuite();
  const std::string inventory = *dir_ + "/one.ini";
  std::ofstream(inventory) << "[fleet]\nnowhere ansible_host=127.0.0.1\n";
  auto fleet = [&](const std::string& build) {
    return RunCommand(Executable() + " fleet " + Quote(inventory) + " " + Quote(suite) + " --out " +
                      Quote(*dir_ + "/arch") + " --build " + Quote(build) + " 2>&1");
  };
#if defined(__aarch64__)
  const std::string other = "x86_64", own = "aarch64";
#else
  const std::string other = "aarch64", own = "x86_64";
#endif
  auto r = fleet(other + "=" + Executable());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("is an edgebench for " + own + ", not " + other), std::string::npos) << r.output;
  r = fleet("mips=" + Executable());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("give ARCH=EXECUTABLE"), std::string::npos) << r.output;
  r = fleet("arm64=" + suite);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("is not an ELF executable"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(*dir_ + "/arch")) << "a refused fleet wrote its output directory";
}

// One board without an inventory: --ssh makes it; a destination that would add inventory
// variables is refused before anything runs.
TEST_F(FleetCli, OneHostBySshNeedsNoInventory) {
  const std::string suite = WriteSuite();
  auto r = RunCommand(Executable() + " fleet --ssh " + Quote("bench@board ansible_connection=local") + " " +
                      Quote(suite) + " --out " + Quote(*dir_ + "/ssh-bad") + " 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("the host must be a host name"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(*dir_ + "/ssh-bad"));
  r = RunCommand(Executable() + " fleet --ssh bench@board " + Quote(suite) + " " + Quote(suite) + " --out " +
                 Quote(*dir_ + "/ssh-bad") + " 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("with --ssh, give only the suite"), std::string::npos) << r.output;
  // Port 1 of this machine refuses at once: Ansible reaches no host, and the inventory fleet
  // made for it is the one-host inventory of the destination.
  r = RunCommand("HOME=" + Quote(*dir_ + "/controller") + " " + Executable() + " fleet --ssh bench@127.0.0.1:1 " +
                 Quote(suite) + " --out " + Quote(*dir_ + "/ssh") + " 2>&1");
  if (r.output.find("ansible-playbook is not on PATH") != std::string::npos) GTEST_SKIP() << r.output;
  EXPECT_NE(r.exit_code, 0) << r.output;
  std::ifstream inventory(*dir_ + "/ssh/.fleet/ssh-inventory.ini");
  std::stringstream text;
  text << inventory.rdbuf();
  EXPECT_EQ(text.str(), "# written by edgebench fleet --ssh\n[fleet]\n"
                        "127.0.0.1 ansible_host=127.0.0.1 ansible_user=bench ansible_port=1\n")
      << r.output;
}

// An inventory's host name becomes DIR/HOST: names that would lead out of DIR are refused
// before anything is written for them (on this machine, over a local connection).
TEST_F(FleetCli, HostNamesThatAreNotPlainFileNamesWriteNothingOutsideTheOutputDirectory) {
  const std::string suite = WriteSuite();
  const std::string names = *dir_ + "/names";
  fs::create_directories(names + "/out");
  std::ofstream(names + "/inventory.yaml") << "fleet:\n  hosts:\n"
                                           << "    \"../escaped\": {ansible_connection: local}\n"
                                           << "    \"..\": {ansible_connection: local}\n"
                                           << "    \"/tmp/edgebench-absolute\": {ansible_connection: local}\n"
                                           << "    \"-rf\": {ansible_connection: local}\n";
  auto r = RunCommand("HOME=" + Quote(*dir_ + "/controller") + " " + Executable() + " fleet " +
                      Quote(names + "/inventory.yaml") + " " + Quote(suite) + " --out " + Quote(names + "/out") +
                      " 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("cannot name its directory"), std::string::npos) << r.output;
  std::set<std::string> entries;
  for (const auto& e : fs::directory_iterator(names)) entries.insert(e.path().filename().string());
  EXPECT_EQ(entries, (std::set<std::string>{"inventory.yaml", "out"}));
  std::set<std::string> in_out;
  for (const auto& e : fs::directory_iterator(names + "/out")) in_out.insert(e.path().filename().string());
  EXPECT_EQ(in_out, std::set<std::string>{".fleet"}) << "a refused host wrote into DIR";
  EXPECT_FALSE(fs::exists("/tmp/edgebench-absolute"));
}

}  // namespace
}  // namespace edgebench
