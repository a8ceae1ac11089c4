// The data of an HTML report (`edgebench report`, docs/report.md): records from one or more
// stores reduced to one JSON document, a part per section, each already small enough to inline
// in a page: box statistics instead of samples, the first queries of a warmup, soak windows,
// monitor series thinned to at most kMaxSeriesPoints points. A section is present only when
// records that feed it exist; the page (report_page.h) draws what is there.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/conformance_cell.h"
#include "record/record.h"
#include "report/html/report_labels.h"

namespace edgebench {

// Section ids, in page order; stable: the page's anchors and the browser test use them.
inline const std::vector<std::string> kReportSectionIds = {
    "environment", "hosts",    "summary", "rounds", "latency", "warmup", "load",      "soak",
    "memory",      "placement", "pipelines", "mixes", "shapes",  "accuracy", "conformance", "llm",   "vlm",   "roofline",
    "tradeoffs",   "tune"};

// A series drawn over time holds at most this many points (every n-th sample, the last kept).
inline constexpr size_t kMaxSeriesPoints = 2000;
// The warmup curve shows the first this many queries of warmup + measured.
inline constexpr size_t kWarmupCurveQueries = 400;
// Charts with one series per case show at most this many (the first ones); the page says how
// many were left out.
inline constexpr size_t kMaxCurvesPerChart = 24;

struct ReportStore {
  std::string label;  // how the page names the store: its path as given
  std::string path;   // the results.jsonl read
  int records_read = 0;
  int duplicates = 0;  // records whose id an earlier store already had
};

struct ReportInputs {
  std::string title;
  std::vector<ReportStore> stores;
  std::vector<Record> records;          // deduplicated by id, in store order
  std::vector<size_t> record_store;     // index into `stores`, one per record
  std::vector<nlohmann::json> token_drift;  // lines of the stores' token_drift.jsonl
  std::vector<ConformanceCell> conformance;  // cells of the stores' conformance.jsonl
  std::vector<std::string> warnings;    // lines skipped, duplicates: shown in the page too
  nlohmann::json tradeoffs;             // TradeoffsSection (report_tradeoffs.h); null: none
  CaseLabels labels;                    // of `records` (ReadReportStores sets them)
};

// Reads each STORE (a directory holding results.jsonl, or a .jsonl file) and, beside a
// directory's results.jsonl, its token_drift.jsonl and conformance.jsonl (a conformance.jsonl
// may also be given itself). An error names the store that does not
// exist or holds no records; lines that are not records are skipped with a warning naming
// the file and line. Records already read from an earlier store (same id) are dropped.
Result<ReportInputs> ReadReportStores(const std::vector<std::string>& stores);

// The report's data: {"title", "generated_at", "edgebench_version", "stores", "warnings",
// "sections": {id: part}} with only the sections that have records.
nlohmann::json BuildReportData(const ReportInputs& inputs);

}  // namespace edgebench
