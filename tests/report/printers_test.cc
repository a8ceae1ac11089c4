#include "report/printers.h"

#include <gtest/gtest.h>

#include <sstream>

#include "../test_util.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

std::string PrintWith(const std::string& format, const std::vector<Record>& records) {
  std::ostringstream out;
  auto printer = MakePrinter(format, out);
  EXPECT_TRUE(printer.ok()) << printer.error();
  printer.value()->Begin();
  for (const Record& r : records) printer.value()->Print(r);
  printer.value()->End();
  return out.str();
}

// Settled, VALID, microsecond latencies: 3 slow warmup queries, then 200 of 1.23 us. The
// rolling median (window 10) falls into the band at query 6, 3 queries into the measured phase.
Record FastRecord() {
  Record r = testing::MakeRecord(std::vector<int64_t>(200, 1230), {10000, 10000, 10000});
  r.placement.known = true;
  r.placement.nodes_by_device = {{"spin", 1}};
  FinishRecord(r);
  return r;
}

// A load failure with a long model name and a two-line error.
Record FailedRecord() {
  Record r = testing::MakeRecord({});
  r.model = "mobilenet_v3_large_100_224_float32";
  r.requested_target = "ort:xnnpack?threads=2";
  r.status = CaseStatus::kFailed;
  r.failed_stage = "load";
  r.error = "load failed: bad model\nsee the runtime's log";
  FinishRecord(r);
  return r;
}

LlmRecord LlmPart(int64_t prompt_tokens, int64_t gen_tokens) {
  LlmRecord l;
  l.settings.prompt_tokens = prompt_tokens;
  l.settings.gen_tokens = gen_tokens;
  l.settings.repetitions = 5;
  l.settings.sequences = 1;
  return l;
}

// 5 requests (too few for TTFT p90): TTFT 20..24 ms, then 63 tokens 5 ms apart each.
Record LlmMeasured() {
  Record r = testing::MakeRecord({});
  r.model = "llama-tiny";
  r.requested_target = "llamacpp:cpu";
  r.scenario = "llm";
  r.llm = LlmPart(128, 64);
  r.llm->prompt_tokens_run = 128;
  for (int i = 0; i < 5; ++i) {
    LlmRequestTiming t;
    t.first_token_ns = (20 + i) * 1'000'000;
    for (int k = 1; k <= 63; ++k) t.token_ns.push_back(t.first_token_ns + k * 5'000'000);
    r.llm->measured.push_back(t);
  }
  r.llm->session.kv_cache_bytes = 16 << 20;
  r.llm->rss_peak_bytes = int64_t{300} << 20;
  FinishRecord(r);
  return r;
}

// A crashed LLM case keeps the prompt and generation lengths it was asked for.
Record LlmCrashed() {
  Record r = testing::MakeRecord({});
  r.model = "llama-tiny";
  r.requested_target = "llamacpp:cpu";
  r.scenario = "llm";
  r.llm = LlmPart(512, 64);
  r.status = CaseStatus::kCrashed;
  r.failed_stage = "run";
  r.error = "worker died on signal 11 (SIGSEGV)";
  FinishRecord(r);
  return r;
}

TEST(Printers, TableSizesColumnsToContentAndFootnotesWhy) {
  EXPECT_EQ(PrintWith("table", {FastRecord(), FailedRecord()}),
            "model                               target                 status  ran on (nodes)"
            "  queries  p50 (ms)  p90 (ms)  p99 (ms)  mean (ms)  throughput (q/s)  settled at q"
            "  verdict  note\n"
            "m                                   null:spin              ok      spin:1        "
            "      200   0.00123   0.00123   0.00123    0.00123             200.0             6"
            "  VALID\n"
            "mobilenet_v3_large_100_224_float32  ort:xnnpack?threads=2  failed  -             "
            "        -         -         -         -          -                 -             -"
            "  INVALID  [1]\n"
            "[1] load failed: bad model see the runtime's log\n");
}

