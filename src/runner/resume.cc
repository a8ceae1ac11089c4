#include "runner/resume.h"

#include "report/store.h"

namespace edgebench {

bool AttemptMayBeRetried(CaseStatus status) {
  return status == CaseStatus::kCrashed || status == CaseStatus::kTimeout;
}

std::set<std::string> CaseKeysToSkip(const std::vector<Record>& stored, bool retry_failed) {
  std::set<std::string> keys;
  for (const Record& r : stored) {
    if (r.case_key.empty()) continue;
    if (retry_failed && AttemptMayBeRetried(r.status)) continue;
    keys.insert(RoundKey(r.case_key, r.round ? r.round->round : 0));
  }
  return keys;
}

void AddStoredRecords(const std::string& store_path, const std::set<std::string>& keys,
                      std::map<std::string, Record>& by_key) {
  if (keys.empty()) return;
  auto stored = ReadStore(store_path);
  if (!stored.ok()) return;
  for (const Record& r : stored.value().records) {
    if (keys.count(r.case_key) && !by_key.count(r.case_key)) by_key[r.case_key] = r;
  }
}

}  // namespace edgebench
