// What `edgebench fleet` prints of its hosts (fleet/fleet_outcome.h): a host whose CPU was
// emulated says so beside its numbers.
#include "fleet/fleet_outcome.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

TEST(FleetOutcome, AnEmulatedHostIsSaidToBeOne) {
  FleetHostOutcome native;
  native.host = "bench-x86";
  native.architecture = "x86_64";
  native.records.emplace_back();
  native.records.back().status = CaseStatus::kOk;
  native.records.back().environment.architecture = "x86_64";
  FleetHostOutcome emulated = native;
  emulated.host = "fleet-arm";
  emulated.architecture = "aarch64";
  emulated.records.back().environment.architecture = "aarch64";
  emulated.records.back().environment.cpu_emulation = "qemu-user cortex-a76";
  const std::string table = FleetOutcomeTable({native, emulated});
  const size_t arm = table.find("fleet-arm"), x86 = table.find("bench-x86");
  ASSERT_NE(arm, std::string::npos) << table;
  ASSERT_NE(x86, std::string::npos) << table;
  const std::string arm_line = table.substr(arm, table.find('\n', arm) - arm);
  const std::string x86_line = table.substr(x86, table.find('\n', x86) - x86);
  EXPECT_NE(arm_line.find("emulated CPU (qemu-user cortex-a76)"), std::string::npos) << table;
  EXPECT_EQ(x86_line.find("emulated"), std::string::npos) << table;
}

}  // namespace
}  // namespace edgebench
