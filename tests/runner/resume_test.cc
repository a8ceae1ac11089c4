// Which cases a resumed suite skips (runner/resume.h), called directly.
#include "runner/resume.h"

#include <gtest/gtest.h>

#include "../test_util.h"

namespace edgebench {
namespace {

Record Attempt(const std::string& key, CaseStatus status) {
  Record r = testing::MakeRecord({1'000'000});
  r.case_key = key;
  r.status = status;
  return r;
}

TEST(Resume, EveryStoredCaseIsSkippedUnlessRetryingThoseThatCrashedOrTimedOut) {
  const std::vector<Record> stored = {
      Attempt("ok", CaseStatus::kOk),           Attempt("failed", CaseStatus::kFailed),
      Attempt("crashed", CaseStatus::kCrashed), Attempt("timeout", CaseStatus::kTimeout),
      Attempt("oom", CaseStatus::kOom),         Attempt("unavailable", CaseStatus::kUnavailable),
      Attempt("retried", CaseStatus::kCrashed), Attempt("retried", CaseStatus::kOk),
      Attempt("", CaseStatus::kOk)};
  EXPECT_EQ(CaseKeysToSkip(stored, false),
            (std::set<std::string>{"ok", "failed", "crashed", "timeout", "oom", "unavailable", "retried"}));
  EXPECT_EQ(CaseKeysToSkip(stored, true),
            (std::set<std::string>{"ok", "failed", "oom", "unavailable", "retried"}))
      << "a case is retried only while none of its attempts ended on its own";
}

}  // namespace
}  // namespace edgebench
