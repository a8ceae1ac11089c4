// The Chrome/Perfetto trace: every event well formed by the Trace Event Format's rules (the
// check a trace viewer's importer makes), queries, streams, phases and device series where the
// records put them, and a trace written whole or not at all.
#include "report/trace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "../test_util.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

using nlohmann::json;
using testing::MakeRecord;

// The Trace Event Format's rules for the phases edgebench writes: X (complete), i (instant),
// C (counter), M (metadata). Returns the first violation, or "".
std::string Violation(const json& trace) {
  if (!trace.is_object() || !trace.contains("traceEvents") || !trace["traceEvents"].is_array()) {
    return "no traceEvents array";
  }
  const std::set<std::string> phases = {"X", "i", "C", "M"};
  for (const json& e : trace["traceEvents"]) {
    const std::string where = e.dump().substr(0, 120);
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string()) return "an event without a name: " + where;
    if (!e.contains("ph") || !e["ph"].is_string() || !phases.count(e["ph"].get<std::string>())) {
      return "an unknown phase: " + where;
    }
    if (!e.contains("pid") || !e["pid"].is_number_integer()) return "no integer pid: " + where;
    const std::string ph = e["ph"];
    if (ph == "M") {
      if (e["name"] != "process_name" && e["name"] != "thread_name") return "unknown metadata: " + where;
      if (!e["args"]["name"].is_string()) return "metadata without a name: " + where;
      if (e["name"] == "thread_name" && !e["tid"].is_number_integer()) return "thread_name without tid: " + where;
      continue;
    }
    if (!e.contains("ts") || !e["ts"].is_number() || e["ts"].get<double>() < 0) return "no ts >= 0: " + where;
    if (ph == "X") {
      if (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0) return "X without dur: " + where;
      if (!e["tid"].is_number_integer()) return "X without tid: " + where;
    }
    if (ph == "i" && (!e.contains("s") || (e["s"] != "g" && e["s"] != "p" && e["s"] != "t"))) {
      return "instant without scope: " + where;
    }
    if (ph == "C") {
      if (!e["args"].is_object() || e["args"].empty()) return "counter without values: " + where;
      for (const auto& [key, value] : e["args"].items()) {
        if (!value.is_number()) return "counter value '" + key + "' not a number: " + where;
      }
    }
  }
  return "";
}

// Two streams, 4 warm-up and 6 measured queries, and a monitor with two samples and marks.
Record StreamsRecord() {
  Record r = MakeRecord({1000, 2000, 3000, 4000, 5000, 6000}, {7000, 8000, 9000, 10000});
  r.warmup_issue_ns = {0, 7000, 15000, 24000};
  r.measured_issue_ns = {0, 0, 2000, 3000, 6000, 8000};
  r.measured_stream = {0, 1, 0, 1, 0, 1};
  r.measured_wall_ns = 20000;
  MonitorRecord m;
  Channel rss;
  rss.id = "process.rss";
  rss.kind = ChannelKind::kRss;
  m.series.channels = {rss};
  m.series.t_ns = {-50000, 10000};
  m.series.values = {{1048576.0, 2097152.0}};
  m.series.marks = {{"warmup", "start", -40000}, {"measure", "start", 0}};
  r.monitor = m;
  FinishRecord(r);
  return r;
}

TEST(Trace, EveryEventIsWellFormedAndQueriesSitOnTheirStreams) {
  const json trace = TraceFromRecords({StreamsRecord()});
  EXPECT_EQ(Violation(trace), "");
  int warmup = 0, measured = 0, counters = 0;
  std::set<int> stream_tracks;
  double first_query_ts = -1;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "X" && e["cat"] == "warmup") ++warmup;
    if (e["ph"] == "X" && e["cat"] == "measure") {
      ++measured;
      stream_tracks.insert(e["tid"].get<int>());
      if (e["name"] == "query 0") first_query_ts = e["ts"].get<double>();
    }
    if (e["ph"] == "C") {
      ++counters;
      EXPECT_EQ(e["name"], "memory (MiB)");
    }
  }
  EXPECT_EQ(warmup, 4);
  EXPECT_EQ(measured, 6);
  EXPECT_EQ(stream_tracks.size(), 2u);
  EXPECT_EQ(counters, 2);
  // The earliest event (the first sample, 50 us before the measured phase) is at 0: the
  // measured phase's first query starts at 50 us.
  EXPECT_DOUBLE_EQ(first_query_ts, 50.0);
}

TEST(Trace, CountersAreInTheirShownUnitsAndWarmupStartsAtItsMark) {
  const json trace = TraceFromRecords({StreamsRecord()});
  std::vector<double> rss;
  double warmup0 = -1;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "C") rss.push_back(e["args"]["process.rss"].get<double>());
    if (e["name"] == "warm-up 0") warmup0 = e["ts"].get<double>();
  }
  EXPECT_EQ(rss, (std::vector<double>{1.0, 2.0}));
  EXPECT_DOUBLE_EQ(warmup0, 10.0);  // the warmup mark at -40 us, the trace's 0 at -50 us
}

