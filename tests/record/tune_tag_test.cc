// The record's typed `tune` section (record/tune_tag.h): written and read back whole; a tag
// that is not a race's is left out of the record with a warning, not taken for one.
#include "record/tune_tag.h"

#include <gtest/gtest.h>

#include "../test_util.h"
#include "record/record.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

TuneTag TwoEntrantTag() {
  TuneTag tag;
  tag.race = "0123456789abcdef";
  tag.model = "vit";
  tag.scenario = "single-stream";
  tag.space = "threads=1,2";
  tag.settings = {{"objective", "p99"}, {"constraints", nlohmann::json::array()}};
  tag.entrants = {{"ort:cpu?threads=1", 1}, {"ort:cpu?threads=2", 1}};
  tag.pruned = {{"ort:gpu", "no device 'gpu'"}};
  tag.entrant = 1;
  tag.configuration = "ort:cpu?threads=2";
  tag.round = 2;
  tag.queries = 400;
  return tag;
}

TEST(TuneTag, ARecordsTuneSectionRoundTripsTyped) {
  Record r = testing::MakeRecord({5, 6, 7, 8});
  r.tune = TwoEntrantTag();
  auto read = RecordFromJson(RecordToJson(r));
  ASSERT_TRUE(read.ok()) << read.error();
  ASSERT_TRUE(read.value().tune.has_value());
  const TuneTag& tag = *read.value().tune;
  EXPECT_EQ(tag.race, "0123456789abcdef");
  EXPECT_EQ(tag.entrants.size(), 2u);
  EXPECT_EQ(tag.entrants[1].label, "ort:cpu?threads=2");
  EXPECT_EQ(tag.pruned[0].reason, "no device 'gpu'");
  EXPECT_EQ(tag.entrant, 1u);
  EXPECT_EQ(tag.round, 2);
  EXPECT_EQ(tag.queries, 400);
  EXPECT_EQ(tag.settings.at("objective"), "p99");
  EXPECT_FALSE(RecordFromJson(RecordToJson(testing::MakeRecord({5, 6}))).value().tune.has_value());
}

TEST(TuneTag, ATagThatIsNotARacesIsLeftOutWithAWarning) {
  Record r = testing::MakeRecord({5, 6, 7, 8});
  nlohmann::json j = RecordToJson(r);
  nlohmann::json tag = TuneTagToJson(TwoEntrantTag());
  tag["entrant"] = 7;  // of two
  j["tune"] = tag;
  auto read = RecordFromJson(j);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_FALSE(read.value().tune.has_value());
  ASSERT_FALSE(read.value().read_warnings.empty());
  EXPECT_NE(read.value().read_warnings.back().find("configuration 7 of 2"), std::string::npos);
  j["tune"] = "a string";
  EXPECT_FALSE(RecordFromJson(j).value().tune.has_value());
}

}  // namespace
}  // namespace edgebench
