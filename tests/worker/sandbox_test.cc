// The worker's sandbox (worker/sandbox.h), applied in a child process as a worker applies it:
// writes beneath the allowed directories succeed, writes anywhere else and TCP connections fail,
// and the report says what held.
#include "worker/sandbox.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

// Bits of the child's findings, its exit code.
enum : int { kInsideWritten = 1, kOutsideRefused = 2, kTcpRefused = 4, kApplied = 8, kRemoveRefused = 16 };

int TryInChild(const std::string& allowed, const std::string& outside, const std::string& existing) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const SandboxReport report = ApplyWorkerSandbox({allowed});
    int found = report.applied ? kApplied : 0;
    if (std::ofstream(allowed + "/inside") << "x") found |= kInsideWritten;
    errno = 0;
    std::ofstream out(outside);
    if (!out && errno == EACCES) found |= kOutsideRefused;
    if (::unlink(existing.c_str()) != 0 && errno == EACCES) found |= kRemoveRefused;
    const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(9);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (sock < 0 || ::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      // Refused by Landlock (EACCES), or unreachable in an empty network namespace; a closed
      // port on a reachable loopback would be ECONNREFUSED.
      if (errno == EACCES || errno == ENETUNREACH || errno == EPERM) found |= kTcpRefused;
    }
    ::_exit(found);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(WorkerSandbox, WritesOnlyBeneathTheAllowedDirectoriesAndNoNetwork) {
  const std::string allowed = testing::TempFilePath("sandbox_", "allowed");
  const std::string outside = testing::TempFilePath("sandbox_", "outside");
  const std::string existing = testing::WriteTempFile("sandbox_", "existing", "keep me");
  std::filesystem::create_directories(allowed);
  const int found = TryInChild(allowed, outside, existing);
  ASSERT_GE(found, 0);
  if (!(found & kApplied)) GTEST_SKIP() << "this kernel has no Landlock; the record says so (not_applied)";
  EXPECT_TRUE(found & kInsideWritten);
  EXPECT_TRUE(found & kOutsideRefused) << "a file outside the allowed directories was created";
  EXPECT_FALSE(std::filesystem::exists(outside));
  EXPECT_TRUE(found & kRemoveRefused) << "a file outside the allowed directories was removed";
  EXPECT_TRUE(std::filesystem::exists(existing));
  EXPECT_TRUE(found & kTcpRefused) << "the sandboxed process reached loopback TCP";
  std::filesystem::remove_all(allowed);
  std::filesystem::remove(existing);
}

TEST(WorkerSandbox, OffIsRecordedAsNotApplied) {
  ::setenv(kWorkerSandboxVariable, "off", 1);
  const SandboxReport report = ApplyWorkerSandbox({});
  ::unsetenv(kWorkerSandboxVariable);
  EXPECT_FALSE(report.applied);
  EXPECT_NE(report.not_applied.find("EDGEBENCH_WORKER_SANDBOX=off"), std::string::npos) << report.not_applied;
  const auto round_trip = SandboxReportFromJson(SandboxReportToJson(report));
  ASSERT_TRUE(round_trip.ok()) << round_trip.error();
  EXPECT_EQ(SandboxSummary(round_trip.value()), "not sandboxed: " + report.not_applied);
}

}  // namespace
}  // namespace edgebench
