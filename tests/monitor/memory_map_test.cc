// The memory map: an smaps text grouped into classes, and the weights' verdict from the maps
// before and after a load, on texts and snapshots modelled on real ones.
#include "monitor/memory_map.h"

#include <gtest/gtest.h>

#include "record/monitor_json.h"
#include "record/weights_residency.h"

namespace edgebench {
namespace {

std::string Mapping(const std::string& header, int rss, int pss, int dirty, int swap) {
  return header + "\nSize:               8192 kB\nRss:                " + std::to_string(rss) +
         " kB\nPss:                " + std::to_string(pss) + " kB\nShared_Clean:          0 kB\n"
         "Private_Dirty:      " + std::to_string(dirty) + " kB\nSwap:                 " + std::to_string(swap) +
         " kB\nVmFlags: rd wr mr mw me ac sd\n";
}

TEST(MemoryMap, SmapsIsGroupedIntoClassesWithTheModelKeptHoweverSmall) {
  const std::string text =
      Mapping("55d0c0a00000-55d0c0c00000 rw-p 00000000 00:00 0                          [heap]", 2048, 2048, 2048, 0) +
      Mapping("7f0000000000-7f0004000000 rw-p 00000000 00:00 0 ", 30000, 30000, 30000, 64) +
      Mapping("7f0004000000-7f0005000000 rw-p 00000000 00:00 0 ", 1000, 1000, 1000, 0) +
      Mapping("7f0005000000-7f0005100000 rw-p 00000000 00:00 0    [anon:ggml kv cache]", 512, 512, 512, 0) +
      Mapping("7f1000000000-7f1001000000 r--p 00000000 08:01 1234   /models/model.gguf", 40000, 40000, 0, 0) +
      Mapping("7f1100000000-7f1100010000 r--p 00000000 08:01 99     /models/tiny.onnx", 48, 48, 0, 0) +
      Mapping("7f2000000000-7f2000d00000 r-xp 00000000 08:01 55     /usr/lib/libonnxruntime.so.1.23.2", 12976, 6488,
              0, 0) +
      Mapping("7f2000d00000-7f2000d10000 rw-p 00d00000 08:01 55     /usr/lib/libonnxruntime.so.1.23.2", 64, 64, 64,
              0) +
      Mapping("7f2100000000-7f2100010000 r-xp 00000000 08:01 56     /usr/lib/libm.so.6", 200, 20, 0, 0) +
      Mapping("7f2200000000-7f2200010000 rw-s 00000000 00:01 7      /memfd:allocation fd (deleted)", 4, 4, 0, 0) +
      Mapping("7f2300000000-7f2300010000 rw-s 00000000 00:05 8      /dev/dri/renderD128", 16, 16, 0, 0) +
      Mapping("7f2400000000-7f2400010000 r--p 00000000 08:01 57     /tmp/old.bin (deleted)", 2048, 2048, 0, 0) +
      Mapping("7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]", 132, 132, 132, 0) +
      Mapping("7ffc00100000-7ffc00102000 r-xp 00000000 00:00 0                          [vdso]", 8, 0, 0, 0);
  auto classes = ClassifySmaps(text, {"/models/tiny.onnx"});
  ASSERT_TRUE(classes.ok()) << classes.error();
  std::vector<std::string> order;
  for (const MemoryClassUse& c : classes.value()) order.push_back(c.kind + " " + c.name);
  EXPECT_EQ(order, (std::vector<std::string>{"file /models/model.gguf", "file /usr/lib/libonnxruntime.so.1.23.2",
                                             "file /tmp/old.bin", "file /models/tiny.onnx", "file (other files)",
                                             "anon ", "heap ", "anon:ggml kv cache ", "stack ",
                                             "device /dev/dri/renderD128", "kernel ",
                                             "shm /memfd:allocation fd (deleted)"}));
  const MemoryClassUse& anon = classes.value()[5];
  EXPECT_EQ(anon.rss_kb, 31000);  // the two unnamed mappings together
  EXPECT_EQ(anon.swap_kb, 64);
  EXPECT_EQ(anon.mappings, 2);
  const MemoryClassUse& ort = classes.value()[1];
  EXPECT_EQ(ort.rss_kb, 13040);  // code and data of one library: one class
  EXPECT_EQ(ort.pss_kb, 6552);
  EXPECT_EQ(ort.private_dirty_kb, 64);
  EXPECT_EQ(classes.value()[4].rss_kb, 200);  // libm, under 1 MiB and not a model file
  EXPECT_FALSE(ClassifySmaps("", {}).ok());
}

MemorySnapshot Snapshot(const std::string& moment, int64_t anon_kb, int64_t file_kb) {
  MemorySnapshot s;
  s.moment = moment;
  s.classes = {{"file", "/m/model.onnx", file_kb, file_kb, 0, 0, 1},
               {"anon", "", anon_kb, anon_kb, anon_kb, 0, 3},
               {"heap", "", 1000, 1000, 1000, 0, 1}};
  return s;
}

TEST(MemoryMap, WeightsAreMappedCopiedBothOrNeitherFromTheMapsAroundTheLoad) {
  const std::vector<MonitorRecord::ModelFile> files = {{"/m/model.onnx", 87'000'000}};
  auto verdict = [&](int64_t anon_after_kb, int64_t file_after_kb) {
    const auto w = DeriveWeightsResidency(
        {Snapshot("baseline", 5000, 0), Snapshot("load start", 5000, 0), Snapshot("inputs start", anon_after_kb, file_after_kb)},
        files);
    EXPECT_EQ(w.size(), 1u);
    return w.empty() ? WeightsResidency{} : w[0];
  };
  const WeightsResidency copied = verdict(5000 + 84'000, 0);
  EXPECT_EQ(copied.verdict, "copied");
  EXPECT_EQ(copied.anonymous_growth_kb, 84'000);
  EXPECT_EQ(copied.explanation,
            "copied: 0.0 MB of the 87.0 MB file resident as mapped pages, 86.0 MB of anonymous memory added, from "
            "'load start' to 'inputs start'");
  EXPECT_EQ(verdict(5000 + 100, 84'960).verdict, "mapped");
  EXPECT_EQ(verdict(5000 + 84'000, 84'960).verdict, "mapped and copied");
  EXPECT_EQ(verdict(5000 + 100, 100).verdict, "neither");
  // A file under 1 MiB is within the allocator's own growth: no verdict.
  const auto small = DeriveWeightsResidency({Snapshot("load start", 5000, 0), Snapshot("inputs start", 6000, 48)},
                                            {{"/m/model.onnx", 48'000}});
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0].verdict, "too small to tell");
  // Without a map before the load there is nothing to compare.
  EXPECT_TRUE(DeriveWeightsResidency({Snapshot("inputs start", 5000, 0)}, files).empty());
}

TEST(MemoryMap, TheMapSurvivesTheRecordsJson) {
  MonitorRecord m;
  m.settings.memory_map = true;
  m.memory_map = {Snapshot("load start", 5000, 0), Snapshot("inputs start", 89'000, 0)};
  m.memory_map[1].t_ns = -1234;
  m.memory_map[1].rss_kb = 91'000;
  m.memory_map[1].malloc_in_use_kb = 80'000;
  m.memory_map[1].malloc_free_kb = 3'000;
  m.model_files = {{"/m/model.onnx", 87'000'000}};
  m.memory_map_reason = "";
  const MonitorRecord back = MonitorRecordFromJson(MonitorRecordToJson(m));
  ASSERT_EQ(back.memory_map.size(), 2u);
  EXPECT_EQ(back.memory_map[1].moment, "inputs start");
  EXPECT_EQ(back.memory_map[1].t_ns, -1234);
  EXPECT_EQ(back.memory_map[1].rss_kb, 91'000);
  EXPECT_EQ(back.memory_map[1].malloc_in_use_kb, 80'000);
  EXPECT_EQ(back.memory_map[1].malloc_free_kb, 3'000);
  EXPECT_EQ(back.memory_map[0].malloc_in_use_kb, -1);  // not read
  EXPECT_EQ(back.memory_map[1].classes[1].rss_kb, 89'000);
  ASSERT_EQ(back.model_files.size(), 1u);
  EXPECT_EQ(back.model_files[0].bytes, 87'000'000);
  EXPECT_TRUE(back.settings.memory_map);
}

}  // namespace
}  // namespace edgebench
