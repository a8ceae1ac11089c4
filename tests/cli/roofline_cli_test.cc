// The roofline as a user gets it: `devices --limits` caches the machine's bandwidth, `llm` on the
// tiny model puts the decode step's share of it in the record and the table; the token's work is
// the GGUF's tensor table counted by hand (llama-tiny: hidden 128, 2 layers, 4 heads of 32, 2 KV
// heads, ffn 384, vocab 2048; f16 matrices, f32 norms; KV cache f16).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <sstream>

#include "../test_util.h"
#include "backends/build_config.h"
#include "core/cpu_emulation.h"
#include "core/machine_limits.h"

namespace edgebench {
namespace {

// Under qemu-user (the arm64 build's tests, scripts/test-arm64) a record holds no roofline share:
// its latencies are the emulator's (core/cpu_emulation.h). True there, with the omission checked.
bool EmulatedAndOmitted(const nlohmann::json& roofline) {
  const std::string emulation = ReadCpuEmulation();
  if (emulation.empty()) return false;
  EXPECT_EQ(roofline.value("omitted", std::string()).rfind("emulated device (" + emulation, 0), 0u) << roofline.dump();
  return true;
}

using namespace edgebench::testing;

class RooflineCli : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = TempFilePath("roofline_", "cache");
    ::setenv("EDGEBENCH_CACHE", cache_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("EDGEBENCH_CACHE");
    std::filesystem::remove_all(cache_);
  }
  std::string cache_;
};

nlohmann::json LlmRecord(const std::string& extra) {
  auto r = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                      " --prompt 16 --gen 8 --repeat 3 --warmup 1 --format jsonl --target 'llamacpp:cpu?threads=2'" +
                      extra);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return nlohmann::json::parse(r.output);
}

// The peak a record's machine limits hold for `target` at `precision`; 0 when none.
double MeasuredPeak(const nlohmann::json& record, const std::string& target, const std::string& precision) {
  for (const auto& p : record["machine_limits"]["compute_peaks"]) {
    if (p["target"] == target && p["precision"] == precision) return p["gflops"].get<double>();
  }
  return 0;
}

TEST_F(RooflineCli, TheTokensWorkIsTheTensorTableCountedByHand) {
  const auto record = LlmRecord("");
  const auto& model = record["llm"]["model"];
  const auto& work = model["work"];
  // Per layer: two norms of 128 floats, q 128x128, k and v 128x64, o 128x128, three ffn 128x384
  // in halves; then the token table and the output layer 2048x128 halves, the output norm.
  const int64_t per_layer = 512 + 32768 + 16384 + 16384 + 32768 + 512 + 3 * 98304;
  const int64_t table = 2048 * 128 * 2;
  EXPECT_EQ(work["tensor_bytes"], 2 * per_layer + 2 * table + 512);
  EXPECT_EQ(work["tensor_bytes"], model["bytes"]) << "llama.cpp's own model size";
  EXPECT_EQ(work["weight_bytes_per_token"], 2 * per_layer + table + 128 * 2 + 512);  // one row of the token table
  // K and V of one position: 2 layers x (64 halves + 64 halves).
  EXPECT_EQ(work["kv_bytes_per_position"], 2 * (64 * 2 + 64 * 2));
  EXPECT_EQ(work["kv_bytes_per_position"].get<int64_t>() * model["context_size"].get<int64_t>(),
            record["llm"]["kv_cache_bytes"]);
  EXPECT_EQ(work["matmul_weights"], 2048 * 128 + 2 * (128 * 128 + 2 * 128 * 64 + 128 * 128 + 3 * 128 * 384));
  EXPECT_EQ(work["attention_flops_per_position"], 4 * 2 * 4 * 32);
  EXPECT_EQ(work["output_weights"], 2048 * 128) << "no output.weight: the token table is the output layer";
  EXPECT_EQ(work["precision"], "fp32") << "f16 matrices";
  EXPECT_FALSE(work["approximate"].get<bool>());
}

TEST_F(RooflineCli, WithoutLimitsTheRooflineIsOmittedAndSaysHowToMeasure) {
  const auto record = LlmRecord("");
  EXPECT_NE(record["machine_limits"]["missing"].get<std::string>().find("edgebench devices --limits"), std::string::npos);
  const auto& roofline = record["llm"]["summary"]["roofline"];
  EXPECT_NE(roofline["omitted"].get<std::string>().find("edgebench devices --limits"), std::string::npos);
}

