// What a stored record must satisfy to be read at all: times a machine could have measured and
// counts that agree with the samples they count. A record that breaks one (edited by hand, cut
// by a bad tool, written by a broken build) is refused by every reader, named, rather than
// compared, summarised or ranked as if it had been measured.
#pragma once

#include "core/status.h"
#include "record/record.h"

namespace edgebench {

// OK, or what is impossible: which record, which field, which value, and what it should be.
Status CheckPhysicallyPossible(const Record& record);

}  // namespace edgebench
