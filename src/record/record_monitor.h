// The record's monitor figures: derived from its series and its queries, and the notes they
// put on the record (throttling, memory growth). Called by FinishRecord, so a stored record is
// judged again by the rules of the edgebench that reads it.
#pragma once

#include "record/record.h"

namespace edgebench {

// Fills r.monitor->derived and replaces the record's monitor notes. No-op without a monitor.
void FinishMonitor(Record& r);

// The monitor's verdict on an ok record: a busy machine's run is INVALID unless --allow-busy kept
// it (then FinishMonitor noted it).
void JudgeMonitor(const Record& r, std::vector<std::string>& reasons);

}  // namespace edgebench
