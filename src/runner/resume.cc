#include "runner/resume.h"

namespace edgebench {

bool AttemptMayBeRetried(CaseStatus status) {
  return status == CaseStatus::kCrashed || status == CaseStatus::kTimeout;
}

std::set<std::string> CaseKeysToSkip(const std::vector<Record>& stored, bool retry_failed) {
  std::set<std::string> keys;
  for (const Record& r : stored) {
    if (r.case_key.empty()) continue;
    if (retry_failed && AttemptMayBeRetried(r.status)) continue;
    keys.insert(r.case_key);
  }
  return keys;
}

}  // namespace edgebench
