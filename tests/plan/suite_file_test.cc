#include "plan/suite_file.h"

#include <gtest/gtest.h>

#include <set>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace edgebench {
namespace {

namespace fs = std::filesystem;

// A directory with empty model files (the reader checks that they exist, never reads them) and an
// injected environment, so no test depends on the process's variables.
class SuiteFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("edgebench_suite_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "models");
    fs::create_directories(dir_ / "cache" / "models");
    for (const char* name :
         {"a.onnx", "a.tflite", "b.onnx", "models/c.onnx", "cache/models/vit.onnx"}) {
      std::ofstream(dir_ / name) << "x";
    }
    std::ofstream(dir_ / "models" / "blaze.json")
        << R"({"name": "blazeface", "artifacts": [{"path": "c.onnx", "layout": "nchw"}]})";
    std::ofstream(dir_ / "models" / "broken.json")
        << R"({"name": "broken", "artifacts": [{"path": "absent.onnx"}]})";
    env_ = {{"HOME", (dir_ / "home").string()}, {"EDGEBENCH_CACHE", (dir_ / "cache").string()}};
  }
  void TearDown() override { fs::remove_all(dir_); }

  SuiteReadOptions Options() const {
    SuiteReadOptions options;
    options.getenv = [this](const std::string& name) -> std::optional<std::string> {
      const auto it = env_.find(name);
      if (it == env_.end()) return std::nullopt;
      return it->second;
    };
    return options;
  }
  Result<SuiteSpec> Parse(const std::string& yaml) const {
    return ParseSuite(yaml, "suite.yaml", dir_.string(), Options());
  }
  // The error of a suite that must fail, checked to start with "suite.yaml:LINE:".
  std::string ErrorAt(const std::string& yaml, int line) const {
    auto suite = Parse(yaml);
    if (suite.ok()) {
      ADD_FAILURE() << "accepted:\n" << yaml;
      return "";
    }
    const std::string prefix = "suite.yaml:" + std::to_string(line) + ":";
    EXPECT_EQ(suite.error().rfind(prefix, 0), 0u)
        << "expected " << prefix << " in: " << suite.error();
    return suite.error();
  }
  std::string P(const std::string& relative) const { return (dir_ / relative).string(); }

  fs::path dir_;
  std::map<std::string, std::string> env_;
};

#define EXPECT_HAS(haystack, needle)                    \
  EXPECT_NE((haystack).find(needle), std::string::npos) \
      << "'" << (needle) << "' not in: " << (haystack)

