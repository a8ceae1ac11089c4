#include "report/store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

std::string TempDir() {
  char dir[] = "/tmp/edgebench_store_XXXXXX";
  return ::mkdtemp(dir);
}

TEST(Store, AppendsOneLinePerRecordAndReadsThemBack) {
  const std::string dir = TempDir() + "/nested/results";
  auto store = ResultStore::Open(dir);
  ASSERT_TRUE(store.ok()) << store.error();
  Record a = testing::MakeRecord({1, 2, 3});
  Record b = testing::MakeRecord({4, 5, 6});
  b.id = "test-2";
  ASSERT_TRUE(store.value().Append(a).ok());
  ASSERT_TRUE(store.value().Append(b).ok());
  auto records = ReadRecords(store.value().path());
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 2u);
  EXPECT_EQ(records.value()[1].id, "test-2");
  EXPECT_EQ(records.value()[1].measured_ns, (std::vector<int64_t>{4, 5, 6}));
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path().parent_path());
}

TEST(Store, NamesTheLineThatIsNotARecord) {
  const std::string dir = TempDir();
  {
    std::ofstream out(dir + "/results.jsonl");
    out << RecordToJson(testing::MakeRecord({1})).dump() << "\n{\"half\": \n";
  }
  auto records = ReadRecords(dir + "/results.jsonl");
  ASSERT_FALSE(records.ok());
  EXPECT_NE(records.error().find("results.jsonl:2"), std::string::npos) << records.error();
  std::filesystem::remove_all(dir);
}

TEST(Store, UnwritableDirectoryIsAClearError) {
  auto store = ResultStore::Open("/proc/edgebench-cannot-exist");
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.error().find("/proc/edgebench-cannot-exist"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
