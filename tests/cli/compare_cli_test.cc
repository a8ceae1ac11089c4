// `edgebench compare` end to end: a known 3% slowdown is judged slower, a second measurement of
// the same configuration is not, and the exit codes, markdown, "not comparable" and bad stores are
// what docs/compare.md says.
//
// The stores hold real records of `edgebench run` (null:sleep at 2000 and 2060 us: their case
// keys, targets, settings and environment are the tool's own), whose samples are then replaced
// by seeded draws of a known distribution: the verdicts are decided on data the test controls,
// not on two live runs of a sleep on a machine busy with other tests, so the bounds can be the
// exact ones (a 3% slowdown within 1%, the same configuration within 1%).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "../test_util.h"
#include "record/record.h"
#include "record/record_json.h"
#include "report/store.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

class CompareCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(::testing::TempDir() + "edgebench_compare_" + std::to_string(::getpid()));
    std::filesystem::create_directories(*dir_);
    // One short live run of both targets: the records whose samples the stores below replace.
    const auto r = RunCommand(Executable() + " run x -t 'null:sleep?us=2000,null:sleep?us=2060'"
                              " --warmup 2 --min-queries 10 --min-duration 0 --format json --out " +
                              Store("live") + " >/dev/null 2>&1");
    ASSERT_EQ(r.exit_code, 0);
    auto live = ReadRecords(Store("live") + "/results.jsonl");
    ASSERT_TRUE(live.ok()) << live.error();
    ASSERT_EQ(live.value().size(), 2u);
    const Record& fast = live.value()[0];
    const Record& slow = live.value()[1];
    ASSERT_EQ(fast.requested_target, "null:sleep?us=2000");
    // 400 queries a run (p99 too) around 2.1 ms with a 5% spread, the slow configuration 3%
    // above; every run its own seed. base-runs and same-runs hold two runs each of one configuration (judged run by run).
    const double median_ns = 2'100'000;
    uint64_t seed = 1;
    for (const auto& [name, runs, template_record, scale] :
         {std::tuple{"base", 1, &fast, 1.0}, {"same", 1, &fast, 1.0}, {"slow", 1, &slow, 1.03},
          {"base-runs", 2, &fast, 1.0}, {"same-runs", 2, &fast, 1.0}}) {
      for (int run = 0; run < runs; ++run) {
        Record record = *template_record;
        record.id = NewRecordId();
        testing::ReplaceSamplesWithSeeded(record, seed, median_ns * scale, 20, 400);
        std::filesystem::create_directories(Store(name));
        const auto written = AppendJsonLine(Store(name) + "/results.jsonl", RecordToJson(record));
        ASSERT_TRUE(written.ok()) << written.message();
      }
    }
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static std::string Store(const std::string& name) { return *dir_ + "/" + name; }
  static nlohmann::json Json(const std::string& output) {
    auto json = nlohmann::json::parse(output, nullptr, false);
    return json.is_discarded() ? nlohmann::json::object() : json;
  }

  static std::string* dir_;
};
std::string* CompareCli::dir_ = nullptr;

const std::string kByTarget = " --by model,backend,device,scenario";