TEST_F(SuiteFile, FullFileWithExactValues) {
  auto suite = Parse(R"(
name: readme-numbers
out: results/readme
settings:
  warmup: 5
  min_queries: 50
  min_duration_ms: 200
  max_duration_ms: 3000
  seed: 7
  max_cv: 0.25
  timeout_ms: 90000
models:
  - ${EDGEBENCH_CACHE}/models/vit.onnx
  - name: oww
    artifacts: [a.onnx, "a.tflite?layout=nhwc"]
    dims: {batch: 1, "*": 2}
    inputs: ["sr=16000"]
  - manifest: models/blaze.json
  - path: b.onnx
    name: bee
targets:
  - ort:cpu
  - "ort:xnnpack?opt=basic"
  - target: llamacpp
    params: {fa: [on, off]}
params:
  threads: [1, 2]
scenarios: [single-stream, llm]
llm: {prompt: [128, 512], gen: [64], repeat: 3, warmup: 0, sequences: 2}
)");
  ASSERT_TRUE(suite.ok()) << suite.error();
  const SuiteSpec& s = suite.value();
  EXPECT_EQ(s.path, "suite.yaml");
  EXPECT_EQ(s.name, "readme-numbers");
  EXPECT_EQ(s.out_dir, P("results/readme"));
  EXPECT_EQ(s.settings.warmup_queries, 5);
  EXPECT_EQ(s.settings.min_queries, 50);
  EXPECT_EQ(s.settings.min_duration_ms, 200);
  EXPECT_EQ(s.settings.max_duration_ms, 3000);
  EXPECT_EQ(s.settings.seed, 7u);
  EXPECT_DOUBLE_EQ(s.settings.max_cv, 0.25);
  EXPECT_EQ(s.settings.case_timeout_ms, 90000);

  ASSERT_EQ(s.models.size(), 4u);
  EXPECT_EQ(s.models[0].spec.name, "vit");
  ASSERT_EQ(s.models[0].spec.artifacts.size(), 1u);
  EXPECT_EQ(s.models[0].spec.artifacts[0].path, P("cache/models/vit.onnx"));
  EXPECT_EQ(s.models[0].line, 13);
  EXPECT_TRUE(s.models[0].dims.empty());

  EXPECT_EQ(s.models[1].spec.name, "oww");
  ASSERT_EQ(s.models[1].spec.artifacts.size(), 2u);
  EXPECT_EQ(s.models[1].spec.artifacts[0].path, P("a.onnx"));
  EXPECT_EQ(s.models[1].spec.artifacts[0].layout, Layout::kAny);
  EXPECT_EQ(s.models[1].spec.artifacts[1].path, P("a.tflite"));
  EXPECT_EQ(s.models[1].spec.artifacts[1].layout, Layout::kNhwc);
  EXPECT_EQ(s.models[1].dims, (ShapeBindings{{"batch", 1}, {"*", 2}}));
  EXPECT_EQ(s.models[1].inputs, (std::vector<std::string>{"sr=16000"}));
  EXPECT_EQ(s.models[1].line, 14);

  EXPECT_EQ(s.models[2].spec.name, "blazeface");
  ASSERT_EQ(s.models[2].spec.artifacts.size(), 1u);
  EXPECT_EQ(s.models[2].spec.artifacts[0].path, P("models/c.onnx"));
  EXPECT_EQ(s.models[2].spec.artifacts[0].layout, Layout::kNchw);
  EXPECT_EQ(s.models[3].spec.name, "bee");
  EXPECT_EQ(s.models[3].spec.artifacts[0].path, P("b.onnx"));

  std::vector<std::string> targets;
  for (const Target& t : s.targets) targets.push_back(t.text);
  // The suite's lists first (slowest), then the target's own.
  EXPECT_EQ(targets, (std::vector<std::string>{
                         "ort:cpu?threads=1", "ort:cpu?threads=2",
                         "ort:xnnpack?opt=basic&threads=1", "ort:xnnpack?opt=basic&threads=2",
                         "llamacpp:cpu?fa=on&threads=1", "llamacpp:cpu?fa=off&threads=1",
                         "llamacpp:cpu?fa=on&threads=2", "llamacpp:cpu?fa=off&threads=2"}));
  EXPECT_EQ(s.targets[2].backend, "ort");
  EXPECT_EQ(s.targets[2].device, "xnnpack");
  EXPECT_EQ(s.targets[2].options,
            (std::map<std::string, std::string>{{"opt", "basic"}, {"threads", "1"}}));
  // Each expanded text parses back to the same target.
  for (const Target& t : s.targets) {
    auto again = ParseTarget(t.text);
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again.value().options, t.options);
  }

  EXPECT_EQ(s.scenarios, (std::vector<std::string>{"single-stream", "llm"}));
  EXPECT_EQ(s.llm.prompt_tokens, (std::vector<int64_t>{128, 512}));
  EXPECT_EQ(s.llm.gen_tokens, (std::vector<int64_t>{64}));
  EXPECT_EQ(s.llm.repetitions, 3);
  EXPECT_EQ(s.llm.warmup_requests, 0);
  EXPECT_EQ(s.llm.sequences, 2);
  EXPECT_EQ(s.llm.prompt_text, "");
}

TEST_F(SuiteFile, MinimalFileTakesDefaults) {
  auto suite = Parse("models: [a.onnx]\ntargets: [ort]\n");
  ASSERT_TRUE(suite.ok()) << suite.error();
  const SuiteSpec& s = suite.value();
  EXPECT_EQ(s.name, "suite");
  EXPECT_EQ(s.out_dir, "");
  const RunSettings defaults;
  EXPECT_EQ(s.settings.warmup_queries, defaults.warmup_queries);
  EXPECT_EQ(s.settings.min_queries, defaults.min_queries);
  EXPECT_EQ(s.settings.case_timeout_ms, 0);
  ASSERT_EQ(s.targets.size(), 1u);
  EXPECT_EQ(s.targets[0].text, "ort:cpu");  // canonical, device filled in
  EXPECT_EQ(s.scenarios, (std::vector<std::string>{"single-stream"}));
  EXPECT_EQ(s.llm.prompt_tokens, (std::vector<int64_t>{128}));
  EXPECT_EQ(s.llm.repetitions, 5);
}

