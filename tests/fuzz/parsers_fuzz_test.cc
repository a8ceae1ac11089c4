// edgebench's own parsers under seeded mutation: whatever the text, each returns a value or an
// error with a message, and never crashes, hangs or throws. (Run under the sanitizers, this is
// where a memory error in a parser would show.)
#include <gtest/gtest.h>

#include <fstream>

#include "../test_util.h"
#include "core/sample_codec.h"
#include "diagnose/coverage.h"
#include "core/model_ops.h"
#include "inputs/image_input.h"
#include "inputs/input_source.h"
#include "inputs/npy_file.h"
#include "mutation.h"
#include "record/record.h"
#include "plan/mix_file.h"
#include "plan/model_spec.h"
#include "plan/suite_file.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

constexpr int kMutants = 5000;

template <typename Parse>
void FuzzText(const std::vector<std::string>& seeds, Parse parse, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < kMutants; ++i) {
    const std::string text = testing::Mutate(seeds[static_cast<size_t>(i) % seeds.size()], rng);
    SCOPED_TRACE(::testing::Message() << "mutant " << i);
    EXPECT_NO_THROW(parse(text));
  }
}

template <typename T>
void ExpectErrorSaysWhy(const Result<T>& r) {
  if (!r.ok()) {
    EXPECT_FALSE(r.error().empty());
  }
}

TEST(ParsersFuzz, Targets) {
  FuzzText({"ort:cpu?threads=2&opt=all", "litert:xnnpack", "a:b,c:d?x=1", "null:spin?us=5&fail_at=3"},
           [](const std::string& t) { ExpectErrorSaysWhy(ParseTargetList(t)); });
}

TEST(ParsersFuzz, DimBindings) {
  FuzzText({"batch=4", "input.0=1", "*=1"}, [](const std::string& t) {
    ShapeBindings b;
    const Status s = ParseDimBinding(t, b);
    if (!s.ok()) {
      EXPECT_FALSE(s.message().empty());
    }
  });
}

TEST(ParsersFuzz, ModelArgumentsAndManifests) {
  FuzzText({"m=a.onnx?layout=nchw,a.tflite?layout=nhwc", "model.onnx"},
           [](const std::string& t) { ExpectErrorSaysWhy(ParseModelArgument(t)); });
  FuzzText({R"({"name":"m","artifacts":[{"path":"a.onnx","layout":"nchw"}],"tolerances":{"max_abs":0.1}})"},
           [](const std::string& t) {
             const auto json = nlohmann::json::parse(t, nullptr, false);
             if (!json.is_discarded()) ExpectErrorSaysWhy(ParseModelManifest(json, "/tmp"));
           });
}

TEST(ParsersFuzz, SuiteFiles) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/m.onnx") << "x";
  SuiteReadOptions options;
  options.getenv = [](const std::string&) { return std::optional<std::string>("/tmp"); };
  FuzzText({"name: s\nmodels: [m.onnx]\ntargets: [ort:cpu, {target: null:spin, params: {us: [1, 2]}}]\n"
            "settings: {warmup: 1, min_queries: 5}\nscenarios: [single-stream, llm]\nllm: {prompt: [8], gen: [2]}\n"},
           [&](const std::string& t) { ExpectErrorSaysWhy(ParseSuite(t, "s.yaml", dir, options)); });
}

TEST(ParsersFuzz, MixFiles) {
  const std::string model = testing::TestModel("drift_mlp_other.onnx");
  FuzzText({"name: m\nduration: 2s\nalone: after\nworkloads:\n  - name: cam\n    model: " + model +
                "\n    target: ort:cpu\n    scenario: camera:4@10fps/queue:2\n"
                "    objectives: [p99<=66ms, dropped<=1%, fps>=9.5]\n"},
           [&](const std::string& t) { ExpectErrorSaysWhy(ParseMixText(t, "m.yaml")); });
  FuzzText({"p99<=66ms", "dropped<=1%", "ttft<=2s", "fps>=9.5"},
           [](const std::string& t) { ExpectErrorSaysWhy(ParseMixObjective(t)); });
}

TEST(ParsersFuzz, InputSpecsAndPreprocessing) {
  FuzzText({"sr=16000", "x=range:0:255", "x=image[resize=8x8,mean=0.5:0.5:0.5,layout=nchw]:a.png", "x=raw:f.bin",
            "x=npy:f", "b=true"},
           [](const std::string& t) { ExpectErrorSaysWhy(ParseInputSpec(t)); });
  FuzzText({"resize=128x128,scale=0.0039,mean=0.5,std=0.5:0.5:0.5,layout=nhwc"},
           [](const std::string& t) { ExpectErrorSaysWhy(ParseImagePreprocess(t)); });
}

TEST(ParsersFuzz, NpyHeaders) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  header.resize(118, ' ');
  header += '\n';
  std::string npy = std::string("\x93NUMPY\x01\x00", 8) + std::string(1, static_cast<char>(header.size())) +
                    std::string(1, '\0') + header + std::string(24, '\0');
  FuzzText({npy}, [](const std::string& t) { ExpectErrorSaysWhy(ParseNpyHeader(t, "fuzz.npy")); });
}

// The ONNX reader of coverage and placement (protobuf wire format, no library): a mutated model
// is a model or an error, never a read past the end or a runaway length.
TEST(ParsersFuzz, OnnxModels) {
  std::ifstream in(testing::TestModel("vit_micro.onnx"), std::ios::binary);
  const std::string model((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(model.size(), 1000u);
  FuzzText({model}, [](const std::string& t) { ExpectErrorSaysWhy(ParseOnnxOps(t, "fuzz.onnx")); });
}

TEST(ParsersFuzz, CoverageTables) {
  std::ifstream in(std::string(EDGEBENCH_SOURCE_DIR) + "/data/coverage/xnnpack.onnx.tsv");
  const std::string table((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(table.empty());
  FuzzText({table}, [](const std::string& t) { ExpectErrorSaysWhy(ParseSupportTable(t, "fuzz.tsv")); });
}

TEST(ParsersFuzz, RecordsAndSamples) {
  Record r = testing::MakeRecord({5, 6, 7, 8}, {9});
  r.measured_issue_ns = {0, 10, 20, 30};
  const std::string json = RecordToJson(r).dump();
  FuzzText({json}, [](const std::string& t) {
    const auto parsed = nlohmann::json::parse(t, nullptr, false);
    if (!parsed.is_discarded()) ExpectErrorSaysWhy(RecordFromJson(parsed));
  });
  FuzzText({EncodeSamples({1, 2, 3, 1000000, -5})}, [](const std::string& t) { ExpectErrorSaysWhy(DecodeSamples(t)); });
}

}  // namespace
}  // namespace edgebench
