#include "plan/tune_space.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

TEST(TuneSpace, ExpandsTheCartesianProductFirstKeySlowest) {
  auto space = ParseSpace("target=ort:cpu,ort:xnnpack; threads=1,2,4 ;batch=1,4");
  ASSERT_TRUE(space.ok()) << space.error();
  auto configs = ExpandSpace(space.value());
  ASSERT_TRUE(configs.ok()) << configs.error();
  ASSERT_EQ(configs.value().size(), 12u);
  EXPECT_EQ(configs.value()[0].label, "ort:cpu threads=1 batch=1");
  EXPECT_EQ(configs.value()[1].label, "ort:cpu threads=1 batch=4");
  EXPECT_EQ(configs.value()[11].label, "ort:xnnpack threads=4 batch=4");
  EXPECT_EQ(configs.value()[11].target.text, "ort:xnnpack?threads=4");
  EXPECT_EQ(configs.value()[11].batch, 4);
}

TEST(TuneSpace, MistakesAreNamed) {
  struct Case {
    std::string text;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {"threads=1,2", "has no 'target' list"},
           {"target=ort:cpu;threads", "'threads' is not KEY=VALUES"},
           {"target=ort:cpu;threads=1;threads=2", "key 'threads' is given twice"},
           {"target=ort:cpu;threads=1,,2", "'threads' has an empty value"},
           {"target=ort:cpu,ort:cpu", "lists 'ort:cpu' twice"},
       }) {
    auto space = ParseSpace(c.text);
    ASSERT_FALSE(space.ok()) << c.text;
    EXPECT_NE(space.error().find(c.message), std::string::npos) << space.error();
  }
  for (const Case& c : std::vector<Case>{
           {"target=ort:cpu?threads=2;threads=1", "sets threads itself"},
           {"target=ort:cpu;batch=0", "batch '0' is not a positive integer"},
           {"target=ort:cpu;batch=2x", "batch '2x' is not a positive integer"},
           {"target=ort:cpu;a=1,2,3,4,5,6,7,8,9;b=1,2,3,4,5,6,7,8,9;c=1,2,3,4,5,6,7,8,9;d=1,2,3,4,5,6,7,8,9",
            "is not a search but a typo"},
       }) {
    auto space = ParseSpace(c.text);
    ASSERT_TRUE(space.ok()) << space.error();
    auto configs = ExpandSpace(space.value());
    ASSERT_FALSE(configs.ok()) << c.text;
    EXPECT_NE(configs.error().find(c.message), std::string::npos) << configs.error();
  }
  // Twelve lists of ten: 10^12 configurations, refused from their count, never made.
  std::string huge = "target=ort:cpu";
  for (char key = 'a'; key < 'a' + 12; ++key) huge += std::string(";") + key + "=0,1,2,3,4,5,6,7,8,9";
  auto space = ParseSpace(huge);
  ASSERT_TRUE(space.ok()) << space.error();
  auto configs = ExpandSpace(space.value());
  ASSERT_FALSE(configs.ok());
  EXPECT_NE(configs.error().find("--space expands to 1000000000000 configurations"), std::string::npos)
      << configs.error();
}

}  // namespace
}  // namespace edgebench
