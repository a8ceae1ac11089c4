// Energy end to end: a fake RAPL package whose counter a test thread advances at 1 W (wrapping
// every 2 J), read by the worker through --sysfs-root; the record's energy, mean power and
// energy per query (per token for a language model) must match what was fed in.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../test_util.h"
#include "record/monitor_derive.h"
#include "record/monitor_json.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

constexpr int64_t kWrapUj = 2'000'000;

// A powercap tree whose package counter reads 1 uJ per us of wall time since it started.
class OneWattRapl {
 public:
  explicit OneWattRapl(const std::string& name) : root_(testing::TempFilePath("energy_cli_", name)) {
    dir_ = root_ + "/sys/class/powercap/intel-rapl:0";
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ + "/name") << "package-0\n";
    std::ofstream(dir_ + "/max_energy_range_uj") << kWrapUj << "\n";
    start_ = std::chrono::steady_clock::now();
    Write();
    writer_ = std::thread([this] {
      auto last = std::chrono::steady_clock::now();
      while (!stop_) {
        Write();
        const auto now = std::chrono::steady_clock::now();
        const int64_t gap = std::chrono::duration_cast<std::chrono::microseconds>(now - last).count();
        if (gap > max_gap_us_) max_gap_us_ = gap;
        last = now;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  ~OneWattRapl() {
    Stop();
    std::filesystem::remove_all(root_);
  }
  const std::string& root() const { return root_; }
  // How stale the counter could read, in mJ at 1 W: the longest wait between two writes. On a
  // busy machine (a sanitizer run, every core taken) the writer is starved for tens of ms, and a
  // phase's energy read from the file is off by up to twice this.
  double MaxStalenessMj() const { return static_cast<double>(max_gap_us_) / 1000.0; }
  // The package disappears (a driver unloaded, a board tree unmounted).
  void Vanish() {
    Stop();
    std::filesystem::remove_all(dir_);
  }

 private:
  // Replaced by rename, as sysfs never shows a half-written value.
  void Write() {
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_);
    std::ofstream(dir_ + "/energy_uj.tmp") << (us.count() % kWrapUj) << "\n";
    std::filesystem::rename(dir_ + "/energy_uj.tmp", dir_ + "/energy_uj");
  }

  void Stop() {
    stop_ = true;
    if (writer_.joinable()) writer_.join();
  }

  std::string root_, dir_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> max_gap_us_{0};
  std::thread writer_;
};

nlohmann::json FirstRecord(const std::string& output) {
  const auto records = testing::JsonRecords(output);
  return records.empty() ? nlohmann::json() : records[0];
}

TEST(EnergyCli, EnergyPerQueryFromARaplCounterThatWrapsMidRun) {
  OneWattRapl rapl("tensor");
  auto r = RunCommand(Executable() + " run x -t null:sleep?us=2000 --sysfs-root " + rapl.root() +
                      " --warmup 5 --min-duration 3000 --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto record = FirstRecord(r.output);
  ASSERT_TRUE(record.is_object()) << r.output;
  const auto& energy = record["monitor"]["derived"]["energy"];
  ASSERT_TRUE(energy["energy_mj"].is_number()) << energy;
  const double wall_s = record["samples"]["measured_wall_ns"].get<double>() / 1e9;
  const double queries = record["summary"]["count"].get<double>();
  // The counter's 1 W, read at 10 Hz and cut at the phase's bounds: within 3%.
  EXPECT_NEAR(energy["mean_power_mw"].get<double>(), 1000.0, 30.0) << energy;
  EXPECT_NEAR(energy["energy_mj"].get<double>(), 1000.0 * wall_s, 30.0 * wall_s) << energy;
  EXPECT_NEAR(energy["per_query_mj"].get<double>(), energy["energy_mj"].get<double>() / queries, 1e-9);
  EXPECT_GE(energy["channels"][0]["wraps"].get<int>(), 1);  // 3 s at 1 W wraps a 2 J counter
  EXPECT_EQ(energy["total_channels"], nlohmann::json::array({"rapl.intel-rapl:0"}));
  EXPECT_NEAR(record["monitor"]["derived"]["windows"][0]["mean_power_mw"].get<double>(), 1000.0, 50.0);
}

TEST(EnergyCli, ASensorThatVanishesMidRunGivesNoEnergyANoteAndNullsNotZeros) {
  OneWattRapl rapl("vanishing");
  std::thread remover([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    rapl.Vanish();
  });
  auto r = RunCommand(Executable() + " run x -t null:sleep?us=2000 --sysfs-root " + rapl.root() +
                      " --warmup 5 --min-duration 2500 --format json 2>/dev/null");
  remover.join();
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto record = FirstRecord(r.output);
  ASSERT_TRUE(record.is_object()) << r.output;
  const auto& m = record["monitor"];
  EXPECT_TRUE(m["derived"]["energy"]["energy_mj"].is_null()) << m["derived"]["energy"];
  EXPECT_TRUE(m["derived"]["energy"]["per_query_mj"].is_null());
  EXPECT_NE(m["derived"]["energy"]["reason"].get<std::string>().find("stopped reading"), std::string::npos)
      << m["derived"]["energy"];
  ASSERT_EQ(m["failures"].size(), 1u) << m["failures"];
  EXPECT_EQ(m["failures"][0]["channel"], "rapl.intel-rapl:0");
  EXPECT_NE(m["failures"][0]["error"].get<std::string>().find("No such file or directory"), std::string::npos);
  const auto& series = m["series"]["rapl.intel-rapl:0"];
  EXPECT_TRUE(series.front().is_number());
  EXPECT_TRUE(series.back().is_null());  // not a zero
  bool noted = false;
  for (const auto& note : record["notes"]) {
    noted |= note.get<std::string>().rfind("monitor: rapl.intel-rapl:0 stopped reading", 0) == 0;
  }
  EXPECT_TRUE(noted) << record["notes"];
  // The latency is still measured and the lost sensor does not judge it: the only reasons a
  // verdict may give are the latency's own spread (a sleep's on a machine busy with other tests)
  // and a sanitizer build, never the monitor.
  for (const auto& reason : record["verdict"]["reasons"]) {
    const std::string why = reason.get<std::string>();
    EXPECT_TRUE(why.rfind("latency too unstable: coefficient of variation", 0) == 0 ||
                why == "sanitizer build of edgebench")
        << record["verdict"];
  }
  EXPECT_EQ(record["status"], "ok");
}

TEST(EnergyCli, EnergyPerTokenForALanguageModel) {
  OneWattRapl rapl("llm");
  auto r = RunCommand(Executable() + " llm " + testing::TestModel("llama-tiny.gguf") +
                      " -p 32 -n 16 -r 3 --warmup 1 --sysfs-root " + rapl.root() + " --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto record = FirstRecord(r.output);
  ASSERT_TRUE(record.is_object()) << r.output;
  const auto& energy = record["monitor"]["derived"]["energy"];
  ASSERT_TRUE(energy["energy_mj"].is_number()) << energy;
  // 3 requests of 16 tokens each.
  EXPECT_NEAR(energy["per_token_mj"].get<double>(), energy["energy_mj"].get<double>() / 48, 1e-9);
  EXPECT_NEAR(energy["per_query_mj"].get<double>(), energy["energy_mj"].get<double>() / 3, 1e-9);
  const int64_t wall_ns = record["llm"]["summary"]["wall_ns"].get<int64_t>();
  const double wall_s = static_cast<double>(wall_ns) / 1e9;
  // The energy is the counter's as the record's own series read it over the measured phase
  // [0, wall): the fake counter is rewritten every 2 ms by a thread of this test, which a busy
  // machine leaves behind by tens of ms (its reading then lags, the energy with it), so the
  // expected value comes from the readings, and one watt bounds it from above only: a lagging
  // writer lowers the counter, never raises it.
  const MonitorRecord monitor = MonitorRecordFromJson(record["monitor"]);
  std::string why;
  const auto read_uj = DeviceTotalEnergyUj(monitor.series, 0, wall_ns, &why);
  ASSERT_TRUE(read_uj.has_value()) << why;
  EXPECT_NEAR(energy["energy_mj"].get<double>(), *read_uj / 1000.0, 1e-6 * (*read_uj / 1000.0) + 1e-9) << energy;
  EXPECT_GT(energy["energy_mj"].get<double>(), 0) << energy;
  EXPECT_LE(energy["energy_mj"].get<double>(), 1000.0 * wall_s + 10.0) << energy;
}

TEST(EnergyCli, IdleBaselineAndPrefillDecodeSplitEndToEnd) {
  OneWattRapl rapl("idle");
  auto r = RunCommand(Executable() + " llm " + testing::TestModel("llama-tiny.gguf") +
                      " -p 32 -n 16 -r 3 --warmup 1 --idle 1s --sysfs-root " + rapl.root() +
                      " --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto record = FirstRecord(r.output);
  ASSERT_TRUE(record.is_object()) << r.output;
  EXPECT_EQ(record["monitor"]["settings"]["idle_ms"], 1000);
  const auto& energy = record["monitor"]["derived"]["energy"];
  // The same 1 W idle and running: idle power 1 W, and next to nothing above it.
  const auto& idle = energy["idle"];
  EXPECT_EQ(idle["window_ns"].get<int64_t>() / 100'000'000, 10) << idle;  // 1 s, to 0.1 s
  ASSERT_TRUE(idle["power_mw"].is_number()) << idle;
  EXPECT_NEAR(idle["power_mw"].get<double>(), 1000.0, 50.0) << idle;
  ASSERT_TRUE(idle["above_idle_mj"].is_number()) << idle;
  // The counter is written by a thread of this test: on a busy machine it lags, by as much as
  // its longest gap at each end of the phase.
  const double staleness_mj = 2 * rapl.MaxStalenessMj();
  EXPECT_NEAR(idle["above_idle_mj"].get<double>(), 0.0, 0.2 * energy["energy_mj"].get<double>() + 10.0 + staleness_mj)
      << idle << " (the fake counter's longest gap: " << rapl.MaxStalenessMj() << " ms)";
  // Three requests one after another: their prefills and decodes add up to about the phase.
  const auto& split = energy["llm_split"];
  ASSERT_TRUE(split["prefill_mj"].is_number()) << split;
  const double parts = split["prefill_mj"].get<double>() + split["decode_mj"].get<double>();
  EXPECT_GT(split["prefill_mj"].get<double>(), 0.0);
  EXPECT_GT(split["decode_mj"].get<double>(), 0.0);
  EXPECT_LE(parts, energy["energy_mj"].get<double>() * 1.05 + 5.0 + staleness_mj) << energy;
  EXPECT_DOUBLE_EQ(split["decode_per_token_mj"].get<double>(), split["decode_mj"].get<double>() / 45);
  EXPECT_EQ(energy["method"]["sample_hz"], 10.0);
  EXPECT_EQ(energy["method"]["sensors"].size(), 1u);
}

TEST(EnergyCli, ABadIdleIsRefused) {
  auto r = RunCommand(Executable() + " run x -t null:sleep --idle forever 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--idle 'forever'"), std::string::npos) << r.output;
  auto short_window = RunCommand(Executable() + " run x -t null:sleep --idle 100ms 2>&1");
  EXPECT_EQ(short_window.exit_code, 2);
  EXPECT_NE(short_window.output.find("fewer than 2 samples"), std::string::npos) << short_window.output;
}

}  // namespace
}  // namespace edgebench