TEST(Printers, MarkdownAddsWhyColumnAndAlignsNumbersRight) {
  EXPECT_EQ(PrintWith("markdown", {FastRecord(), FailedRecord()}),
            "| model | target | status | ran on (nodes) | queries | p50 (ms) | p90 (ms) |"
            " p99 (ms) | mean (ms) | throughput (q/s) | settled at q | verdict | why |\n"
            "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
            " --- |\n"
            "| m | null:spin | ok | spin:1 | 200 | 0.00123 | 0.00123 | 0.00123 | 0.00123 | 200.0 |"
            " 6 | VALID |  |\n"
            "| mobilenet_v3_large_100_224_float32 | ort:xnnpack?threads=2 | failed | - | - | - |"
            " - | - | - | - | - | INVALID | load failed: bad model see the runtime's log |\n");
}

TEST(Printers, CsvKeepsEveryColumnAndNamesTheScenario) {
  EXPECT_EQ(PrintWith("csv", {FastRecord(), FailedRecord()}),
            "model,target,scenario,status,ran on (nodes),queries,p50 (ms),p90 (ms),p99 (ms),"
            "mean (ms),throughput (q/s),roofline (%),settled at q,p90 early-stop (ms),stable,peak RSS (MiB),energy (mJ/q),device,"
            "top operators (share of op time),start,load (ms),1st query (ms),verdict,why\n"
            "m,null:spin,single-stream,ok,spin:1,200,0.00123,0.00123,0.00123,0.00123,200.0,-,6,-,-,"
            "-,-,-,-,-,-,-,VALID,\n"
            "mobilenet_v3_large_100_224_float32,ort:xnnpack?threads=2,single-stream,failed,-,-,-,"
            "-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,INVALID,load failed: bad model see the runtime's log\n");
}

TEST(Printers, RanOnCountsTheModelsOwnNodesWhereTheRuntimeToldThem) {
  Record told = FastRecord();
  told.device = "dnnl";
  told.placement.nodes_by_device = {{"cpu", 7}, {"dnnl", 8}};  // a fused subgraph counts one
  told.placement.model_nodes = 68;
  told.placement.original_nodes_by_device = {{"cpu", 8}, {"dnnl", 60}};
  told.placement.partitions_by_device = {{"dnnl", 8}};
  Record one_part = told;
  one_part.placement.original_nodes_by_device = {{"dnnl", 68}};
  one_part.placement.partitions_by_device = {{"dnnl", 1}};
  Record untold = told;  // an old record, or a runtime that does not tell
  untold.placement.model_nodes.reset();
  untold.placement.original_nodes_by_device.clear();
  const std::string csv = PrintWith("csv", {told, one_part, untold});
  EXPECT_NE(csv.find(",dnnl 60/68 in 8 parts+cpu 8/68,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",dnnl 68/68 in 1 part,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",cpu:7+dnnl:8,"), std::string::npos) << csv;
}

TEST(Printers, TableAndMarkdownDropColumnsEmptyInEveryRowCsvKeepsThem) {
  // Only failed rows: no measurement column has a value.
  const std::vector<Record> failed = {FailedRecord()};
  EXPECT_EQ(PrintWith("table", failed),
            "model                               target                 status  verdict  note\n"
            "mobilenet_v3_large_100_224_float32  ort:xnnpack?threads=2  failed  INVALID  [1]\n"
            "[1] load failed: bad model see the runtime's log\n");
  EXPECT_EQ(PrintWith("markdown", failed),
            "| model | target | status | verdict | why |\n"
            "| --- | --- | --- | --- | --- |\n"
            "| mobilenet_v3_large_100_224_float32 | ort:xnnpack?threads=2 | failed | INVALID |"
            " load failed: bad model see the runtime's log |\n");
  const std::string csv = PrintWith("csv", failed);
  EXPECT_EQ(csv.substr(0, csv.find('\n') + 1),
            "model,target,scenario,status,ran on (nodes),queries,p50 (ms),p90 (ms),p99 (ms),"
            "mean (ms),throughput (q/s),roofline (%),settled at q,p90 early-stop (ms),stable,peak RSS (MiB),energy (mJ/q),device,"
            "top operators (share of op time),start,load (ms),1st query (ms),verdict,why\n");
  // Every row VALID: markdown has no `why` column.
  EXPECT_EQ(PrintWith("markdown", {FastRecord()}).find("why"), std::string::npos);
}

