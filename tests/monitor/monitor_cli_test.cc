// The device monitor end to end: real memory and CPU series in every record, absent sensors
// reported as absent, a leaking backend flagged and a clean one not, a fake board tree's trip
// point seen as throttling, --no-monitor, --cooldown and bad flags.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

nlohmann::json Records(const std::string& output) { return testing::JsonRecords(output); }

const std::string kJson = " --warmup 5 --min-duration 1500 --format json 2>/dev/null";

TEST(MonitorCli, EveryRecordHasRealMemoryAndCpuSeriesAndAbsentSensorsSayWhy) {
  auto r = RunCommand(Executable() + " run x -t null:cpu?us=500" + kJson);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = Records(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  const auto& m = records[0]["monitor"];
  EXPECT_EQ(m["settings"]["sample_hz"], 10.0);
  // 1.5 s at 10 Hz would be 15 samples, but a sampler that is late skips ticks (a loaded machine,
  // emulation): what must hold is a series over the whole run, not a count of ticks.
  const auto& t_ns = m["t_ns"];
  ASSERT_GE(t_ns.size(), 3u);
  EXPECT_GE(t_ns.back().get<double>() - t_ns.front().get<double>(), 1.0e9);
  for (const char* id : {"process.rss", "process.rss_peak", "system.mem_available"}) {
    ASSERT_TRUE(m["series"].contains(id)) << id;
    for (const auto& v : m["series"][id]) {
      ASSERT_TRUE(v.is_number()) << id;
      EXPECT_GT(v.get<double>(), 1e6) << id;
    }
  }
  // The worker's CPU: one thread burning CPU for each query (null:cpu), so up to one core, less
  // when tests beside it take the machine's other cores; never zero, never two cores.
  const auto& window = m["derived"]["windows"][0];
  ASSERT_TRUE(window["process_cpu_percent"].is_number());
  EXPECT_GT(window["process_cpu_percent"].get<double>(), 10.0);
  EXPECT_LT(window["process_cpu_percent"].get<double>(), 150.0);
  // Every reader is listed; one that is not available has no channel and says why, and no
  // series of it exists to read as zero.
  std::set<std::string> readers;
  for (const auto& reader : m["readers"]) {
    readers.insert(reader["reader"].get<std::string>());
    if (!reader["available"].get<bool>()) {
      EXPECT_FALSE(reader["reason"].get<std::string>().empty()) << reader;
      for (const auto& channel : m["channels"]) EXPECT_NE(channel["reader"], reader["reader"]);
    }
  }
  EXPECT_EQ(readers, (std::set<std::string>{"process", "cpu", "cpufreq", "thermal", "hwmon", "rapl", "nvml", "gpu"}));
  if (m["derived"]["energy"]["energy_mj"].is_null()) {
    EXPECT_FALSE(m["derived"]["energy"]["reason"].get<std::string>().empty());
    EXPECT_TRUE(m["derived"]["energy"]["per_query_mj"].is_null());
  }
  // Marks line up with the record's measured phase.
  bool measure_end = false;
  for (const auto& mark : m["marks"]) {
    if (mark["name"] == "measure" && mark["event"] == "end") {
      measure_end = true;
      EXPECT_NEAR(mark["t_ns"].get<double>(), records[0]["samples"]["measured_wall_ns"].get<double>(), 5e6);
    }
  }
  EXPECT_TRUE(measure_end);
}

TEST(MonitorCli, ABackendThatLeaksPerQueryIsFlaggedAndOneThatDoesNotIsNot) {
  auto r = RunCommand(Executable() + " run x -t 'null:cpu?us=500&grow_kb=64,null:cpu?us=500'" + kJson);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = Records(r.output);
  ASSERT_EQ(records.size(), 2u) << r.output;
  const auto& leaking = records[0]["monitor"]["derived"]["memory"];
  EXPECT_TRUE(leaking["leak"].get<bool>()) << leaking;
  // 64 KiB kept per query. Sanitizers add to what is resident: AddressSanitizer its redzones
  // (about 80 KiB a query, seen), ThreadSanitizer its shadow memory (about 200 KiB).
  if (testing::kSanitizerBuild) {
    EXPECT_GE(leaking["growth_bytes_per_query"].get<double>(), 65536.0 * 0.9) << leaking;
    EXPECT_LE(leaking["growth_bytes_per_query"].get<double>(), 65536.0 * 5) << leaking;
  } else {
    EXPECT_NEAR(leaking["growth_bytes_per_query"].get<double>(), 65536.0, 65536.0 * 0.1) << leaking;
  }
  bool noted = false;
  for (const auto& note : records[0]["notes"]) noted |= note.get<std::string>().rfind("memory growth: ", 0) == 0;
  EXPECT_TRUE(noted) << records[0]["notes"];
  const auto& clean = records[1]["monitor"]["derived"]["memory"];
  EXPECT_FALSE(clean["leak"].get<bool>()) << clean;
  for (const auto& note : records[1]["notes"]) EXPECT_NE(note.get<std::string>().rfind("memory growth", 0), 0u);
}

// A board's tree: one thermal zone over its passive trip point the whole time.
std::string HotBoardTree() {
  const std::string root = testing::TempFilePath("monitor_cli_", "hot_board");
  const std::string zone = root + "/sys/class/thermal/thermal_zone0";
  std::filesystem::create_directories(zone);
  std::ofstream(zone + "/type") << "cpu-thermal\n";
  std::ofstream(zone + "/temp") << "86000\n";
  std::ofstream(zone + "/trip_point_0_temp") << "85000\n";
  std::ofstream(zone + "/trip_point_0_type") << "passive\n";
  return root;
}

TEST(MonitorCli, ATripPointCrossedOnABoardTreeIsThrottlingInTheNotesAndTheTable) {
  const std::string root = HotBoardTree();
  auto r = RunCommand(Executable() + " run x -t null:sleep?us=500 --sysfs-root " + root + kJson);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = Records(r.output);
  ASSERT_EQ(records.size(), 1u);
  const auto& events = records[0]["monitor"]["derived"]["throttling"];
  ASSERT_EQ(events.size(), 1u) << records[0]["monitor"]["derived"];
  EXPECT_EQ(events[0]["kind"], "trip_point");
  bool noted = false;
  for (const auto& note : records[0]["notes"]) {
    noted |= note.get<std::string>().rfind("throttling: cpu-thermal reached 86.0 C", 0) == 0;
  }
  EXPECT_TRUE(noted) << records[0]["notes"];
  // The board tree has no proc/self: the worker's memory is absent there, and says why.
  EXPECT_FALSE(records[0]["monitor"]["series"].contains("process.rss"));
  auto table = RunCommand(Executable() + " run x -t null:sleep?us=500 --sysfs-root " + root +
                          " --warmup 5 --min-duration 300 2>/dev/null");
  EXPECT_NE(table.output.find("throttled x1"), std::string::npos) << table.output;
  std::filesystem::remove_all(root);
}

TEST(MonitorCli, AMemoryMapOnlyWhenAskedAndSaidWhenItCannotBeTaken) {
  // Without the flag there is no map.
  auto plain = RunCommand(Executable() + " run x -t null:cpu?us=500 --warmup 1 --min-queries 3 --min-duration 0"
                          " --format json 2>/dev/null");
  EXPECT_FALSE(Records(plain.output)[0]["monitor"].contains("memory_map"));
  // Asked for without the monitor: said, not silently empty.
  auto off = RunCommand(Executable() + " run x -t null:cpu?us=500 --warmup 1 --min-queries 3 --min-duration 0"
                        " --no-monitor --memory-map --format json 2>/dev/null");
  EXPECT_EQ(Records(off.output)[0]["monitor"]["memory_map"]["reason"], "--no-monitor: no memory map either");
}

TEST(MonitorCli, NoMonitorSamplesNothingAndSaysSo) {
  auto r = RunCommand(Executable() + " run x -t null:sleep?us=500 --no-monitor" + kJson);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = Records(r.output);
  ASSERT_EQ(records.size(), 1u);
  const auto& m = records[0]["monitor"];
  EXPECT_EQ(m["disabled_reason"], "--no-monitor: no device state was sampled");
  EXPECT_TRUE(m["t_ns"].empty());
  EXPECT_FALSE(m["settings"]["enabled"].get<bool>());
}

TEST(MonitorCli, CooldownWaitsBeforeEachCaseAfterTheFirstAndRecordsIt) {
  auto r = RunCommand(Executable() + " run x -t null:sleep?us=500,null:spin?us=500 --cooldown 1s --warmup 2 "
                      "--min-duration 100 --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = Records(r.output);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["monitor"]["cooldown"]["waited_ms"], 0);
  const auto& second = records[1]["monitor"]["cooldown"];
  EXPECT_EQ(second["mode"], "fixed");
  EXPECT_GE(second["waited_ms"].get<int64_t>(), 1000);
  EXPECT_LT(second["waited_ms"].get<int64_t>(), 5000);
}

TEST(MonitorCli, BadMonitorFlagsAreRejectedBeforeAnythingRuns) {
  const std::pair<const char*, const char*> cases[] = {
      {"--sample-hz 0", "--sample-hz"},
      {"--sample-hz 5000", "outside 0.1 to 1000"},
      {"--max-growth-mb -1", "--max-growth-mb must be a positive"},
      {"--cooldown hot", "is neither a temperature margin"},
      {"--sysfs-root /no/such/root", "does not exist; give a directory holding proc/ and sys/"},
  };
  for (const auto& [flags, expected] : cases) {
    auto r = RunCommand(Executable() + " run x -t null:sleep " + flags + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << flags << ": " << r.output;
    EXPECT_NE(r.output.find(expected), std::string::npos) << flags << ": " << r.output;
    EXPECT_EQ(r.output.find("case 1/1"), std::string::npos) << flags;  // nothing ran
  }
}

}  // namespace
}  // namespace edgebench
