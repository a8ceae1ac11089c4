// `edgebench tune` end to end on the null backend, whose configurations have known latencies
// (us=N plus exponential noise of mean jitter_us), each round a real worker case in the store.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

std::vector<nlohmann::json> StoreLines(const std::string& store) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(store + "/results.jsonl");
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

size_t StoreLinesCount(const std::string& store) {
  std::ifstream in(store + "/results.jsonl");
  size_t n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty() && line.back() == '}';
  return n;
}

const std::string kSpace = " --space 'target=null:sleep;us=300,900,2500;jitter_us=50'";
const std::string kQuick = " --objective p50 --queries 60 --rounds 3 --warmup 2";

TEST(TuneCli, RacesKnownLatenciesStoresEveryRoundAndResumes) {
  const std::string store = testing::TempFilePath("tune", "race");
  std::filesystem::remove_all(store);
  const std::string command = Executable() + " tune x" + kSpace + kQuick + " --out " + store;
  auto r = RunCommand(command + " --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto answer = nlohmann::json::parse(r.output);
  EXPECT_EQ(answer["winner_label"], "null:sleep us=300 jitter_us=50") << answer.dump(1);
  EXPECT_EQ(answer["entrants"].size(), 3u);
  const auto& slowest = answer["entrants"][2];
  EXPECT_FALSE(slowest["alive"].get<bool>());
  EXPECT_EQ(slowest["dropped_round"], 0) << slowest;
  EXPECT_NE(slowest["drop_reason"].get<std::string>().find("worse than null:sleep us=300"), std::string::npos);

  // One record per configuration and round, each a case of its own, all tagged with the race.
  const auto lines = StoreLines(store);
  int rounds = 0;
  for (const auto& e : answer["entrants"]) rounds += e["rounds"].get<int>();
  ASSERT_EQ(lines.size(), static_cast<size_t>(rounds));
  std::set<std::string> keys;
  for (const auto& line : lines) {
    EXPECT_EQ(line["status"], "ok");
    EXPECT_EQ(line["tune"]["race"], answer["race"]);
    keys.insert(line["case_key"].get<std::string>());
    EXPECT_EQ(line["config"]["effective_settings"]["min_queries"], line["tune"]["queries"]);
  }
  EXPECT_EQ(keys.size(), lines.size());

  // The same race again: refused without --resume, replayed from the store with it.
  auto again = RunCommand(command + " 2>&1");
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_NE(again.output.find("already holds " + std::to_string(lines.size()) + " records of this race"),
            std::string::npos) << again.output;
  auto resumed = RunCommand(command + " --resume --format json 2>/dev/null");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(nlohmann::json::parse(resumed.output)["winner_label"], answer["winner_label"]);
  EXPECT_EQ(StoreLines(store).size(), lines.size()) << "a resumed race measures nothing twice";

  // The report shows the race.
  const std::string page = store + "/report.html";
  auto report = RunCommand(Executable() + " report " + store + " -o " + page + " 2>&1");
  ASSERT_EQ(report.exit_code, 0) << report.output;
  std::ifstream in(page);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("\"races\""), std::string::npos);
  EXPECT_NE(html.find(answer["race"].get<std::string>()), std::string::npos);
}

