// --memory-map end to end on ONNX Runtime: a snapshot at each stage and phase boundary, the
// runtime's library among the classes after the load, the model file named, malloc's figures,
// and the weights' verdict in the notes.
#include <gtest/gtest.h>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

TEST(MemoryMapCli, AMapIsTakenAtEachStageAndPhaseWithTheModelFileInIt) {
  const std::string model = std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/torch/mobilenet-tiny-test.onnx";
  auto r = RunCommand(Executable() + " run " + model + " --dim '*=1' -t ort:cpu --memory-map --warmup 2 --min-queries 5"
                      " --min-duration 0 --allow-busy --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  const auto& map = records[0]["monitor"]["memory_map"];
  EXPECT_EQ(map["reason"], "") << map["reason"];
  std::vector<std::string> moments;
  for (const auto& s : map["snapshots"]) moments.push_back(s["moment"]);
  EXPECT_EQ(moments, (std::vector<std::string>{"load start", "inputs start", "prepare start", "run start",
                                               "warmup start", "warmup end", "measure start", "measure end", "end"}));
  // ONNX Runtime's library is mapped by the load; the model's file is named among the classes.
  bool runtime_after_load = false, model_named = false;
  for (const auto& c : map["snapshots"][1]["classes"]) {
    const std::string name = c["name"];
    runtime_after_load |= name.find("libonnxruntime.so") != std::string::npos && c["rss_kb"].get<int64_t>() > 0;
  }
  for (const auto& f : map["model_files"]) model_named |= f["path"].get<std::string>().find("mobilenet-tiny-test.onnx") != std::string::npos;
  EXPECT_TRUE(runtime_after_load);
  // glibc's malloc holds something once the model is loaded, and says how much is free in it;
  // under AddressSanitizer, whose malloc answers mallinfo2 with zeros, it is not read (-1).
#if defined(__SANITIZE_ADDRESS__)
  EXPECT_EQ(map["snapshots"][1]["malloc_in_use_kb"], -1);
#else
  EXPECT_GT(map["snapshots"][1]["malloc_in_use_kb"].get<int64_t>(), 0);
  EXPECT_GE(map["snapshots"][1]["malloc_free_kb"].get<int64_t>(), 0);
#endif
  EXPECT_TRUE(model_named) << map["model_files"];
  std::string notes;
  for (const auto& n : records[0]["notes"]) notes += n.get<std::string>() + "\n";
  EXPECT_NE(notes.find("memory map: mobilenet-tiny-test.onnx: too small to tell"), std::string::npos) << notes;
}

// What ONNX Runtime's own allocator holds after the run, as a note; arena=off leaves it none and
// is recorded as what ran.
TEST(MemoryMapCli, OnnxRuntimesArenaSaysWhatItHoldsAfterTheRun) {
  const std::string model = std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/torch/mobilenet-tiny-test.onnx";
  auto r = RunCommand(Executable() + " run " + model + " --dim '*=1' -t 'ort:cpu,ort:cpu?arena=off' --warmup 2"
                      " --min-queries 5 --min-duration 0 --allow-busy --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 2u) << r.output;
  auto allocator_note = [](const nlohmann::json& record) {
    for (const auto& n : record["notes"]) {
      const std::string note = n;
      if (note.rfind("allocator: ", 0) == 0) return note;
    }
    return std::string();
  };
  const std::string arena = allocator_note(records[0]);
  EXPECT_NE(arena.find("allocator: ONNX Runtime's CPU arena after the run: "), std::string::npos) << arena;
  EXPECT_NE(arena.find(" reserved, at most "), std::string::npos) << arena;
  const std::string none = allocator_note(records[1]);
  EXPECT_NE(none.find("keeps no statistics (no arena: arena=off"), std::string::npos) << none;
  EXPECT_NE(records[1]["config"]["effective_target"].get<std::string>().find("arena=off"), std::string::npos)
      << records[1]["config"];
}

}  // namespace
}  // namespace edgebench
