// One flat row per record: the configuration's dimensions and the metrics of the registry
// (metrics/metrics.h), as plain named columns. The rows are what `edgebench export` writes (one table per scenario, for
// DuckDB, pandas or a spreadsheet) and what `edgebench recommend` ranks: the column names are
// stable and documented in docs/query.md, and recommend's objectives and constraints name them.
//
// A metric a record does not have (no energy reading on this machine, no accuracy in a latency
// record) is null, never 0: 0 would read as a measurement.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/metrics.h"
#include "record/record.h"

namespace edgebench {

struct FlatColumn {
  std::string name;
  FlatUnit unit = FlatUnit::kText;
  std::string description;
  const Metric* metric = nullptr;  // a metric's column (metrics/metrics.h); nullptr: a dimension
};

// Every column, in the order the export writes them.
const std::vector<FlatColumn>& FlatColumns();
// nullptr when no column has that name.
const FlatColumn* FindFlatColumn(const std::string& name);

// The record as one row: every column of FlatColumns(), in that order, null where the record
// has no value.
nlohmann::ordered_json FlattenRecord(const Record& record);

// The table a scenario's rows go to: its name up to a ':' ("server:200" -> "server",
// "multi-stream:4" -> "multi-stream"), so that every rate of a server run is one table with a
// column for the rate.
std::string ScenarioTable(const std::string& scenario);

}  // namespace edgebench
