// Which planned cases a resumed suite skips (`edgebench suite --resume [--retry-failed]`).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "record/record.h"

namespace edgebench {

// A worker that crashed, was killed from outside (a signal, the kernel's OOM killer) or timed
// out: an outcome of the machine at that moment, which a retry may not repeat. A case that
// failed (the runtime refused it), went over its own --case-memory limit, was unavailable or
// skipped gives the same answer each time.
bool AttemptMayBeRetried(CaseStatus status);

// The case keys a resumed plan skips: every key the store holds a record of; with
// `retry_failed`, only the keys with a record whose attempt may not be retried, so a case whose
// every attempt crashed or timed out runs again (and its new record joins the old ones: the
// store keeps every attempt).
std::set<std::string> CaseKeysToSkip(const std::vector<Record>& stored, bool retry_failed);

// A resumed command's tables show every case: the store's first record of each of `keys` that
// `by_key` (this run's records, by case key) lacks is added to it. An unreadable store adds none.
void AddStoredRecords(const std::string& store_path, const std::set<std::string>& keys,
                      std::map<std::string, Record>& by_key);

}  // namespace edgebench
