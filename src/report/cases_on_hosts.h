// The same cases on several hosts (a fleet's stores): records grouped by case, as a reader tells
// cases apart (model, target, scenario with an LLM case's lengths and load, shape), and by host
// (its fleet name, else its hostname). `edgebench fleet`'s table and the report's hosts section
// both read this grouping.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "record/record.h"
#include "stats/summary.h"

namespace edgebench {

// The scenario as a reader tells cases apart: an llm case's lengths and load, which its
// scenario name alone does not say.
std::string ScenarioText(const Record& record);

// The latency summary a case is judged by: the tensor summary, an LLM's end-to-end latency, or
// an accuracy pass's inference time.
const LatencySummary& MainLatencySummary(const Record& record);

// "MODEL[?VARIANT] TARGET SCENARIO-TEXT[ SHAPE]": one case, whatever its status on a host (a
// skipped record has no case key; an unavailable one has), so that a case skipped on one host
// (no artifact for the runtime) and unavailable on another (no runtime to ask) is one row.
std::string HostCaseLabel(const Record& record);

struct CasesOnHosts {
  struct Row {
    std::string label;                               // HostCaseLabel
    const Record* first = nullptr;                   // the first record of the case seen
    std::map<std::string, const Record*> by_host;    // the last measured record there, else the last
  };
  std::vector<std::string> hosts;  // columns
  std::vector<Row> rows;           // cases in the order first seen
};

// Groups `records`. The columns are `hosts` in that order (a host without records keeps its
// column), then every other host in the order first seen.
CasesOnHosts GroupCasesOnHosts(const std::vector<const Record*>& records, std::vector<std::string> hosts = {});

}  // namespace edgebench