TEST_F(SuiteFile, ModeBlocksFillTheirCommandsTypedOptions) {
  auto suite = Parse("models: [a.onnx]\ntargets: [ort, litert]\nscenarios: [single-stream, agree, drift, accuracy]\n"
                     "agree:\n  reference: litert:cpu\n  dim: [batch=1, seq=8]\n  min_sqnr: 25.5\n  steps: 4\n"
                     "drift: {reference: fp32, candidate: int8, max_tokens: 16, input: x=a.npy, seed: 7}\n");
  ASSERT_TRUE(suite.ok()) << suite.error();
  const SuiteSpec& s = suite.value();
  EXPECT_EQ(s.scenarios, (std::vector<std::string>{"single-stream", "agree", "drift", "accuracy"}));
  ASSERT_EQ(s.modes.size(), 3u);
  const AgreeOptions& agree = std::get<AgreeOptions>(s.modes.at("agree").options);
  EXPECT_EQ(agree.reference, "litert:cpu");
  EXPECT_EQ(agree.dims, (std::vector<std::string>{"batch=1", "seq=8"}));
  EXPECT_EQ(agree.min_sqnr_db, 25.5);
  EXPECT_EQ(agree.steps, 4);
  EXPECT_FALSE(agree.min_cosine) << "a tolerance the block does not give stays unset: the manifest's applies";
  EXPECT_EQ(s.modes.at("agree").line, 5);
  const DriftOptions& drift = std::get<DriftOptions>(s.modes.at("drift").options);
  EXPECT_EQ(drift.reference, "fp32");
  EXPECT_EQ(drift.candidates, "int8");
  EXPECT_EQ(drift.max_tokens, 16) << "max_tokens, as settings spell keys, is --max-tokens";
  EXPECT_EQ(drift.inputs, (std::vector<std::string>{"x=a.npy"})) << "a repeatable option given once";
  EXPECT_EQ(drift.seed, 7u);
  EXPECT_EQ(drift.samples, DriftOptions{}.samples);
  const SuiteModeBlock& accuracy = s.modes.at("accuracy");
  EXPECT_EQ(accuracy.line, 0) << "listed without a block: the command's defaults";
  EXPECT_EQ(std::get<AccuracyOptions>(accuracy.options).split, "test");
}

TEST_F(SuiteFile, AModeBlocksMistakesAreErrorsAtTheirLineAndColumn) {
  const std::string head = "models: [a.onnx]\ntargets: [ort]\nscenarios: [accuracy, drift]\n"
                           "drift: {reference: a, candidate: b}\n";
  EXPECT_HAS(ErrorAt(head + "accuracy: [limit]\n", 5), "accuracy: expected a mapping of `edgebench accuracy` options");
  EXPECT_HAS(ErrorAt(head + "accuracy: {limit: {a: 1}}\n", 5),
             "accuracy: limit: expected an integer of at least 0; got a mapping");
  EXPECT_HAS(ErrorAt(head + "accuracy:\n  limit: 10\n  colour: blue\n", 7),
             "accuracy: colour: `edgebench accuracy` has no option --colour; a suite's accuracy: block takes data, "
             "split, limit");
  EXPECT_EQ(ErrorAt(head + "accuracy:\n  limit: 10\n  colour: blue\n", 7).rfind("suite.yaml:7:3: ", 0), 0u);
  EXPECT_HAS(ErrorAt(head + "accuracy: {limit: lots}\n", 5), "accuracy: limit: expected an integer of at least 0; "
                                                              "got 'lots'");
  EXPECT_HAS(ErrorAt(head + "accuracy: {limit: -3}\n", 5), "got '-3'");
  EXPECT_HAS(ErrorAt(head + "accuracy: {limit: 1, limit: 2}\n", 5), "accuracy: limit is given twice");
  EXPECT_HAS(ErrorAt(head + "accuracy: {help: true}\n", 5), "has no option --help");
  EXPECT_HAS(ErrorAt(head + "accuracy: {--limit: 1}\n", 5), "without its dashes");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [agree]\nagree: {max_abs: nan}\n", 4),
             "agree: max_abs: expected a number; got 'nan'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [drift]\ndrift: {candidate: int8}\n", 4),
             "drift: --reference is required");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [drift]\n", 3),
             "drift: --reference is required: give it in the suite's drift: block");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [single-strem]\n", 3),
             "(or a mode: accuracy, agree, drift)");
}

// Issue 50: a suite of aliases that expands to billions of values is refused before it is read.
TEST_F(SuiteFile, AliasesThatExpandPastTheBoundAreRefused) {
  std::string yaml = "models: [a.onnx]\ntargets: [ort]\nx0: &x0 [a, a, a, a, a, a, a, a, a, a]\n";
  for (int i = 1; i <= 9; ++i) {
    yaml += "x" + std::to_string(i) + ": &x" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) yaml += std::string(j ? ", " : "") + "*x" + std::to_string(i - 1);
    yaml += "]\n";
  }
  auto suite = Parse(yaml);
  ASSERT_FALSE(suite.ok());
  EXPECT_HAS(suite.error(), "the file expands to more than 100000 values");
}

TEST_F(SuiteFile, ReadsFromDiskWithPathsRelativeToTheSuiteFile) {
  fs::create_directories(dir_ / "suites");
  std::ofstream(dir_ / "suites" / "nightly.yaml")
      << "models: [../a.onnx]\ntargets: [ort:cpu]\nout: ../out\n";
  auto suite = ReadSuiteFile((dir_ / "suites" / "nightly.yaml").string(), Options());
  ASSERT_TRUE(suite.ok()) << suite.error();
  EXPECT_EQ(suite.value().name, "nightly");
  EXPECT_EQ(suite.value().models[0].spec.artifacts[0].path, P("a.onnx"));
  EXPECT_EQ(suite.value().out_dir, P("out"));

  auto missing = ReadSuiteFile(P("absent.yaml"), Options());
  ASSERT_FALSE(missing.ok());
  EXPECT_HAS(missing.error(), P("absent.yaml"));
  EXPECT_HAS(missing.error(), "No such file");

  // Errors name the file as given.
  std::ofstream(dir_ / "suites" / "bad.yaml")
      << "models: [../a.onnx]\ntargets: [ort:cpu]\nmodle: x\n";
  auto bad = ReadSuiteFile((dir_ / "suites" / "bad.yaml").string(), Options());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind((dir_ / "suites" / "bad.yaml").string() + ":3:1: ", 0), 0u)
      << bad.error();
}

