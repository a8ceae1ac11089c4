// The metric registry: every number a record is read for (name, unit, which way is better,
// what it means, and how it is read from a record), defined once. The export's columns
// (flat_record.h), the tables' metric columns (columns.cc), recommend's objectives and
// constraints (metrics/constraints.h), tune's objectives (tune/race.h), compare's single-value metrics and the
// HTML report's summary all read metrics from here; none extracts one by hand.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "record/record.h"

namespace edgebench {

// What a column's numbers are in, so that a constraint written in other units (`p99<=900us`,
// `accuracy>=90%`) can be converted, and a mismatch (`p99<=5mJ`) refused.
enum class FlatUnit {
  kText,         // not a number
  kCount,        // a plain integer (threads, batch, queries)
  kFlag,         // true or false
  kMilliseconds,
  kMillijoules,
  kMilliwatts,
  kMebibytes,
  kFraction,     // 0..1 (accuracy)
  kPerSecond,    // queries, samples or tokens per second
  kNats,         // an information quantity (KL divergence)
  kGigabytesPerSecond,  // 1e9 bytes/s (memory traffic)
  kGigaflopsPerSecond,  // 1e9 floating-point operations/s
};
std::string FlatUnitName(FlatUnit unit);

enum class Direction { kLower, kHigher };  // which values are better

// Which part of a run measures it.
enum class MetricSource {
  kLatency,        // the latency samples of a tensor scenario
  kLoad,           // a load scenario's own section (offline's samples/s)
  kMonitor,        // the device monitor (energy, power, memory)
  kAccuracy,       // an accuracy run
  kDrift,          // a drift comparison (a candidate against its reference)
  kLanguageModel,  // an llm run
};

struct Metric {
  const char* name;         // "p99_ms": the export's column, and what recommend, tune and compare name
  const char* header;       // "p99 (ms)": its tables' header
  FlatUnit unit;
  Direction better;
  MetricSource source;
  double percentile;        // a latency percentile's fraction (0.99); 0 for every other metric
  const char* description;  // one line, for docs/query.md and errors
  // Its value in the record; nullopt where the record has none (no energy sensor, too few
  // queries for a p99): never 0 for "none", which would read as a measurement.
  std::optional<double> (*value)(const Record& record);
};

// Every metric, in the export's order.
const std::vector<Metric>& Metrics();

// The metric `name` names: its own name ("p99_ms") or a short one ("p99", "energy",
// "accuracy"); nullptr when none.
const Metric* FindMetric(std::string_view name);

// The short names, with what they stand for: "p99" -> "p99_ms".
struct MetricAlias {
  const char* alias;
  const char* metric;
};
const std::vector<MetricAlias>& MetricAliases();

// The value of metric `name` (a registered name; an unknown one is a programming error and
// gives nullopt).
std::optional<double> MetricValue(std::string_view name, const Record& record);

}  // namespace edgebench