TEST(Printers, LlmTableDropsP99sAtFiveRequestsAndKeepsACrashedCasesLengths) {
  Record no_settings = LlmCrashed();
  no_settings.llm.reset();  // crashed before the worker reported its settings
  EXPECT_EQ(PrintWith("table", {LlmMeasured(), LlmCrashed(), no_settings}),
            "model       target        status   prompt (tokens)  gen (tokens)  sequences  requests"
            "  TTFT p50 (ms)  TPOT p50 (ms)  ITL p99 (ms)  prefill (tok/s)  tokens/s"
            "  KV cache (MiB)  peak RSS (MiB)  verdict  note\n"
            "llama-tiny  llamacpp:cpu  ok                   128            64          1         5"
            "           22.0           5.00          5.00           5818.2     929.2"
            "            16.0           300.0  VALID\n"
            "llama-tiny  llamacpp:cpu  crashed              512            64          1         -"
            "              -              -             -                -         -"
            "               -               -  INVALID  [1]\n"
            "llama-tiny  llamacpp:cpu  crashed                -             -          -         -"
            "              -              -             -                -         -"
            "               -               -  INVALID  [1]\n"
            "[1] worker died on signal 11 (SIGSEGV)\n");
}

TEST(Printers, LlmCsvKeepsEveryColumn) {
  EXPECT_EQ(PrintWith("csv", {LlmMeasured()}),
            "model,target,scenario,status,prompt (tokens),gen (tokens),sequences,concurrency,"
            "rate (req/s),requests,image tokens,preprocess p50 (ms),encode p50 (ms),"
            "image prefill p50 (ms),text prefill p50 (ms),TTFT p50 (ms),TTFT p99 (ms),TPOT p50 (ms),TPOT p99 (ms),"
            "ITL p99 (ms),prefill (tok/s),tokens/s,goodput (req/s),decode roofline (%),KV cache (MiB),peak RSS (MiB),"
            "energy (mJ/tok),device,top operators (share of op time),start,load (ms),1st query (ms),verdict,why\n"
            "llama-tiny,llamacpp:cpu,llm,ok,128,64,1,-,-,5,-,-,-,-,-,22.0,-,5.00,-,5.00,5818.2,929.2,-,-,16.0,"
            "300.0,-,-,-,-,-,-,VALID,\n");
}