TEST_F(SuiteFile, YamlSyntaxErrorNamesTheLine) {
  const std::string e = ErrorAt("models: [a.onnx]\ntargets: [ort:cpu\nscenarios: [llm]\n", 3);
  EXPECT_HAS(e, "YAML syntax error");
  EXPECT_HAS(ErrorAt("models:\n  - a.onnx\n -b\ntargets: [ort]\n", 3), "YAML syntax error");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings:\n\twarmup: 1\n", 4),
             "YAML syntax error");
}

TEST_F(SuiteFile, EmptyFileOrNotAMappingIsAnError) {
  auto empty = Parse("");
  ASSERT_FALSE(empty.ok());
  EXPECT_HAS(empty.error(), "suite.yaml: the suite file is empty");
  EXPECT_HAS(ErrorAt("- a.onnx\n- b.onnx\n", 1), "the suite: expected a mapping");
  EXPECT_HAS(ErrorAt("targets: [ort]\n", 1), "no models");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\n", 1), "no targets");
}

TEST_F(SuiteFile, UnknownKeysAnywhereListTheKnownOnes) {
  std::string e = ErrorAt("models: [a.onnx]\ntargets: [ort]\nmodle: x\n", 3);
  EXPECT_HAS(e, "unknown key 'modle' in the suite");
  EXPECT_HAS(e, "known keys: name, out, settings, models, targets, params, scenarios, llm");
  e = ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings:\n  warmup: 1\n  min_query: 5\n", 5);
  EXPECT_HAS(e, "unknown key 'min_query' in settings");
  EXPECT_HAS(e, "min_queries");
  e = ErrorAt("models:\n  - path: a.onnx\n    dim: {batch: 1}\ntargets: [ort]\n", 3);
  EXPECT_HAS(e, "unknown key 'dim' in a model; "
                "known keys: name, path, artifacts, manifest, dims, inputs");
  e = ErrorAt("models: [a.onnx]\ntargets:\n  - target: ort\n    param: {threads: [1]}\n", 4);
  EXPECT_HAS(e, "unknown key 'param' in a target; known keys: target, params");
  e = ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [llm]\nllm:\n  prompts: [1]\n", 5);
  EXPECT_HAS(e, "unknown key 'prompts' in llm");
}

TEST_F(SuiteFile, RepeatedKeyIsAnError) {
  const std::string e = ErrorAt("models: [a.onnx]\ntargets: [ort]\nmodels: [b.onnx]\n", 3);
  EXPECT_HAS(e, "key 'models' given twice in the suite (first on line 1)");
}

TEST_F(SuiteFile, WrongTypesAndValues) {
  EXPECT_HAS(ErrorAt("models: a.onnx\ntargets: [ort]\n", 1),
             "models: expected a list, for example [model.onnx]; got 'a.onnx'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: ort:cpu\n", 2), "targets: expected a list");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: []\n", 2), "targets: the list is empty");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: single-stream\n", 3),
             "scenarios: expected a list");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings:\n  min_queries: -1\n", 4),
             "settings: min_queries: expected an integer of at least 1; got '-1'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings:\n  warmup: lots\n", 4),
             "settings: warmup: expected an integer of at least 0; got 'lots'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings:\n  warmup: 2.5\n", 4),
             "got '2.5'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings:\n  seed: -3\n", 4),
             "settings: seed: expected an integer of at least 0");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings:\n  max_cv: 0\n", 4),
             "settings: max_cv: expected a number above 0");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings:\n  min_queries: [1]\n", 4),
             "got a list");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings: 5\n", 3),
             "settings: expected a mapping");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings:\n  min_duration_ms: 5000\n"
                     "  max_duration_ms: 1000\n",
                     4),
             "min_duration_ms (5000) is longer than max_duration_ms (1000)");
  EXPECT_HAS(ErrorAt("models:\n  - path: a.onnx\n    dims: {batch: 0}\ntargets: [ort]\n", 3),
             "dims: batch: expected an integer of at least 1; got '0'");
  EXPECT_HAS(ErrorAt("models:\n  - path: a.onnx\n    dims: [1]\ntargets: [ort]\n", 3),
             "dims: expected a mapping");
  EXPECT_HAS(ErrorAt("models:\n  - path: a.onnx\n    inputs: [\"16000\"]\ntargets: [ort]\n", 3),
             "inputs: expected NAME=VALUE");
  EXPECT_HAS(ErrorAt("models:\n  - path: a.onnx\n    inputs: sr=16000\ntargets: [ort]\n", 3),
             "inputs: expected a list");
  // An empty value is reported on its key's line (yaml-cpp marks it where the next token starts).
  EXPECT_HAS(ErrorAt("name:\nmodels: [a.onnx]\ntargets: [ort]\n", 1),
             "name: expected a non-empty string; got nothing");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets:\n\nscenarios: [llm]\n", 2),
             "targets: expected a list, for example [ort:cpu, litert:cpu]; got nothing");
  EXPECT_HAS(ErrorAt("models:\n  - path: a.onnx\n    dims:\n      batch:\ntargets: [ort]\n", 4),
             "dims: batch: expected an integer of at least 1; got nothing");
  EXPECT_HAS(ErrorAt("models:\n  - name: x\ntargets: [ort]\n", 2),
             "a model needs exactly one of path, artifacts or manifest; this one has none");
  EXPECT_HAS(ErrorAt("models:\n  - path: a.onnx\n    manifest: models/blaze.json\n"
                     "targets: [ort]\n",
                     2),
             "this one has several");
  EXPECT_HAS(ErrorAt("models:\n  - name: a/b\n    path: a.onnx\ntargets: [ort]\n", 2),
             "model name 'a/b' may not contain");
  EXPECT_HAS(ErrorAt("models: [a.onnx, a.onnx]\ntargets: [ort]\n", 1),
             "model name 'a' is used twice (first on line 1)");
  EXPECT_HAS(ErrorAt("models:\n  - path: a.onnx?layout=chwn\ntargets: [ort]\n", 2),
             "bad layout 'chwn'");
}