TEST(Trace, LanguageModelRequestsHavePrefillAndDecode) {
  Record r = MakeRecord({});
  r.scenario = "llm";
  r.llm = LlmRecord{};
  LlmRequestTiming t;
  t.start_ns = 1'000'000;
  t.first_token_ns = 3'000'000;
  t.token_ns = {4'000'000, 5'000'000};
  r.llm->measured = {t};
  FinishRecord(r);
  const json trace = TraceFromRecords({r});
  EXPECT_EQ(Violation(trace), "");
  std::map<std::string, std::pair<double, double>> spans;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "X") spans[e["name"]] = {e["ts"].get<double>(), e["dur"].get<double>()};
  }
  EXPECT_EQ(spans["request 0"], std::make_pair(0.0, 4000.0));
  EXPECT_EQ(spans["prefill"], std::make_pair(0.0, 2000.0));
  EXPECT_EQ(spans["decode"], std::make_pair(2000.0, 2000.0));
}

TEST(Trace, APipelinesStagesNestInTheirQueries) {
  Record r = StreamsRecord();
  PipelineRecord p;
  p.name = "faces";
  for (const char* name : {"decode", "detect"}) {
    PipelineStageRecord stage;
    stage.name = name;
    stage.kind = name == std::string("decode") ? "decode_image" : "model";
    p.stages.push_back(stage);
  }
  // Stream 1's query at 2000 ns (its second measured query, 4000 ns long): 1000 + 2500 ns.
  p.timeline = {{1, 3010, {1000, 2500}}};
  r.pipeline = p;
  const json trace = TraceFromRecords({r});
  ASSERT_EQ(Violation(trace), "");
  std::vector<json> stages, stream_one;
  for (const json& e : trace["traceEvents"]) {
    if (e.value("cat", "") == "stage") stages.push_back(e);
    if (e.value("cat", "") == "measure" && e["name"] == "query 3") stream_one.push_back(e);
  }
  ASSERT_EQ(stages.size(), 2u);
  ASSERT_EQ(stream_one.size(), 1u);
  const json& query = stream_one[0];
  EXPECT_EQ(stages[0]["name"], "decode");
  EXPECT_EQ(stages[0]["tid"], query["tid"]);
  EXPECT_EQ(stages[1]["args"]["kind"], "model");
  EXPECT_NEAR(stages[1]["ts"].get<double>() - stages[0]["ts"].get<double>(), 1.0, 1e-9);  // us
  EXPECT_GE(stages[0]["ts"].get<double>(), query["ts"].get<double>());
  EXPECT_LE(stages[1]["ts"].get<double>() + stages[1]["dur"].get<double>(),
            query["ts"].get<double>() + query["dur"].get<double>());
}

TEST(Trace, ATooLongRunSaysHowManyQueriesItLeftOut) {
  std::vector<int64_t> latencies(kTraceMaxQueries + 10, 1000);
  Record r = MakeRecord(latencies);
  const json trace = TraceFromRecords({r});
  size_t spans = 0;
  std::string why;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "X" && e["cat"] == "measure") ++spans;
    if (e["name"] == "queries not shown") why = e["args"]["why"];
  }
  EXPECT_EQ(spans, kTraceMaxQueries);
  EXPECT_EQ(why, "10 queries past the trace's 200000 left out");
}

TEST(Trace, AFailedWriteLeavesNoFileAndSaysWhere) {
  const Status status = WriteTrace({StreamsRecord()}, "/proc/edgebench-no-such-dir/trace.json");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("/proc/edgebench-no-such-dir/trace.json.tmp"), std::string::npos)
      << status.message();
  const std::string path = testing::TempFilePath("trace_", "ok.json");
  ASSERT_TRUE(WriteTrace({StreamsRecord()}, path).ok());
  std::ifstream in(path);
  const json back = json::parse(in);
  EXPECT_EQ(Violation(back), "");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::filesystem::remove(path);
}

TEST(TraceCli, ARunWritesATraceOfEveryCaseThatAViewerCanRead) {
  const std::string path = testing::TempFilePath("trace_", "cli.json");
  auto r = testing::RunCommand(testing::Executable() + " run x -t null:sleep?us=500,null:spin?us=200 --scenario "
                               "single-stream,multi-stream:2 --warmup 3 --min-duration 200 --trace " + path +
                               " 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("trace of 4 cases written to " + path), std::string::npos) << r.output;
  std::ifstream in(path);
  const json trace = json::parse(in, nullptr, false);
  ASSERT_FALSE(trace.is_discarded());
  EXPECT_EQ(Violation(trace), "");
  std::set<std::string> processes;
  for (const json& e : trace["traceEvents"]) {
    if (e["name"] == "process_name") processes.insert(e["args"]["name"].get<std::string>());
  }
  EXPECT_EQ(processes.size(), 4u);
  EXPECT_TRUE(processes.count("x on null:spin?us=200 (multi-stream:2, ok)")) << r.output;
  std::filesystem::remove(path);
  auto bad = testing::RunCommand(testing::Executable() + " run x -t null:sleep --trace /no/such/dir/t.json 2>&1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("the directory '/no/such/dir' does not exist"), std::string::npos) << bad.output;
}

}  // namespace
}  // namespace edgebench