TEST_F(RooflineCli, DevicesLimitsMeasuresAndEveryLaterRunCarriesIt) {
  auto measured = RunCommand(Executable() + " devices --limits --allow-busy --array-mib 8 --passes 3 --peak-gflops 1000 --no-compute 2>&1");
  ASSERT_EQ(measured.exit_code, 0) << measured.output;
  EXPECT_NE(measured.output.find("memory bandwidth, 1 thread:"), std::string::npos) << measured.output;
  EXPECT_NE(measured.output.find("cached in " + cache_ + "/limits/"), std::string::npos) << measured.output;
  auto listed = RunCommand(Executable() + " devices 2>&1");
  EXPECT_NE(listed.output.find("machine limits (measured"), std::string::npos) << listed.output;

  const auto record = LlmRecord("");
  ASSERT_TRUE(record.contains("machine_limits"));
  EXPECT_GT(record["machine_limits"]["bandwidth_one_thread"]["gb_per_s"].get<double>(), 0);
  const auto& roofline = record["llm"]["summary"]["roofline"];
  if (EmulatedAndOmitted(roofline)) return;
  ASSERT_FALSE(roofline.contains("omitted")) << roofline.dump();
  // Two threads ran: held to the all-cores figure (the one-thread one on a one-core machine).
  EXPECT_EQ(record["llm"]["effective_options"]["threads"], "2");
  const auto& limits = record["machine_limits"];
  EXPECT_EQ(roofline["bandwidth_gb_per_s"],
            limits.contains("bandwidth_all_threads") ? limits["bandwidth_all_threads"]["gb_per_s"]
                                                     : limits["bandwidth_one_thread"]["gb_per_s"]);
  EXPECT_DOUBLE_EQ(roofline["decode_mean_depth"].get<double>(), 16 + 8 / 2.0);
  EXPECT_GT(roofline["decode_share"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(roofline["decode_floor_ns"].get<double>(),
                   roofline["decode_step_bytes"].get<double>() / roofline["bandwidth_gb_per_s"].get<double>());
  EXPECT_EQ(roofline["compute_peak_gflops"], 1000);
  EXPECT_GT(roofline["prefill_share"].get<double>(), 0);

  auto table = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") + " --prompt 8 --gen 4 --repeat 2 2>&1");
  EXPECT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("decode roofline (%)"), std::string::npos) << table.output;
}

// A tensor model: `devices --limits` measures ORT's own matrix-product peak, and `run` puts the
// ViT's work per query (counted from its graph) against it and the bandwidth.
TEST_F(RooflineCli, RunPutsATensorModelAgainstItsRuntimesPeak) {
  auto measured = RunCommand(Executable() + " devices --limits --allow-busy --array-mib 8 --passes 2 --compute-size 96 " +
                             "--compute-targets ort:cpu,ort:xnnpack 2>&1");
  ASSERT_EQ(measured.exit_code, 0) << measured.output;
  EXPECT_NE(measured.output.find("compute peak, ort:cpu fp32:"), std::string::npos) << measured.output;
  EXPECT_NE(measured.output.find("compute peak, ort:cpu int8:"), std::string::npos) << measured.output;
  // XNNPACK takes no MatMulInteger: the product ran on the CPU provider, so no peak is XNNPACK's.
  EXPECT_NE(measured.output.find("no compute peak: ort:xnnpack int8: the product ran on cpu"), std::string::npos)
      << measured.output;
  auto run = RunCommand(Executable() + " run " + TestModel("vit_micro.onnx") +
                        " --target ort:cpu --warmup 2 --min-queries 20 --min-duration 0 --format jsonl 2>/dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto record = nlohmann::json::parse(run.output);
  const auto& roofline = record["roofline"];
  if (EmulatedAndOmitted(roofline)) return;
  ASSERT_FALSE(roofline.contains("omitted")) << roofline.dump();
  const double peak = MeasuredPeak(record, "ort:cpu", "fp32");
  EXPECT_GT(peak, 0);
  EXPECT_EQ(roofline["compute_peak_gflops"].get<double>(), peak);
  EXPECT_EQ(roofline["precision"], "fp32");
  EXPECT_EQ(roofline["flops_per_query"], roofline["work"]["flops"]);
  EXPECT_DOUBLE_EQ(roofline["intensity"].get<double>(),
                   roofline["flops_per_query"].get<double>() / roofline["bytes_per_query"].get<double>());
  const double attainable = roofline["attainable_gflops"].get<double>();
  EXPECT_LE(attainable, peak);
  EXPECT_EQ(roofline["bound"], attainable < peak ? "memory" : "compute");
  EXPECT_GT(roofline["share"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(roofline["share"].get<double>(), roofline["achieved_gflops"].get<double>() / attainable);
  EXPECT_TRUE(roofline["approximate"].get<bool>()) << "LayerNormalization, Softmax, GELU are counted by rule";
}

// llama.cpp reads only language models: its peak is a ggml_mul_mat its backend builds, and `llm`
// holds prefill to it at the model's precision (llama-tiny's f16 matrices: fp32; Q8_0: int8).
TEST_F(RooflineCli, LlmPrefillIsHeldToGgmlsOwnProduct) {
  auto measured = RunCommand(Executable() + " devices --limits --allow-busy --array-mib 8 --passes 2 --compute-size 128 " +
                             "--compute-targets llamacpp:cpu 2>&1");
  ASSERT_EQ(measured.exit_code, 0) << measured.output;
  EXPECT_NE(measured.output.find("compute peak, llamacpp:cpu fp32: "), std::string::npos) << measured.output;
  EXPECT_NE(measured.output.find("ggml_mul_mat float32"), std::string::npos) << measured.output;
  EXPECT_NE(measured.output.find("compute peak, llamacpp:cpu int8: "), std::string::npos) << measured.output;
  EXPECT_NE(measured.output.find("ggml_mul_mat Q8_0 x Q8_0"), std::string::npos) << measured.output;
  for (const auto& [model, precision] : {std::pair{"llama-tiny.gguf", "fp32"}, {"llama-tiny-q8_0.gguf", "int8"}}) {
    if (!std::filesystem::exists(TestModel(model))) continue;  // made only where llama-quantize is
    auto r = RunCommand(Executable() + " llm " + TestModel(model) +
                        " --prompt 16 --gen 4 --repeat 2 --warmup 1 --format jsonl --target 'llamacpp:cpu?threads=2'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto record = nlohmann::json::parse(r.output);
    EXPECT_EQ(record["llm"]["model"]["work"]["precision"], precision) << model;
    const double peak = MeasuredPeak(record, "llamacpp:cpu", precision);
    const auto& roofline = record["llm"]["summary"]["roofline"];
    EXPECT_GT(peak, 0) << model;
    EXPECT_EQ(roofline["compute_peak_gflops"].get<double>(), peak) << model;
    EXPECT_DOUBLE_EQ(roofline["prefill_share"].get<double>(), roofline["prefill_gflops"].get<double>() / peak) << model;
  }
  auto odd = RunCommand(Executable() + " devices --limits --allow-busy --array-mib 8 --passes 2 --compute-size 100 " +
                        "--compute-targets llamacpp:cpu 2>&1");
  EXPECT_NE(odd.output.find("no compute peak: llamacpp:cpu fp32: load: the ggml probe's size must be a positive "
                            "multiple of 32"),
            std::string::npos)
      << odd.output;
}

#if EDGEBENCH_WITH_LITERT
// LiteRT reads no ONNX: its peak comes from a TFLite FULLY_CONNECTED through its own backend, and
// a TFLite model run on it (here the probe's own file, whose work is 2 N^3) is held to that peak.
// A target named that cannot be measured is listed with the reason, not dropped.
TEST_F(RooflineCli, LiteRtIsHeldToItsOwnTfliteProbe) {
  auto measured = RunCommand(Executable() + " devices --limits --allow-busy --array-mib 8 --passes 2 --compute-size 128 " +
                             "--compute-targets litert:cpu,nosuch:device 2>&1");
  ASSERT_EQ(measured.exit_code, 0) << measured.output;
  EXPECT_NE(measured.output.find("compute peak, litert:cpu fp32:"), std::string::npos) << measured.output;
  EXPECT_NE(measured.output.find("FULLY_CONNECTED float32 [128x128] x [128x128]"), std::string::npos) << measured.output;
  EXPECT_NE(measured.output.find("compute peak, litert:cpu int8:"), std::string::npos) << measured.output;
  EXPECT_NE(measured.output.find("no compute peak: nosuch:device: not measured (no such target"), std::string::npos)
      << measured.output;
  const std::string probe = cache_ + "/limits/probes/matmul_fp32_128.tflite";
  ASSERT_TRUE(std::filesystem::exists(probe));
  auto run = RunCommand(Executable() + " run " + probe +
                        " --target litert:cpu --warmup 2 --min-queries 20 --min-duration 0 --format jsonl 2>/dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto record = nlohmann::json::parse(run.output);
  const auto& roofline = record["roofline"];
  if (EmulatedAndOmitted(roofline)) return;
  ASSERT_FALSE(roofline.contains("omitted")) << roofline.dump();
  EXPECT_EQ(roofline["work"]["flops"], 2.0 * 128 * 128 * 128);
  EXPECT_FALSE(roofline["approximate"].get<bool>());
  const double peak = MeasuredPeak(record, "litert:cpu", "fp32");
  EXPECT_GT(peak, 0);
  EXPECT_EQ(roofline["compute_peak_gflops"].get<double>(), peak);
  EXPECT_GT(roofline["share"].get<double>(), 0);
}
#endif

TEST_F(RooflineCli, BadLimitsFlagsAreUsageErrors) {
  auto alone = RunCommand(Executable() + " devices --peak-gbs 50 2>&1");
  EXPECT_EQ(alone.exit_code, 2) << alone.output;
  EXPECT_NE(alone.output.find("go with --limits"), std::string::npos) << alone.output;
  auto busy_alone = RunCommand(Executable() + " devices --allow-busy 2>&1");
  EXPECT_EQ(busy_alone.exit_code, 2) << busy_alone.output;
  auto negative = RunCommand(Executable() + " devices --limits --peak-gbs -3 2>&1");
  EXPECT_NE(negative.exit_code, 0);
  auto damaged = RunCommand("mkdir -p " + cache_ + "/limits && echo '{bad' > '" + MachineLimitsPath(MachineKey(ReadEnvironment())) + "' && " +
                            Executable() + " devices 2>&1");
  EXPECT_NE(damaged.output.find("is not JSON"), std::string::npos) << damaged.output;
}

// Issue 50, class 3: --array-mib was never compared with the memory there is; three arrays past
// it swap or are killed. Refused before anything is allocated.
TEST_F(RooflineCli, ATriadLargerThanTheMemoryIsRefusedBeforeAllocating) {
  auto r = RunCommand(Executable() + " devices --limits --array-mib 1000000 --no-compute 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--array-mib 1000000: the triad's three arrays would need"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("measuring memory bandwidth"), std::string::npos) << "nothing measured: " << r.output;
}

// Issue 50, class 7: limits measured while other processes took the cores were cached, and every
// roofline after them read above 100%. With every core kept busy by spinning shells, the limits
// are printed but not cached; --allow-busy caches them with the figures in their note; a
// proc/stat that cannot be read leaves them unchecked, said in the note.
TEST_F(RooflineCli, LimitsMeasuredOnABusyMachineAreNotCached) {
  const std::string spin =
      "spinners=; for i in $(seq $(nproc)); do timeout 60 sh -c 'while :; do :; done' & spinners=\"$spinners $!\"; done; "
      "sleep 0.5; ";
  const std::string stop = "; status=$?; kill $spinners; exit $status";
  const std::string limits = Executable() + " devices --limits --array-mib 8 --passes 20 --no-compute";
  auto refused = RunCommand(spin + limits + " 2>&1" + stop);
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("measured on a busy machine and not cached"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("busy machine: other processes used"), std::string::npos) << refused.output;
  EXPECT_FALSE(std::filesystem::exists(MachineLimitsPath(MachineKey(ReadEnvironment()))));
  auto kept = RunCommand(spin + limits + " --allow-busy 2>&1" + stop);
  EXPECT_EQ(kept.exit_code, 0) << kept.output;
  EXPECT_NE(kept.output.find("note: measured on a busy machine, kept by --allow-busy: other processes used"),
            std::string::npos)
      << kept.output;
  const std::string fake_root = cache_ + "/no-proc";
  std::filesystem::create_directories(fake_root);
  auto unchecked = RunCommand(limits + " --sysfs-root " + fake_root + " 2>&1");
  EXPECT_EQ(unchecked.exit_code, 0) << unchecked.output;
  EXPECT_NE(unchecked.output.find("not checked for other processes' work while measured: cannot read"),
            std::string::npos)
      << unchecked.output;
}

}  // namespace
}  // namespace edgebench