TEST_F(SuiteFile, MissingModelFilesNameTheLineAndTheResolvedPath) {
  std::string e = ErrorAt("models:\n  - a.onnx\n  - gone.onnx\ntargets: [ort]\n", 3);
  EXPECT_HAS(e, "model file '" + P("gone.onnx") + "' does not exist (written 'gone.onnx')");
  e = ErrorAt("models:\n  - name: oww\n    artifacts:\n      - a.onnx\n"
              "      - gone.tflite?layout=nhwc\ntargets: [ort]\n",
              5);
  EXPECT_HAS(e, P("gone.tflite") + "' does not exist");
  e = ErrorAt("models:\n  - manifest: models/gone.json\ntargets: [ort]\n", 2);
  EXPECT_HAS(e, "model manifest '" + P("models/gone.json") + "' does not exist");
  e = ErrorAt("models:\n  - manifest: models/broken.json\ntargets: [ort]\n", 2);
  EXPECT_HAS(e, "names model file '" + P("models/absent.onnx") + "', which does not exist");
  e = ErrorAt("models:\n  - models\ntargets: [ort]\n", 2);
  EXPECT_HAS(e, "is not a regular file");
}

TEST_F(SuiteFile, TargetsThatDoNotParseOrAreUnknown) {
  std::string e = ErrorAt("models: [a.onnx]\ntargets:\n  - ort:cpu\n  - \"ort:cpu?threads\"\n", 4);
  EXPECT_HAS(e, "bad option 'threads' in target 'ort:cpu?threads'");
  e = ErrorAt("models: [a.onnx]\ntargets:\n  - target: \"o rt\"\n", 3);
  EXPECT_HAS(e, "bad target 'o rt'");

  SuiteReadOptions options = Options();
  options.known_backends = {"ort", "litert", "llamacpp", "null"};
  auto suite = ParseSuite("models: [a.onnx]\ntargets: [ort, ortt:cpu]\n", "suite.yaml",
                          dir_.string(), options);
  ASSERT_FALSE(suite.ok());
  EXPECT_EQ(suite.error(), "suite.yaml:2:16: target 'ortt:cpu': unknown backend 'ortt'; known "
                           "backends: ort, litert, llamacpp, null");
}

// Without `out:`, the suite's name names its store (results/NAME): a name that is a path is
// refused, whatever the file that brought it.
TEST_F(SuiteFile, ANameThatIsAPathIsRefused) {
  for (const char* name : {"\"../escaped\"", "\"..\"", "/etc", "\"a/b\"", "\"-rf\"", "\"a\\tb\""}) {
    const std::string e = ErrorAt(std::string("name: ") + name + "\nmodels: [a.onnx]\ntargets: [ort:cpu]\n", 1);
    EXPECT_HAS(e, "must be one plain file name");
  }
  auto fine = Parse("name: nightly-2026.12_x\nmodels: [a.onnx]\ntargets: [ort:cpu]\n");
  ASSERT_TRUE(fine.ok()) << fine.error();
  EXPECT_EQ(fine.value().name, "nightly-2026.12_x");
}

