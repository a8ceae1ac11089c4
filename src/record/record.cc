#include "record/record.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace edgebench {

std::string CaseStatusName(CaseStatus status) {
  switch (status) {
    case CaseStatus::kOk: return "ok";
    case CaseStatus::kFailed: return "failed";
    case CaseStatus::kCrashed: return "crashed";
    case CaseStatus::kTimeout: return "timeout";
    case CaseStatus::kUnavailable: return "unavailable";
    case CaseStatus::kSkipped: return "skipped";
    case CaseStatus::kOom: return "oom";
  }
  return "failed";
}

std::optional<CaseStatus> ParseCaseStatus(const std::string& name) {
  for (CaseStatus s : {CaseStatus::kOk, CaseStatus::kFailed, CaseStatus::kCrashed,
                       CaseStatus::kTimeout, CaseStatus::kUnavailable, CaseStatus::kSkipped,
                       CaseStatus::kOom}) {
    if (CaseStatusName(s) == name) return s;
  }
  return std::nullopt;
}

std::string NewRecordId() {
  static std::atomic<int> counter{0};
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%lld-%d-%d",
                static_cast<long long>(std::chrono::duration_cast<std::chrono::microseconds>(now).count()),
                static_cast<int>(::getpid()), counter.fetch_add(1));
  return buffer;
}

std::string UtcNowIso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace edgebench