TEST(Printers, MixedScenariosPrintOneTablePerScenarioAndOneCsv) {
  const std::vector<Record> mixed = {FailedRecord(), LlmCrashed(), FailedRecord()};
  EXPECT_EQ(PrintWith("table", mixed),
            "scenario: single-stream\n"
            "model                               target                 status  verdict  note\n"
            "mobilenet_v3_large_100_224_float32  ort:xnnpack?threads=2  failed  INVALID  [1]\n"
            "mobilenet_v3_large_100_224_float32  ort:xnnpack?threads=2  failed  INVALID  [1]\n"
            "[1] load failed: bad model see the runtime's log\n"
            "\n"
            "scenario: llm\n"
            "model       target        status   prompt (tokens)  gen (tokens)  sequences  verdict  note\n"
            "llama-tiny  llamacpp:cpu  crashed              512            64          1  INVALID  [1]\n"
            "[1] worker died on signal 11 (SIGSEGV)\n");
  EXPECT_EQ(PrintWith("markdown", mixed),
            "scenario: single-stream\n\n"
            "| model | target | status | verdict | why |\n"
            "| --- | --- | --- | --- | --- |\n"
            "| mobilenet_v3_large_100_224_float32 | ort:xnnpack?threads=2 | failed | INVALID |"
            " load failed: bad model see the runtime's log |\n"
            "| mobilenet_v3_large_100_224_float32 | ort:xnnpack?threads=2 | failed | INVALID |"
            " load failed: bad model see the runtime's log |\n"
            "\n"
            "scenario: llm\n\n"
            "| model | target | status | prompt (tokens) | gen (tokens) | sequences | verdict |"
            " why |\n"
            "| --- | --- | --- | ---: | ---: | ---: | --- | --- |\n"
            "| llama-tiny | llamacpp:cpu | crashed | 512 | 64 | 1 | INVALID |"
            " worker died on signal 11 (SIGSEGV) |\n");
  // One header: the shared columns once, each scenario's own columns in its order.
  EXPECT_EQ(PrintWith("csv", {FailedRecord(), LlmCrashed()}),
            "model,target,scenario,status,prompt (tokens),gen (tokens),sequences,concurrency,"
            "rate (req/s),requests,image tokens,preprocess p50 (ms),encode p50 (ms),"
            "image prefill p50 (ms),text prefill p50 (ms),TTFT p50 (ms),TTFT p99 (ms),TPOT p50 (ms),TPOT p99 (ms),"
            "ITL p99 (ms),prefill (tok/s),tokens/s,goodput (req/s),decode roofline (%),KV cache (MiB),"
            "ran on (nodes),queries,p50 (ms),p90 (ms),p99 (ms),mean (ms),throughput (q/s),roofline (%),"
            "settled at q,p90 early-stop (ms),stable,peak RSS (MiB),energy (mJ/tok),energy (mJ/q),"
            "device,top operators (share of op time),start,load (ms),1st query (ms),verdict,why\n"
            "mobilenet_v3_large_100_224_float32,ort:xnnpack?threads=2,single-stream,failed,-,-,-,"
            "-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,INVALID,"
            "load failed: bad model see the runtime's log\n"
            "llama-tiny,llamacpp:cpu,llm,crashed,512,64,1,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,"
            "-,-,-,-,-,-,-,-,-,-,-,INVALID,worker died on signal 11 (SIGSEGV)\n");
}

TEST(Printers, ScenarioWithoutColumnSetPrintsTheCommonColumns) {
  Record r = FailedRecord();
  r.scenario = "shapes";
  EXPECT_EQ(PrintWith("csv", {r}),
            "model,target,scenario,status,verdict,why\n"
            "mobilenet_v3_large_100_224_float32,ort:xnnpack?threads=2,shapes,failed,INVALID,"
            "load failed: bad model see the runtime's log\n");
}

TEST(Printers, MarkdownEscapesPipesAndCsvQuotesPerRfc4180) {
  Record r = FailedRecord();
  r.model = "a|b";
  r.error = "bad, very \"bad\"";
  const std::string markdown = PrintWith("markdown", {r});
  EXPECT_NE(markdown.find("| a\\|b | ort:xnnpack?threads=2 |"), std::string::npos) << markdown;
  EXPECT_EQ(PrintWith("csv", {r}),
            "model,target,scenario,status,ran on (nodes),queries,p50 (ms),p90 (ms),p99 (ms),"
            "mean (ms),throughput (q/s),roofline (%),settled at q,p90 early-stop (ms),stable,peak RSS (MiB),energy (mJ/q),device,"
            "top operators (share of op time),start,load (ms),1st query (ms),verdict,why\n"
            "a|b,ort:xnnpack?threads=2,single-stream,failed,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,INVALID,"
            "\"bad, very \"\"bad\"\"\"\n");
}

