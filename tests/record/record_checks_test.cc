// Records that no machine could have measured are refused by every reader, named
// (record/record_checks.h), rather than compared or ranked.
#include "record/record_checks.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"
#include "report/store.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

using testing::MakeRecord;

// `r` written and read back as a store would: the error of the read, or "" when it was read.
std::string ReadBackError(const Record& r) {
  auto read = RecordFromJson(RecordToJson(r));
  return read.ok() ? "" : read.error();
}

TEST(RecordChecks, AMeasuredRecordIsRead) {
  EXPECT_EQ(ReadBackError(MakeRecord({1'000'000, 2'000'000, 3'000'000}, {5'000'000})), "");
}

TEST(RecordChecks, LatenciesOfNoTimeOrLessAreRefusedWithTheRecordAndFieldNamed) {
  for (int64_t bad : {int64_t{0}, int64_t{-5}, std::numeric_limits<int64_t>::min() / 4}) {
    Record measured = MakeRecord({1'000'000, 2'000'000, bad});
    measured.id = "rec-7";
    const std::string error = ReadBackError(measured);
    EXPECT_NE(error.find("record rec-7 (m on null:spin)"), std::string::npos) << error;
    EXPECT_NE(error.find("samples.measured.latency_ns[2] is " + std::to_string(bad) + " ns"), std::string::npos)
        << error;
    EXPECT_NE(ReadBackError(MakeRecord({1'000'000}, {bad})).find("samples.warmup.latency_ns[0]"),
              std::string::npos);
  }
}

TEST(RecordChecks, PerQuerySeriesThatDoNotMatchTheirQueriesAreRefused) {
  Record streams = MakeRecord({1'000'000, 2'000'000, 3'000'000});
  streams.measured_stream = {0, -1, 0};
  EXPECT_NE(ReadBackError(streams).find("samples.measured.stream[1] is -1"), std::string::npos);
  Record service = MakeRecord({1'000'000, 2'000'000});
  service.measured_service_ns = {500'000, 0};
  EXPECT_NE(ReadBackError(service).find("samples.measured.service_ns[1] is 0 ns"), std::string::npos);
  Record issued = MakeRecord({1'000'000, 2'000'000});
  issued.measured_issue_ns = {0, -3};
  EXPECT_NE(ReadBackError(issued).find("samples.measured.issue_ns[1] is -3, below zero"), std::string::npos);
  Record wall = MakeRecord({1'000'000});
  wall.load_ns = -1;
  EXPECT_NE(ReadBackError(wall).find("timings_ns.load is -1"), std::string::npos);
}

TEST(RecordChecks, CountsThatDisagreeWithTheirSamplesAreRefused) {
  Record r = MakeRecord({1'000'000, 2'000'000, 3'000'000});
  nlohmann::json json = RecordToJson(r);
  json["samples"]["measured"]["count"] = 5;  // three samples stored
  EXPECT_FALSE(RecordFromJson(json).ok());
  json["samples"]["measured"]["count"] = 2;
  EXPECT_FALSE(RecordFromJson(json).ok());
}

TEST(RecordChecks, LlmTokensBeforeTheirRequestOrOutOfOrderAreRefused) {
  Record r = MakeRecord({});
  r.scenario = "llm";
  r.llm.emplace();
  r.llm->measured.push_back({100, 200, {300, 400}, 8});
  EXPECT_EQ(ReadBackError(r), "");
  r.llm->measured.push_back({100, 100, {300}, 8});
  EXPECT_NE(ReadBackError(r).find("llm.measured[1]'s first token came 0 ns after its start"), std::string::npos);
  r.llm->measured.back() = {100, 200, {300, 250}, 8};
  EXPECT_NE(ReadBackError(r).find("llm.measured[1]'s token 3 came no later than the one before"),
            std::string::npos);
}

TEST(RecordChecks, AStoreSkipsAnImpossibleRecordNamingItAndReadsTheRest) {
  const std::string dir = testing::TempFilePath("record_checks_", "store");
  std::filesystem::remove_all(dir);
  auto store = ResultStore::Open(dir);
  ASSERT_TRUE(store.ok()) << store.error();
  Record good = MakeRecord({1'000'000, 2'000'000});
  good.id = "good";
  Record bad = MakeRecord({1'000'000, -2'000'000});
  bad.id = "bad";
  ASSERT_TRUE(store.value().Append(good).ok());
  ASSERT_TRUE(store.value().Append(bad).ok());
  auto contents = ReadStore(store.value().path());
  ASSERT_TRUE(contents.ok()) << contents.error();
  ASSERT_EQ(contents.value().records.size(), 1u);
  EXPECT_EQ(contents.value().records[0].id, "good");
  ASSERT_EQ(contents.value().warnings.size(), 1u);
  EXPECT_NE(contents.value().warnings[0].find("results.jsonl:2: "), std::string::npos) << contents.value().warnings[0];
  EXPECT_NE(contents.value().warnings[0].find("record bad"), std::string::npos) << contents.value().warnings[0];
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
