// `edgebench shapes` on a real model with a symbolic batch (ONNX Runtime).
#include <gtest/gtest.h>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;
using testing::TestModel;

TEST(ShapesCli, ARealModelMeasuresEveryBatchWithItsShapeInTheRecord) {
  auto r = RunCommand(Executable() + " shapes " + TestModel("mlp_dynamic.onnx") +
                      " --target ort:cpu --dim batch=1,2,4 --warmup 2 --min-queries 20 --min-duration 0"
                      " --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 3u) << r.output;
  const int batches[] = {1, 2, 4};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(records[i]["status"], "ok") << records[i]["failure"].dump();
    // The shape that ran, as the runtime prepared it: [batch x 8].
    EXPECT_EQ(records[i]["config"]["inputs"][0]["shape"], nlohmann::json({batches[i], 8}));
  }
}

TEST(ShapesCli, ARealModelWithoutTheDimIsABadArgument) {
  auto r = RunCommand(Executable() + " shapes " + TestModel("mlp_dynamic.onnx") +
                      " --target ort:cpu --dim seq=8,16 --warmup 1 --min-queries 5 --min-duration 0 2>&1 >/dev/null");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--dim seq=8 named no symbolic dimension"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Its inputs: x [batchx8]"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace edgebench