TEST(Printers, CellEscaping) {
  EXPECT_EQ(CsvCell("plain"), "plain");
  EXPECT_EQ(CsvCell("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvCell("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvCell("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvCell("cr\rhere"), "\"cr\rhere\"");
  // OWASP's CSV injection rule: what a spreadsheet would run is quoted after a single quote.
  EXPECT_EQ(CsvCell("=HYPERLINK(\"http://127.0.0.1/x\")"), "\"'=HYPERLINK(\"\"http://127.0.0.1/x\"\")\"");
  EXPECT_EQ(CsvCell("+1+cmd|' /C calc'!A0"), "\"'+1+cmd|' /C calc'!A0\"");
  EXPECT_EQ(CsvCell("-2+3"), "\"'-2+3\"");
  EXPECT_EQ(CsvCell("@SUM(A1:A2)"), "\"'@SUM(A1:A2)\"");
  EXPECT_EQ(CsvCell("\t=1"), "\"'\t=1\"");
  EXPECT_EQ(CsvCell("\r=1"), "\"'\r=1\"");
  EXPECT_EQ(CsvCell("=a,b"), "\"'=a,b\"");
  // Numbers and the no-value dash stay as they are; a formula character inside a cell is text.
  for (const char* kept : {"-1.5", "+3", "-2e-06", "-", "0", "a=b", "null:cpu?us=100"}) {
    EXPECT_EQ(CsvCell(kept), kept);
  }
  EXPECT_EQ(CsvCell(" -1"), " -1");
  EXPECT_EQ(MarkdownCell("a|b|c"), "a\\|b\\|c");
  EXPECT_EQ(MarkdownCell("two\nlines\r"), "two lines ");
}

TEST(Printers, NothingPrintedWithoutRecords) {
  for (const char* format : {"table", "markdown", "csv"}) {
    EXPECT_EQ(PrintWith(format, {}), "") << format;
  }
}

TEST(Printers, JsonIsAnArrayOfRecords) {
  const auto json = nlohmann::json::parse(PrintWith("json", {FastRecord(), LlmMeasured()}));
  ASSERT_TRUE(json.is_array());
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0]["schema"], kRecordSchema);
  EXPECT_EQ(json[1]["config"]["scenario"], "llm");
}

TEST(Printers, JsonLinesIsOneRecordPerLine) {
  std::istringstream lines(PrintWith("jsonl", {FastRecord(), FailedRecord()}));
  std::vector<nlohmann::json> records;
  for (std::string line; std::getline(lines, line);) records.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1]["config"]["model"], "mobilenet_v3_large_100_224_float32");
}

TEST(Printers, UnknownFormatIsAnError) {
  std::ostringstream out;
  auto printer = MakePrinter("xml", out);
  ASSERT_FALSE(printer.ok());
  EXPECT_NE(printer.error().find("table, markdown, csv, json, jsonl"), std::string::npos);
}

TEST(Printers, AValidResultAtDefaultedDimensionsSaysSoUnderItsRow) {
  Record r = FastRecord();
  r.dims_defaulted = {"'batch' (x.0)=1", "x.2=1"};
  ASSERT_TRUE(r.valid);
  const std::string table = PrintWith("table", {r});
  EXPECT_NE(table.find("[1] free dimensions bound to 1 (no --dim named them): 'batch' (x.0)=1, x.2=1"),
            std::string::npos)
      << table;
  EXPECT_EQ(OneLineWhy(FastRecord()), "");
}

}  // namespace
}  // namespace edgebench

namespace edgebench {
namespace {

TEST(Printers, RowsAtDifferentPrecisionsAreSaidAboveTheTable) {
  Record f32 = FastRecord();
  f32.requested_target = "ort:cpu";
  f32.effective_target = "ort:cpu";
  Record bf16 = FastRecord();
  bf16.requested_target = "openvino:cpu";
  bf16.effective_target = "openvino:cpu?hint=latency&precision=bf16";
  const std::string table = PrintWith("table", {f32, bf16});
  EXPECT_EQ(table.rfind("not like with like: these rows computed at different precisions (ort:cpu: the model's own "
                        "precision; openvino:cpu: bf16)",
                        0),
            0u)
      << table;
  EXPECT_NE(PrintWith("markdown", {f32, bf16}).find("not like with like"), std::string::npos);
  // One precision (f32 asked of OpenVINO is the model's own): no note.
  bf16.effective_target = "openvino:cpu?precision=f32";
  EXPECT_EQ(PrintWith("table", {f32, bf16}).find("not like with like"), std::string::npos);
  // A failed row computed nothing.
  bf16.effective_target = "openvino:cpu?precision=bf16";
  bf16.status = CaseStatus::kCrashed;
  EXPECT_EQ(PrintWith("table", {f32, bf16}).find("not like with like"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
