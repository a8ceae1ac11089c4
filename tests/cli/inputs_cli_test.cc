// Inputs real models need, through the CLI: Silero VAD branches on the value of its int64
// scalar input `sr`, so seeded values cannot measure it; `--input sr=16000` can. Dimensions no
// --dim binds are bound to 1 and said so; --strict-dims refuses instead.
#include <gtest/gtest.h>

#include "../fixtures_util.h"
#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

nlohmann::json OneRecord(const std::string& output) {
  const auto records = nlohmann::json::parse(output, nullptr, false);
  if (records.is_discarded() || !records.is_array() || records.size() != 1) return nullptr;
  return records[0];
}

TEST(InputsCli, SileroVadNeedsItsSampleRateAndRunsWithIt) {
  const std::string common = Executable() + " run " + testing::SileroVad() +
                             " --target 'ort:cpu?threads=1' --warmup 2 --min-queries 20 --min-duration 0 --format json";
  auto seeded = RunCommand(common + " 2>/dev/null");
  EXPECT_EQ(seeded.exit_code, 1);
  const auto failed = OneRecord(seeded.output);
  ASSERT_FALSE(failed.is_null()) << seeded.output;
  EXPECT_EQ(failed["status"], "failed");

  auto fixed = RunCommand(common + " --input sr=16000 --dim input.1=512 --input-pool 3 2>/dev/null");
  EXPECT_EQ(fixed.exit_code, 0) << fixed.output;
  const auto r = OneRecord(fixed.output);
  ASSERT_FALSE(r.is_null()) << fixed.output;
  EXPECT_EQ(r["status"], "ok");
  const auto& inputs = r["config"]["inputs"];
  ASSERT_EQ(inputs.size(), 3u);
  EXPECT_EQ(inputs[2]["name"], "sr");
  EXPECT_EQ(inputs[2]["source"], "fixed 16000");
  EXPECT_EQ(inputs[0]["shape"], (std::vector<int64_t>{1, 512}));
  EXPECT_EQ(r["config"]["dims_defaulted"], (std::vector<std::string>{"input.0=1", "state.1=1"}));
  bool pool_noted = false;
  for (const auto& note : r["notes"]) pool_noted |= note.get<std::string>().find("3 input samples") != std::string::npos;
  EXPECT_TRUE(pool_noted) << r["notes"];
}

TEST(InputsCli, StrictDimsRefusesFreeDimensionsAndNamesThem) {
  auto r = RunCommand(Executable() + " run " + testing::SileroVad() +
                      " --target ort:cpu --strict-dims --input sr=16000 --min-queries 1 --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1);
  const auto record = OneRecord(r.output);
  ASSERT_FALSE(record.is_null()) << r.output;
  EXPECT_EQ(record["failure"]["stage"], "inputs");
  const std::string why = record["failure"]["error"];
  EXPECT_NE(why.find("input.0=N"), std::string::npos) << why;
}

TEST(InputsCli, BadInputSpecIsRejectedBeforeAnythingRuns) {
  auto r = RunCommand(Executable() + " run " + testing::SileroVad() + " --target ort:cpu --input 'sr=banana' 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("bad --input 'sr=banana': 'banana' is neither a number nor a known source"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace edgebench