TEST_F(SuiteFile, ParamsPastTheCaseLimitAreRefusedBeforeTheyAreExpanded) {
  std::string values;
  for (int i = 1; i <= 30; ++i) values += (i > 1 ? ", " : "") + std::to_string(i);
  const std::string e = ErrorAt("models: [a.onnx]\ntargets:\n  - target: \"null:sleep\"\n    params: {us: [" + values +
                                    "], jitter_us: [" + values + "], fail_at: [" + values + "]}\n",
                                3);
  EXPECT_HAS(e, "expands to 27000 cases, more than the limit of 10000");
}

TEST_F(SuiteFile, UnknownOrRepeatedScenario) {
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios:\n  - single-stream\n"
                     "  - ofline\n",
                     5),
             "unknown scenario 'ofline'; scenarios: single-stream, multi-stream:N, server:QPS, offline");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [multi-stream:0]\n", 3),
             "scenario 'multi-stream:0': N must be a whole number of streams from 1 to 1024");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [server:10, server:10.0]\n", 3),
             "scenario 'server:10.0' is listed twice");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [llm, llm]\n", 3),
             "scenario 'llm' is listed twice");
}

TEST_F(SuiteFile, LlmSectionChecks) {
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nllm: {prompt: [1]}\n", 3),
             "scenarios does not include llm");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [llm]\nllm: {prompt: 128}\n", 4),
             "llm: prompt: expected a list, for example [128, 512]; got '128'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [llm]\nllm:\n  gen: [64, 0]\n",
                     5),
             "llm: gen: expected an integer of at least 1; got '0'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [llm]\n"
                     "llm:\n  prompt: [1]\n  prompt_text: hello\n",
                     6),
             "not both");
  auto text =
      Parse("models: [a.onnx]\ntargets: [ort]\nscenarios: [llm]\nllm: {prompt_text: hi there}\n");
  ASSERT_TRUE(text.ok()) << text.error();
  EXPECT_EQ(text.value().llm.prompt_text, "hi there");
}

TEST_F(SuiteFile, EveryRunFlagThatDecidesWhatIsMeasuredCanBeWritten) {
  auto suite = Parse("models: [a.onnx]\ntargets: [ort]\nscenarios: [server:200]\n"
                     "settings: {find_peak: true, p99_bound_ms: 5, profile: yes, input_pool: 4, strict_dims: true}\n");
  ASSERT_TRUE(suite.ok()) << suite.error();
  EXPECT_TRUE(suite.value().find_peak);
  EXPECT_TRUE(suite.value().profile);
  EXPECT_TRUE(suite.value().strict_dims);
  EXPECT_EQ(suite.value().input_pool, 4);
  EXPECT_EQ(suite.value().settings_line, 4);
  EXPECT_EQ(suite.value().given_settings,
            (std::set<std::string>{"find_peak", "p99_bound_ms", "profile", "input_pool", "strict_dims"}));
  auto defaults = Parse("models: [a.onnx]\ntargets: [ort]\n");
  ASSERT_TRUE(defaults.ok()) << defaults.error();
  EXPECT_FALSE(defaults.value().find_peak);
  EXPECT_FALSE(defaults.value().profile);
  EXPECT_EQ(defaults.value().input_pool, 1);
  EXPECT_TRUE(defaults.value().given_settings.empty());
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings: {profile: sometimes}\n", 3),
             "settings: profile: expected true or false; got 'sometimes'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings: {input_pool: 0}\n", 3),
             "settings: input_pool: expected an integer of at least 1; got '0'");
}

TEST_F(SuiteFile, LoadScenariosAndTheirSettings) {
  auto suite = Parse("models: [a.onnx]\ntargets: [ort]\nscenarios: [multi-stream:4, server:200, soak:2m]\n"
                     "settings: {sessions: shared, concurrency: 2, streams: 3, window_ms: 1000, "
                     "confidence: 0.99, p99_bound_ms: 12.5, batch: 8, max_queries: 5000}\n");
  ASSERT_TRUE(suite.ok()) << suite.error();
  EXPECT_EQ(suite.value().scenarios, (std::vector<std::string>{"multi-stream:4", "server:200", "soak:120s"}));
  const RunSettings& s = suite.value().settings;
  EXPECT_EQ(s.sessions, "shared");
  EXPECT_EQ(s.concurrency, 2);
  EXPECT_EQ(s.streams, 3);
  EXPECT_EQ(s.window_ms, 1000);
  EXPECT_DOUBLE_EQ(s.confidence, 0.99);
  EXPECT_DOUBLE_EQ(s.p99_bound_ms, 12.5);
  EXPECT_EQ(s.batch, 8);
  EXPECT_EQ(s.max_queries, 5000);
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings: {sessions: all}\n", 3),
             "--sessions must be per-stream or shared, not 'all'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nsettings: {confidence: 2}\n", 3),
             "--confidence must be 0 (off) or from 0.5 to below 1");
}

