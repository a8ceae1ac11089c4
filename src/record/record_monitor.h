// The record's monitor figures: derived from its series and its queries, and the notes they
// put on the record (throttling, memory growth). Called by FinishRecord, so a stored record is
// judged again by the rules of the edgebench that reads it.
#pragma once

#include "record/record.h"

namespace edgebench {

// Queries completed against time on the monitor series' axis (the measured phase's start is 0):
// (time ns, completed), from each query's end, or its windows' counts, or each request's end.
std::vector<std::pair<int64_t, double>> QueryProgress(const Record& r);

// Fills r.monitor->derived and replaces the record's monitor notes. No-op without a monitor.
void FinishMonitor(Record& r);

// The monitor's verdict on an ok record: a busy machine's run is INVALID unless --allow-busy kept
// it (then FinishMonitor noted it).
void JudgeMonitor(const Record& r, std::vector<std::string>& reasons);

}  // namespace edgebench
