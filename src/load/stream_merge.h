// The measured queries of several load streams as the one series a record keeps.
#pragma once

#include <vector>

#include "load/scenario.h"

namespace edgebench {

// Every stream's queries (latency and issue time) in issue order, each with its stream's index
// in `streams`; queries issued at the same instant keep the streams' order. Each stream's own
// series must be in issue order.
QuerySeries MergeStreamsByIssue(const std::vector<const QuerySeries*>& streams);

}  // namespace edgebench