TEST_F(SuiteFile, LlmServingSettings) {
  auto suite = Parse("models: [a.onnx]\ntargets: [ort]\nscenarios: [llm]\n"
                     "llm: {concurrency: 4, rate: 2.5, slo: \"ttft:500ms,tpot:50ms\"}\n");
  ASSERT_TRUE(suite.ok()) << suite.error();
  EXPECT_EQ(suite.value().llm.concurrency, 4);
  EXPECT_DOUBLE_EQ(suite.value().llm.rate, 2.5);
  EXPECT_EQ(suite.value().llm.slo.ttft_ns, 500'000'000);
  EXPECT_EQ(suite.value().llm.slo.tpot_ns, 50'000'000);
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [llm]\nllm: {slo: \"ttft:fast\"}\n", 4),
             "llm: slo");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nscenarios: [llm]\nllm: {sequences: 2, concurrency: 2}\n", 4),
             "does not combine with concurrency or rate");
}

TEST_F(SuiteFile, OptionListsThatCannotBeApplied) {
  // Already fixed in the target's text.
  std::string e = ErrorAt(
      "models: [a.onnx]\nparams: {threads: [1, 2]}\ntargets:\n  - \"ort:cpu?threads=4\"\n", 4);
  EXPECT_HAS(e, "option 'threads' of target 'ort:cpu?threads=4' is also listed in the suite's "
                "params (line 2)");
  e = ErrorAt("models: [a.onnx]\ntargets:\n  - target: \"ort:cpu?threads=4\"\n    params:\n"
              "      threads: [1]\n",
              5);
  EXPECT_HAS(e, "option 'threads' is both in target 'ort:cpu?threads=4' and in its params");
  e = ErrorAt("models: [a.onnx]\nparams: {threads: [1]}\ntargets:\n  - target: ort\n"
              "    params: {threads: [2]}\n",
              5);
  EXPECT_HAS(e, "also listed in the suite's params (line 2)");
  // Not a list, empty, a value that cannot be written in a target, a value twice.
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nparams:\n  threads: 2\n", 4),
             "params: threads: expected a list, for example [1, 2]; got '2'");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nparams:\n  threads: []\n", 4),
             "params: threads: the list is empty");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nparams:\n  threads: [1, \"2&opt=all\"]\n",
                     4),
             "option threads=2&opt=all cannot be written in a target");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nparams: [threads]\n", 3),
             "params: expected a mapping of target options to value lists");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nparams: {threads: [1, 1]}\n", 3),
             "threads lists '1' twice");
  // Two entries that expand to the same target.
  e = ErrorAt("models: [a.onnx]\ntargets:\n  - \"ort:cpu?threads=1\"\n  - target: ort\n"
              "    params: {threads: [2, 1]}\n",
              4);
  EXPECT_HAS(e, "target 'ort:cpu?threads=1' appears twice (also from line 3)");
}

TEST_F(SuiteFile, VariablesAndHomeExpand) {
  env_["MODELS"] = dir_.string();
  auto suite = Parse("models:\n  - ${MODELS}/a.onnx\n  - ~/m/x.onnx\ntargets: [ort]\n");
  ASSERT_FALSE(suite.ok());  // ~/m/x.onnx does not exist yet
  EXPECT_HAS(suite.error(),
             "suite.yaml:3:5: model file '" + P("home/m/x.onnx") + "' does not exist");
  fs::create_directories(dir_ / "home" / "m");
  std::ofstream(dir_ / "home" / "m" / "x.onnx") << "x";
  suite = Parse("models:\n  - ${MODELS}/a.onnx\n  - ~/m/x.onnx\ntargets: [ort]\n");
  ASSERT_TRUE(suite.ok()) << suite.error();
  EXPECT_EQ(suite.value().models[0].spec.artifacts[0].path, P("a.onnx"));
  EXPECT_EQ(suite.value().models[1].spec.artifacts[0].path, P("home/m/x.onnx"));

  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nout: ${NOPE}/results\n", 3),
             "environment variable NOPE (in '${NOPE}/results') is not set");
  EXPECT_HAS(ErrorAt("models: [a.onnx]\ntargets: [ort]\nout: ${NOPE/results\n", 3),
             "unterminated '${'");
}

TEST_F(SuiteFile, EdgebenchCacheDefaultsUnderHome) {
  env_.erase("EDGEBENCH_CACHE");
  fs::create_directories(dir_ / "home" / ".cache" / "edgebench" / "models");
  std::ofstream(dir_ / "home" / ".cache" / "edgebench" / "models" / "vit.onnx") << "x";
  auto suite = Parse("models: [\"${EDGEBENCH_CACHE}/models/vit.onnx\"]\ntargets: [ort]\n");
  ASSERT_TRUE(suite.ok()) << suite.error();
  EXPECT_EQ(suite.value().models[0].spec.artifacts[0].path,
            P("home/.cache/edgebench/models/vit.onnx"));
  env_.erase("HOME");
  EXPECT_HAS(ErrorAt("models: [\"${EDGEBENCH_CACHE}/models/vit.onnx\"]\ntargets: [ort]\n", 1),
             "neither EDGEBENCH_CACHE nor HOME is set");
}

