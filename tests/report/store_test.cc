#include "report/store.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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
  EXPECT_NE(store.error().find("cannot create results directory '/proc/edgebench-cannot-exist': "),
            std::string::npos)
      << store.error();
}

// A full disk, made with RLIMIT_FSIZE in a child: the record that does not fit is cut back and
// said to have failed, the records before it stay whole, and the next append works.
TEST(Store, AFailedWriteIsCutBackAndTheStoreStaysWhole) {
  const std::string dir = TempDir();
  auto store = ResultStore::Open(dir);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store.value().Append(testing::MakeRecord({1, 2, 3})).ok());
  const auto size_before = std::filesystem::file_size(store.value().path());
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit {};
    limit.rlim_cur = limit.rlim_max = size_before + 100;  // room for a fragment of the next one
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::vector<int64_t> many(5000, 123456);
    const Status s = store.value().Append(testing::MakeRecord(many));
    const bool said_why = !s.ok() && s.message().find("partial record was removed") != std::string::npos;
    ::_exit(said_why ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the failed append did not say the partial record was removed";
  EXPECT_EQ(std::filesystem::file_size(store.value().path()), size_before);
  ASSERT_TRUE(store.value().Append(testing::MakeRecord({7, 8, 9})).ok());
  auto records = ReadRecords(store.value().path());
  ASSERT_TRUE(records.ok()) << records.error();
  EXPECT_EQ(records.value().size(), 2u);
}

TEST(Store, ATornLastLineIsCutBeforeTheNextAppendAndSkippedByTheReader) {
  const std::string dir = TempDir();
  auto store = ResultStore::Open(dir);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store.value().Append(testing::MakeRecord({1, 2, 3})).ok());
  std::ofstream(store.value().path(), std::ios::app) << R"({"schema":"edgebench.rec)";
  auto torn = ReadStore(store.value().path());
  ASSERT_TRUE(torn.ok());
  EXPECT_EQ(torn.value().records.size(), 1u);
  ASSERT_EQ(torn.value().warnings.size(), 1u);
  EXPECT_NE(torn.value().warnings[0].find(":2: a torn last line"), std::string::npos) << torn.value().warnings[0];
  std::string warning;
  ASSERT_TRUE(AppendJsonLine(store.value().path(), RecordToJson(testing::MakeRecord({4})), &warning).ok());
  EXPECT_NE(warning.find("cut a torn line of 24 bytes"), std::string::npos) << warning;
  auto whole = ReadRecords(store.value().path());
  ASSERT_TRUE(whole.ok()) << whole.error();
  EXPECT_EQ(whole.value().size(), 2u);
}

}  // namespace
}  // namespace edgebench