// A race killed mid-way (SIGKILL: no chance to tidy up) and resumed ends with exactly one
// record per configuration and round, and the answer of a race never interrupted.
TEST(TuneCli, AKilledRaceResumesLosingNothingAndRepeatingNothing) {
  const std::string store = testing::TempFilePath("tune", "killed");
  std::filesystem::remove_all(store);
  const std::vector<std::string> args = {"tune", "x", "--space", "target=null:sleep;us=2000,2150,2300,3000;jitter_us=50",
                                         "--objective", "p50", "--queries", "100", "--rounds", "3", "--warmup", "2",
                                         "--out", store};
  const pid_t pid = testing::SpawnQuietly(args);
  ASSERT_GT(pid, 0);
  // Kill it once the store holds its first record, while later cases are still to run.
  for (int i = 0; i < 3000 && StoreLinesCount(store) < 1; ++i) ::usleep(10'000);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the race ended before it was killed; make it longer";
  const size_t before = StoreLinesCount(store);
  EXPECT_GE(before, 1u);

  std::string command = Executable();
  for (const std::string& a : args) command += " '" + a + "'";
  auto resumed = RunCommand(command + " --resume --format json 2>/dev/null");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  const auto answer = nlohmann::json::parse(resumed.output);
  std::set<std::pair<int, int>> expected;  // (configuration, round)
  for (size_t i = 0; i < answer["entrants"].size(); ++i) {
    for (int round = 0; round < answer["entrants"][i]["rounds"].get<int>(); ++round) expected.insert({static_cast<int>(i), round});
  }
  std::set<std::pair<int, int>> stored;
  const auto lines = StoreLines(store);
  for (const auto& line : lines) {
    EXPECT_TRUE(stored.insert({line["tune"]["entrant"].get<int>(), line["tune"]["round"].get<int>()}).second)
        << "measured twice: " << line["tune"];
  }
  EXPECT_EQ(stored, expected);
  EXPECT_GT(lines.size(), before) << "the resumed race measured the rest";
  EXPECT_EQ(answer["winner_label"], "null:sleep us=2000 jitter_us=50") << answer.dump(1);
}

TEST(TuneCli, AConstraintNoneMeetsIsAnAnswerNotAWinner) {
  const std::string store = testing::TempFilePath("tune", "infeasible");
  std::filesystem::remove_all(store);
  auto r = RunCommand(Executable() + " tune x" + kSpace + kQuick + " --constraint 'p50<=0.05ms' --out " + store + " 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no configuration meets p50<=0.05ms"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the closest is null:sleep us=300 jitter_us=50"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("WINNER"), std::string::npos) << r.output;
}

TEST(TuneCli, ImpossibleConfigurationsArePrunedWithTheirReasonsBeforeAnythingRuns) {
  const std::string store = testing::TempFilePath("tune", "pruned");
  std::filesystem::remove_all(store);
  // vit_micro.onnx declares a batch of 1: batch 2 cannot bind; and it has no .tflite for litert.
  auto r = RunCommand(Executable() + " tune " + testing::TestModel("vit_micro.onnx") +
                      " --space 'target=null:sleep?us=200,litert:cpu;batch=1,2'" + kQuick + " --out " + store + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("pruned: the model's input 'pixel_values' has a fixed first axis of 1"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("pruned: model 'vit_micro' has no artifact that backend 'litert' reads"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("1 configurations raced, 3 pruned before running"), std::string::npos) << r.output;
  for (const auto& line : StoreLines(store)) EXPECT_EQ(line["tune"]["configuration"], "null:sleep?us=200 batch=1");
}

// A configuration's batch is the batch its queries ran at, in single- and multi-stream: the
// prepared input's first axis, and its throughput counts inferences.
TEST(TuneCli, TheBatchOfAConfigurationIsTheBatchItRan) {
  for (const std::string scenario : {"single-stream", "multi-stream:2"}) {
    const std::string store = testing::TempFilePath("tune", "batch");
    std::filesystem::remove_all(store);
    auto r = RunCommand(Executable() + " tune x --space 'target=null:sleep?us=200&dynamic=true;batch=1,4'"
                        " --objective throughput --queries 50 --rounds 1 --warmup 2 --scenario " + scenario +
                        " --out " + store + " --format json 2>/dev/null");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto lines = StoreLines(store);
    ASSERT_EQ(lines.size(), 2u);
    for (const auto& line : lines) {
      const int64_t batch = line["tune"]["configuration"] == "null:sleep?us=200&dynamic=true batch=4" ? 4 : 1;
      EXPECT_EQ(line["config"]["inputs"][0]["shape"][0], batch) << scenario << ": " << line["tune"]["configuration"];
      EXPECT_EQ(line["config"]["scenario"], scenario);
    }
    // The race's throughput counts inferences: each configuration's estimate is its batch times
    // its streams over its record's mean latency, and the winner is the higher one. Checked on the records' own
    // numbers, not on which batch wins: the same 200 us sleep lets batch 4 do four inferences
    // in it on a quiet machine, but a loaded one can stall any query for longer than that.
    const auto answer = nlohmann::json::parse(r.output);
    ASSERT_EQ(answer["entrants"].size(), 2u) << answer.dump(1);
    std::map<std::string, double> expected;
    for (const auto& line : lines) {
      const double batch = line["config"]["inputs"][0]["shape"][0];
      const double streams = scenario == "multi-stream:2" ? 2 : 1;
      expected[line["tune"]["configuration"]] = batch * streams * 1e9 / line["summary"]["mean_ns"].get<double>();
    }
    std::string best;
    for (const auto& entrant : answer["entrants"]) {
      const std::string label = entrant["label"];
      ASSERT_EQ(expected.count(label), 1u) << label;
      EXPECT_NEAR(entrant["objective"]["estimate"].get<double>(), expected[label], 1e-6 * expected[label])
          << scenario << ": " << label;
      if (best.empty() || expected[label] > expected[best]) best = label;
    }
    EXPECT_EQ(answer["winner_label"], best) << answer.dump(1);
  }
}

TEST(TuneCli, BadArgumentsAreRefusedBeforeAnythingRuns) {
  struct Case {
    std::string args;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {"--space 'threads=1'", "has no 'target' list"},
           {"--space 'target=nosuch:cpu'", "unknown backend 'nosuch'"},
           {"--space 'target=null:sleep' --scenario server:10", "tune races single-stream or multi-stream:N"},
           {"--space 'target=null:sleep' --objective ttft", "is not measured by a latency run"},
           {"--space 'target=null:sleep' --constraint 'p99<=fast'", "constraint 'p99<=fast'"},
           {"--space 'target=null:sleep' --exhaustive", "--exhaustive measures every configuration with --queries N"},
           {"--space 'target=null:sleep' --budget soon", "--budget"},
           {"--space 'target=null:sleep' --rounds 0", "--rounds must be from 1 to 12"},
       }) {
    auto r = RunCommand(Executable() + " tune x " + c.args + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
  }
}

}  // namespace
}  // namespace edgebench