// `edgebench fleet` gives a host the suite with its copies' paths: every model file and manifest
// path rewritten (options kept), name written out, out left out; model_files lists every file
// the models read, manifests' artifacts included, each once.
TEST_F(SuiteFile, RelocatedForAHostWithEveryFileItsModelsRead) {
  SuiteReadOptions options = Options();
  options.relocate = [](const std::string& resolved) { return "files" + resolved; };
  auto suite = ParseSuite("out: somewhere\nmodels:\n  - a.onnx\n"
                          "  - name: two\n    artifacts: [a.onnx, \"a.tflite?layout=nhwc\"]\n"
                          "  - manifest: models/blaze.json\n  - ${EDGEBENCH_CACHE}/models/vit.onnx\n"
                          "targets: [ort:cpu]\n",
                          dir_ / "fleet.yaml", dir_.string(), options);
  ASSERT_TRUE(suite.ok()) << suite.error();
  const std::string d = dir_.string();
  EXPECT_EQ(suite.value().model_files,
            (std::vector<std::string>{d + "/a.onnx", d + "/a.tflite", d + "/models/blaze.json", d + "/models/c.onnx",
                                      d + "/cache/models/vit.onnx"}));
  const std::string& y = suite.value().relocated_yaml;
  EXPECT_NE(y.find("- files" + d + "/a.onnx\n"), std::string::npos) << y;
  EXPECT_NE(y.find("files" + d + "/a.tflite?layout=nhwc"), std::string::npos) << y;
  EXPECT_NE(y.find("manifest: files" + d + "/models/blaze.json"), std::string::npos) << y;
  EXPECT_NE(y.find("files" + d + "/cache/models/vit.onnx"), std::string::npos) << y;
  EXPECT_NE(y.find("name: fleet"), std::string::npos) << y;
  EXPECT_EQ(y.find("out:"), std::string::npos) << y;
  EXPECT_EQ(y.find("${"), std::string::npos) << y;
  // The relocated suite reads back as the same plan where the copies are.
  const fs::path host = dir_ / "host";
  for (const std::string& f : suite.value().model_files) {
    fs::create_directories((host / ("files" + f)).parent_path());
    fs::copy_file(f, host / ("files" + f));
  }
  auto again = ParseSuite(y, "host-suite.yaml", host.string(), Options());
  ASSERT_TRUE(again.ok()) << again.error() << "\n" << y;
  EXPECT_EQ(again.value().name, "fleet");
  ASSERT_EQ(again.value().models.size(), 4u);
  EXPECT_EQ(again.value().models[2].spec.name, "blazeface");
  EXPECT_EQ(again.value().models[2].spec.artifacts[0].path, (host / ("files" + d + "/models/c.onnx")).string());
}


TEST_F(SuiteFile, MixesAreReadAsRunReadsThemAndNeedNoModels) {
  std::ofstream(dir_ / "box.yaml") << "name: box\nduration: 2s\nworkloads:\n"
                                      "  - name: cam\n    model: a.onnx\n    target: null:cpu\n"
                                      "    scenario: camera:2@10fps\n";
  auto suite = Parse("mixes: [box.yaml]\n");
  ASSERT_TRUE(suite.ok()) << suite.error();
  ASSERT_EQ(suite.value().mixes.size(), 1u);
  EXPECT_EQ(suite.value().mixes[0].name, "box");
  EXPECT_EQ(suite.value().mixes[0].duration_ms, 2000);
  EXPECT_TRUE(suite.value().models.empty());
  // Beside models, targets are still required.
  EXPECT_HAS(ErrorAt("models: [a.onnx]\nmixes: [box.yaml]\n", 1), "no targets");
  // A mix that is not there, or does not read, is an error at its entry, the mix's own place inside.
  EXPECT_HAS(ErrorAt("mixes:\n  - box.yaml\n  - absent.yaml\n", 3), "absent.yaml");
  std::ofstream(dir_ / "bad.yaml") << "name: bad\nduration: 2s\nworkloads:\n  - name: x\n    speed: 3\n";
  const std::string bad = ErrorAt("mixes: [bad.yaml]\n", 1);
  EXPECT_HAS(bad, "bad.yaml:5:");
  EXPECT_HAS(bad, "speed");
  EXPECT_HAS(ErrorAt("mixes: [box.yaml, box.yaml]\n", 1), "listed twice");
  // A fleet does not copy a mix's models yet: said, not silently dropped.
  SuiteReadOptions fleet = Options();
  fleet.relocate = [](const std::string& path) { return path; };
  auto relocated = ParseSuite("mixes: [box.yaml]\n", "suite.yaml", dir_.string(), fleet);
  ASSERT_FALSE(relocated.ok());
  EXPECT_HAS(relocated.error(), "fleet does not copy a mix");
}

}  // namespace
}  // namespace edgebench
