#include "report/printers.h"

#include <gtest/gtest.h>

#include <sstream>

#include "../test_util.h"

namespace edgebench {
namespace {

std::string PrintWith(const std::string& format, const Record& r) {
  std::ostringstream out;
  auto printer = MakePrinter(format, out);
  EXPECT_TRUE(printer.ok());
  printer.value()->Begin();
  printer.value()->Print(r);
  printer.value()->End();
  return out.str();
}

Record Sample() {
  std::vector<int64_t> samples;
  for (int i = 1; i <= 100; ++i) samples.push_back(i * 1'000'000);  // 1..100 ms
  Record r = testing::MakeRecord(samples);
  r.placement.known = true;
  r.placement.nodes_by_device = {{"spin", 1}};
  return r;
}

TEST(Printers, TableShowsPercentilesInMilliseconds) {
  const std::string text = PrintWith("table", Sample());
  EXPECT_NE(text.find("p50 ms"), std::string::npos);
  EXPECT_NE(text.find("50.000"), std::string::npos);   // p50
  EXPECT_NE(text.find("99.000"), std::string::npos);   // p99
  EXPECT_NE(text.find("spin:1"), std::string::npos);
}

TEST(Printers, CsvQuotesCellsWithCommas) {
  Record r = Sample();
  r.status = CaseStatus::kFailed;
  r.error = "bad, very \"bad\"";
  FinishRecord(r);
  const std::string text = PrintWith("csv", r);
  EXPECT_NE(text.find("\"bad, very \"\"bad\"\"\""), std::string::npos) << text;
  EXPECT_EQ(text.substr(0, 6), "model,");
}

TEST(Printers, MarkdownHasHeaderRule) {
  const std::string text = PrintWith("markdown", Sample());
  EXPECT_NE(text.find("| --- |"), std::string::npos);
}

TEST(Printers, JsonIsAnArrayOfRecords) {
  const auto json = nlohmann::json::parse(PrintWith("json", Sample()));
  ASSERT_TRUE(json.is_array());
  EXPECT_EQ(json[0]["schema"], kRecordSchema);
}

TEST(Printers, UnknownFormatIsAnError) {
  std::ostringstream out;
  auto printer = MakePrinter("xml", out);
  ASSERT_FALSE(printer.ok());
  EXPECT_NE(printer.error().find("table, markdown, csv, json, jsonl"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
