// The record's monitor section: stored and read back with its series intact, its derived
// figures and notes recomputed (not added twice), and a malformed section named.
#include "record/record_monitor.h"

#include <gtest/gtest.h>

#include "../test_util.h"
#include "record/monitor_json.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

using testing::MakeRecord;

// 1,000 queries of 1 ms over 1 s, back to back; a monitor that saw RSS grow 64 KiB a query
// and a zone over its passive trip point from 400 ms to 700 ms.
Record MonitoredRecord() {
  std::vector<int64_t> latencies(1000, 1'000'000);
  Record r = MakeRecord(latencies);
  for (int i = 0; i < 1000; ++i) r.measured_issue_ns.push_back(int64_t{i} * 1'000'000);
  r.notes = {"a runtime's own note"};
  MonitorRecord m;
  m.series.origin_ns = 123'456'789;
  m.series.effective_hz = 10;
  m.series.readers = {{"process", true, ""}, {"thermal", true, ""}, {"rapl", false, "absent: no powercap"}};
  Channel rss;
  rss.id = "process.rss";
  rss.kind = ChannelKind::kRss;
  rss.reader = "process";
  Channel zone;
  zone.id = "thermal.thermal_zone0";
  zone.kind = ChannelKind::kTemperature;
  zone.label = "cpu-thermal";
  zone.reader = "thermal";
  zone.trips = {{85'000, "passive"}};
  m.series.channels = {rss, zone};
  m.series.values.resize(2);
  for (int64_t t = -200; t <= 1100; t += 100) {
    m.series.t_ns.push_back(t * 1'000'000);
    const double queries = static_cast<double>(std::clamp<int64_t>(t, 0, 1000));
    m.series.values[0].push_back(50e6 + 65536.0 * queries);
    m.series.values[1].push_back(t >= 400 && t < 700 ? 86'000.0 : 60'000.0);
  }
  m.series.marks = {{"measure", "start", 0}, {"measure", "end", 1'000'000'000}};
  r.monitor = m;
  FinishRecord(r);
  return r;
}

TEST(RecordMonitor, FinishDerivesFiguresAndNotesOnce) {
  Record r = MonitoredRecord();
  ASSERT_TRUE(r.monitor);
  const MonitorDerived& d = r.monitor->derived;
  EXPECT_TRUE(d.memory.leak) << d.memory.explanation;
  EXPECT_NEAR(*d.memory.growth_bytes_per_query, 65536.0, 1.0);
  ASSERT_EQ(d.throttling.size(), 1u);
  EXPECT_EQ(d.throttling[0].kind, "trip_point");
  EXPECT_EQ(d.energy.reason, "no energy or power sensor (rapl: absent: no powercap)");
  FinishRecord(r);  // again: the notes are replaced, not added
  int throttling = 0, growth = 0;
  for (const std::string& note : r.notes) {
    throttling += note.rfind("throttling: ", 0) == 0;
    growth += note.rfind("memory growth: ", 0) == 0;
  }
  EXPECT_EQ(throttling, 1);
  EXPECT_EQ(growth, 1);
  EXPECT_EQ(r.notes.front(), "a runtime's own note");
  EXPECT_TRUE(r.valid);  // neither makes the latency INVALID
}

TEST(RecordMonitor, AProfiledCaseSaysItsGrowthIsTheProfilersAndTheTableSaysSo) {
  // A profiled row said "device: leak" while VALID: the growth was the profiler's event buffer.
  Record r = MonitoredRecord();
  r.operator_profile = OperatorProfile{};
  r.operator_profile->source = "ONNX Runtime's profiler (SessionOptions::EnableProfiling)";
  FinishRecord(r);
  const MemoryResult& m = r.monitor->derived.memory;
  EXPECT_FALSE(m.leak) << m.explanation;
  EXPECT_TRUE(m.profiler_growth) << m.explanation;
  int growth = 0;
  for (const std::string& note : r.notes) {
    if (note.rfind("memory growth: profiler growth: ", 0) != 0) continue;
    ++growth;
    EXPECT_NE(note.find("run the case without --profile to judge a leak"), std::string::npos) << note;
  }
  EXPECT_EQ(growth, 1);
  const auto json = RecordToJson(r);
  EXPECT_EQ(json["monitor"]["derived"]["memory"]["profiler_growth"], true);
  auto back = RecordFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_TRUE(back.value().monitor->derived.memory.profiler_growth);
  EXPECT_FALSE(back.value().monitor->derived.memory.leak);
  EXPECT_EQ(back.value().notes, r.notes);
}

TEST(RecordMonitor, AnAcceleratorsBusyShareIsOverTheMeasuredPhaseOnly) {
  Record r = MonitoredRecord();
  MonitorSeries& s = r.monitor->series;
  Channel busy;
  busy.id = "nvml0.busy";
  busy.kind = ChannelKind::kDeviceBusy;
  busy.label = "Fake GPU A100";
  busy.reader = "nvml";
  s.channels.push_back(busy);
  s.values.emplace_back();
  for (int64_t t : s.t_ns) {
    // 100% during load and warm-up (t < 0) and after the end: none of it is the measured phase's.
    const int64_t ms = t / 1'000'000;
    s.values.back().push_back(ms < 0 || ms > 1000 ? std::optional<double>(100.0)
                              : ms == 500         ? std::nullopt
                                                  : std::optional<double>(ms < 500 ? 40.0 : 80.0));
  }
  FinishRecord(r);
  ASSERT_EQ(r.monitor->derived.device_busy.size(), 1u);
  const DeviceBusyShare& b = r.monitor->derived.device_busy[0];
  EXPECT_EQ(b.channel, "nvml0.busy");
  EXPECT_EQ(b.samples, 10);  // 0..1000 ms every 100 ms, less the unread one at 500
  EXPECT_DOUBLE_EQ(b.mean_percent, (5 * 40.0 + 5 * 80.0) / 10);
  EXPECT_DOUBLE_EQ(b.max_percent, 80.0);
  int notes = 0;
  for (const std::string& note : r.notes) {
    if (note.rfind("device busy: ", 0) != 0) continue;
    ++notes;
    EXPECT_EQ(note, "device busy: Fake GPU A100 (nvml0.busy) 60% of the measured phase on average, at most 80% "
                    "(10 samples)");
  }
  EXPECT_EQ(notes, 1);
  const auto json = RecordToJson(r);
  EXPECT_EQ(json["monitor"]["derived"]["device_busy"][0]["mean_percent"], 60.0);
  EXPECT_EQ(json["monitor"]["channels"][2]["unit"], "%");
}

TEST(RecordMonitor, JsonRoundTripKeepsTheSeriesAndRecomputesTheSame) {
  const Record r = MonitoredRecord();
  const auto json = RecordToJson(r);
  EXPECT_TRUE(json["monitor"]["series"]["process.rss"].is_array());
  EXPECT_EQ(json["monitor"]["channels"][1]["unit"], "mC");
  auto back = RecordFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(RecordToJson(back.value()), json);
  EXPECT_EQ(back.value().notes, r.notes);
  EXPECT_TRUE(back.value().read_warnings.empty());
}

TEST(RecordMonitor, AnUnreadableValueStaysNullNotZero) {
  Record r = MonitoredRecord();
  r.monitor->series.values[1][5] = std::nullopt;
  auto json = RecordToJson(r);
  EXPECT_TRUE(json["monitor"]["series"]["thermal.thermal_zone0"][5].is_null());
  auto back = RecordFromJson(json);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_FALSE(back.value().monitor->series.values[1][5]);
}

TEST(RecordMonitor, AMalformedSectionIsAnErrorNamingIt) {
  auto json = RecordToJson(MonitoredRecord());
  json["monitor"]["series"]["process.rss"].erase(0);  // one value short of the sample times
  auto back = RecordFromJson(json);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().find("monitor: monitor series 'process.rss' has 13 values for 14 sample times"),
            std::string::npos)
      << back.error();
  json = RecordToJson(MonitoredRecord());
  json["monitor"]["channels"][0]["kind"] = "vibes";
  back = RecordFromJson(json);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().find("unknown kind"), std::string::npos) << back.error();
}

TEST(RecordMonitor, RecordsWithoutAMonitorStayReadable) {
  Record r = MakeRecord({5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
  auto json = RecordToJson(r);
  EXPECT_FALSE(json.contains("monitor"));
  auto back = RecordFromJson(json);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_FALSE(back.value().monitor);
}

}  // namespace
}  // namespace edgebench
