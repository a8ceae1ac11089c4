// The record's monitor figures: derived from its series and its queries, and the notes they
// put on the record (throttling, memory growth). Called by FinishRecord, so a stored record is
// judged again by the rules of the edgebench that reads it.
#pragma once

#include "record/record.h"

namespace edgebench {

// Fills r.monitor->derived and replaces the record's monitor notes. No-op without a monitor.
void FinishMonitor(Record& r);

}  // namespace edgebench
