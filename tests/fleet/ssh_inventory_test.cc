#include "fleet/ssh_inventory.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

TEST(SshInventory, AUserAHostAndAPortMakeAOneHostInventory) {
  auto d = ParseSshDestination("bench@board.local:2222");
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_EQ(d.value().user, "bench");
  EXPECT_EQ(d.value().host, "board.local");
  EXPECT_EQ(d.value().port, 2222);
  EXPECT_EQ(SshShortcutInventory(d.value()),
            "# written by edgebench fleet --ssh\n[fleet]\n"
            "board.local ansible_host=board.local ansible_user=bench ansible_port=2222\n");
  auto bare = ParseSshDestination("10.0.0.21");
  ASSERT_TRUE(bare.ok()) << bare.error();
  EXPECT_EQ(SshShortcutInventory(bare.value()), "# written by edgebench fleet --ssh\n[fleet]\n10.0.0.21 ansible_host=10.0.0.21\n");
}

TEST(SshInventory, ADestinationCannotAddInventoryVariables) {
  for (const char* hostile : {"board ansible_ssh_common_args=-oProxyCommand=touch/tmp/x", "bench@board\nevil ansible_host=x",
                              "a b@board", "board:22 x", "board:0", "board:65536", "board:", "@board", "bench@",
                              "-oProxyCommand=x", "..", "../escape", "board/x", ""}) {
    const auto d = ParseSshDestination(hostile);
    EXPECT_FALSE(d.ok()) << "accepted: " << hostile;
    if (!d.ok()) {
      EXPECT_NE(d.error().find("--ssh [USER@]HOST[:PORT]"), std::string::npos) << d.error();
    }
  }
}

}  // namespace
}  // namespace edgebench