TEST_F(CompareCli, AThreePercentSlowdownIsSlower) {
  const auto r = RunCommand(Executable() + " compare " + Store("base") + " " + Store("slow") + kByTarget +
                            " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto json = Json(r.output);
  ASSERT_EQ(json["cases"].size(), 1u) << r.output;
  const auto& c = json["cases"][0];
  EXPECT_EQ(c["verdict"], "slower") << c.dump(2);
  EXPECT_EQ(c["metrics"][0]["metric"], "p50");
  EXPECT_EQ(c["metrics"][0]["verdict"], "slower");
  // The samples are 3% slower by construction: the estimate is that within 1%.
  EXPECT_NEAR(c["metrics"][0]["change"].get<double>(), 0.03, 0.01) << c.dump(2);
  EXPECT_LT(c["metrics"][0]["p"].get<double>(), 0.05);
  // Paired by --by: the notes say what the case key would have told apart.
  EXPECT_NE(c["notes"].dump().find("targets differ: null:sleep?us=2000 vs null:sleep?us=2060"), std::string::npos)
      << c["notes"];
}

TEST_F(CompareCli, TheSameConfigurationIsNoChange) {
  const auto r = RunCommand(Executable() + " compare " + Store("base-runs") + " " + Store("same-runs") + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto json = Json(r.output);
  ASSERT_EQ(json["cases"].size(), 1u) << r.output;
  // Paired by case key (the same configuration in every run).
  EXPECT_EQ(json["matched_by"], "case key");
  const auto& c = json["cases"][0];
  ASSERT_EQ(c["metrics"][0]["metric"], "p50") << c.dump(2);
  EXPECT_EQ(c["metrics"][0]["verdict"], "no change") << c.dump(2);
  EXPECT_LT(std::abs(c["metrics"][0]["change"].get<double>()), 0.01) << c.dump(2);
  EXPECT_EQ(c["metrics"][1]["metric"], "p99") << c.dump(2);
  // One run against one: the query-level test says no change too.
  const auto single = Json(RunCommand(Executable() + " compare " + Store("base") + " " + Store("same") + " --format json").output);
  ASSERT_EQ(single["cases"].size(), 1u);
  EXPECT_EQ(single["cases"][0]["metrics"][0]["verdict"], "no change") << single.dump(2);
  EXPECT_LT(std::abs(single["cases"][0]["metrics"][0]["change"].get<double>()), 0.01) << single.dump(2);
}

TEST_F(CompareCli, DifferentTargetOptionsShareNoCaseKeyAndTheErrorSaysWhatToDo) {
  const auto r = RunCommand(Executable() + " compare " + Store("base") + " " + Store("slow") + " 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no case in both stores: BASE has 1 cases, NEW has 1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the target with its options"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--by"), std::string::npos) << r.output;
}

TEST_F(CompareCli, FailIfSlowerExitsOneAboveItsBound) {
  const std::string compare = Executable() + " compare " + Store("base") + " " + Store("slow") + kByTarget;
  const auto strict = RunCommand(compare + " --fail-if-slower 1% 2>&1");
  EXPECT_EQ(strict.exit_code, 1) << strict.output;
  EXPECT_NE(strict.output.find("p50 slower by at least"), std::string::npos) << strict.output;
  EXPECT_NE(strict.output.find("more than --fail-if-slower 1%"), std::string::npos) << strict.output;
  // 3% is under the bound, for p50 and p99 alike (the whole distribution is 3% slower).
  const auto loose = RunCommand(compare + " --fail-if-slower 5% 2>&1 >/dev/null");
  EXPECT_EQ(loose.output.find("slower by at least"), std::string::npos) << loose.output;
  EXPECT_EQ(loose.exit_code, 0) << loose.output;
  EXPECT_EQ(RunCommand(compare + " >/dev/null 2>&1").exit_code, 0);  // judged slower, no bound asked
  const auto same = RunCommand(Executable() + " compare " + Store("base-runs") + " " + Store("same-runs") +
                               " --fail-if-slower 0% 2>&1 >/dev/null");
  EXPECT_EQ(same.output.find("p50 slower"), std::string::npos) << same.output;
  // BASE measured x; NEW crashed on it: the gate fails though nothing was judged slower (and
  // nothing could be compared); without the gate such a NEW is a usage error (exit 2).
  const std::string crashed = Store("gate-crashed");
  ASSERT_EQ(RunCommand(Executable() + " run x -t 'null:sleep?us=2000&crash_at=2' --warmup 0 --min-queries 5 "
                       "--min-duration 0 --out " + crashed + " >/dev/null 2>&1").exit_code, 1);
  const auto gate = RunCommand(Executable() + " compare " + Store("base") + " " + crashed + kByTarget +
                               " --fail-if-slower 5% 2>&1 >/dev/null");
  EXPECT_EQ(gate.exit_code, 1) << gate.output;
  EXPECT_NE(gate.output.find("measured in BASE, crashed in NEW"), std::string::npos) << gate.output;
  EXPECT_NE(gate.output.find("no case could be compared"), std::string::npos) << gate.output;
}

TEST_F(CompareCli, MarkdownStartsWithTheSummary) {
  const auto r = RunCommand(Executable() + " compare " + Store("base") + " " + Store("slow") + kByTarget +
                            " --format markdown");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.rfind("**edgebench compare: 1 slower**\n", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("| model | target | scenario | metric | base | new | change | 95% CI | p | verdict |"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("| x | null:sleep?us=2000 | single-stream | p50 |"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("| **slower**"), std::string::npos) << r.output;  // "(INVALID record)" may follow
}

TEST_F(CompareCli, TextIsATable) {
  const auto r = RunCommand(Executable() + " compare " + Store("base") + " " + Store("same"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.rfind("model  target", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("95% CI"), std::string::npos);
  EXPECT_NE(r.output.find("rule: slower/faster when p < 0.05"), std::string::npos);
}

TEST_F(CompareCli, AnotherMachineIsNotComparableUnlessIgnored) {
  // The base store's record, said to come from another CPU.
  const std::string other = Store("other");
  std::filesystem::create_directories(other);
  std::ifstream in(Store("base") + "/results.jsonl");
  std::string line;
  std::getline(in, line);
  auto record = nlohmann::json::parse(line);
  record["environment"]["cpu_model"] = "Imaginary CPU 9000";
  std::ofstream(other + "/results.jsonl") << record.dump() << "\n";
  const std::string compare = Executable() + " compare " + Store("base") + " " + other + " --format json";
  auto r = RunCommand(compare);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  auto json = Json(r.output);
  ASSERT_EQ(json["cases"].size(), 1u) << r.output;
  EXPECT_EQ(json["cases"][0]["verdict"], "not comparable");
  EXPECT_NE(json["cases"][0]["reason"].get<std::string>().find("different environment: CPU '"), std::string::npos)
      << json["cases"][0]["reason"];
  EXPECT_NE(json["cases"][0]["reason"].get<std::string>().find("'Imaginary CPU 9000'"), std::string::npos);
  // The same samples on both sides: no change, the difference noted.
  r = RunCommand(compare + " --ignore-environment");
  json = Json(r.output);
  ASSERT_EQ(json["cases"].size(), 1u) << r.output;
  EXPECT_EQ(json["cases"][0]["verdict"], "no change");
  EXPECT_NE(json["cases"][0]["notes"].dump().find("--ignore-environment"), std::string::npos);
  EXPECT_EQ(json["cases"][0]["metrics"][0]["p"], 1.0);
}

TEST_F(CompareCli, BadStoresAndOptionsAreUsageErrors) {
  const std::string empty_dir = Store("empty_dir");
  std::filesystem::create_directories(empty_dir);
  const std::string empty_file = Store("empty.jsonl");
  std::ofstream(empty_file).flush();
  const std::string crashed = Store("crashed");
  ASSERT_EQ(RunCommand(Executable() + " run x -t 'null:sleep?us=10&crash_at=2' --warmup 0 --min-queries 5 "
                       "--min-duration 0 --out " + crashed + " >/dev/null 2>&1")
                .exit_code,
            1);
  const std::string base = Store("base");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {base + " " + Store("missing"), "NEW: store '" + Store("missing") + "' does not exist"},
      {empty_dir + " " + base, "BASE: store '" + empty_dir + "' is a directory without results.jsonl"},
      {empty_file + " " + base, "holds no records"},
      {crashed + " " + base, "has no measured record (1 crashed): nothing to compare"},
      {base + " " + base + " --noise-threshold abc", "--noise-threshold: 'abc' is not a relative change"},
      {base + " " + base + " --fail-if-slower lots", "--fail-if-slower: 'lots' has no unit"},
      {base + " " + base + " --fail-if-slower 5", "--fail-if-slower: '5' has no unit (5% or 500%?)"},
      {base + " " + base + " --fail-if-slower ''", "--fail-if-slower is empty"},
      {base + " " + base + " --fail-if-slower 1e400%", "--fail-if-slower: '1e400%' is not a percentage"},
      {base + " " + base + " --noise-threshold 1e-400", "--noise-threshold: '1e-400' is not a relative change"},
      {base + " " + base + " --by model,colour", "--by: unknown field 'colour'"},
      {base, "new is required"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = RunCommand(Executable() + " compare " + args + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
  }
  // A .jsonl file is a store too.
  EXPECT_EQ(RunCommand(Executable() + " compare " + base + "/results.jsonl " + Store("same") + " >/dev/null 2>&1")
                .exit_code,
            0);
}

}  // namespace
}  // namespace edgebench
