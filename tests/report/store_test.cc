#include "report/store.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "../test_util.h"
#include "record/record_json.h"

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

// Five processes append large records to one store at once while a sixth reads it, twenty
// times over: every record comes back whole, none lost, and the reader never sees a record
// being written as a torn line.
TEST(Store, FiveProcessesAppendingAtOnceLoseNothingAndAReaderSeesNoTornLine) {
  constexpr int kWriters = 5, kRecordsEach = 4, kRepetitions = 20;
  for (int repetition = 0; repetition < kRepetitions; ++repetition) {
    const std::string dir = TempDir();
    std::filesystem::remove_all(dir);
    auto store = ResultStore::Open(dir);
    ASSERT_TRUE(store.ok());
    const std::string path = store.value().path();
    int start[2];
    ASSERT_EQ(::pipe(start), 0);
    std::vector<pid_t> children;
    for (int w = 0; w <= kWriters; ++w) {
      const pid_t pid = ::fork();
      ASSERT_GE(pid, 0);
      if (pid > 0) {
        children.push_back(pid);
        continue;
      }
      ::close(start[1]);
      // Each record some 100 KB: 30,000 distinct samples, prepared before the start signal.
      std::vector<Record> records;
      for (int i = 0; w < kWriters && i < kRecordsEach; ++i) {
        std::vector<int64_t> samples;
        for (int64_t k = 0; k < 30000; ++k) samples.push_back(1000 + (k * 7919 + w * 104729 + i) % 100000);
        Record r = testing::MakeRecord(std::move(samples));
        r.id = "w" + std::to_string(w) + "-r" + std::to_string(i);
        records.push_back(std::move(r));
      }
      char go = 0;
      if (::read(start[0], &go, 1) < 0) ::_exit(3);
      if (w == kWriters) {  // the reader
        for (int reads = 0; reads < 50; ++reads) {
          if (!std::filesystem::exists(path)) continue;  // no writer has begun yet
          auto contents = ReadStore(path);
          if (!contents.ok() || !contents.value().warnings.empty()) ::_exit(4);
        }
        ::_exit(0);
      }
      for (const Record& r : records) {
        std::string warning;
        if (!AppendJsonLine(path, RecordToJson(r), &warning).ok() || !warning.empty()) ::_exit(1);
      }
      ::_exit(0);
    }
    ::close(start[0]);
    ::close(start[1]);  // every child's read returns: they start together
    for (pid_t pid : children) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      ASSERT_TRUE(WIFEXITED(status));
      EXPECT_EQ(WEXITSTATUS(status), 0) << "repetition " << repetition << ": exit 1: an append failed or cut "
                                        << "a torn line; exit 4: the reader saw a torn or broken line";
    }
    auto records = ReadRecords(path);
    ASSERT_TRUE(records.ok()) << "repetition " << repetition << ": " << records.error();
    std::set<std::string> ids;
    for (const Record& r : records.value()) {
      ids.insert(r.id);
      EXPECT_EQ(r.measured_ns.size(), 30000u) << r.id;
    }
    EXPECT_EQ(records.value().size(), static_cast<size_t>(kWriters * kRecordsEach)) << "repetition " << repetition;
    EXPECT_EQ(ids.size(), static_cast<size_t>(kWriters * kRecordsEach)) << "repetition " << repetition;
    std::filesystem::remove_all(dir);
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace edgebench
