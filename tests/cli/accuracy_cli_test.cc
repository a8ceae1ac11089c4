// edgebench accuracy on a real classifier with real labels: softmax regression trained on
// Fashion-MNIST by tests/models/make_fashion_softmax.py, whose numpy answers it must reproduce.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "../test_util.h"
#include "core/strings.h"
#include "report/store.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

std::string Fashion(const std::string& name) { return TestModel("fashion/" + name); }

nlohmann::json Expected() {
  std::ifstream in(Fashion("expected.json"));
  return nlohmann::json::parse(in);
}

std::string StoreDir(const std::string& name) {
  const std::string dir = TempFilePath("accuracy_", name);
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(AccuracyCli, ReproducesNumpysAnswersAndStoresARecord) {
  const std::string dir = StoreDir("store");
  auto r = RunCommand(Executable() + " accuracy " + Fashion("fashion_softmax.json") +
                      " --target ort:cpu --limit 1000 --format json --out " + dir + " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto printed = nlohmann::json::parse(r.output);
  ASSERT_EQ(printed.size(), 1u);
  const nlohmann::json expected = Expected()["fp32"];

  auto records = ReadRecords(dir + "/results.jsonl");
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 1u);
  const Record& record = records.value()[0];
  EXPECT_EQ(record.scenario, "accuracy");
  EXPECT_EQ(record.variant, "fp32");  // the default variant: the first artifact's
  EXPECT_EQ(record.status, CaseStatus::kOk) << record.error;
  ASSERT_TRUE(record.accuracy.has_value());
  const AccuracyRecord& a = *record.accuracy;
  EXPECT_EQ(a.labels.size(), 1000u);
  EXPECT_EQ(a.top1_accuracy.trials, 1000);
  EXPECT_NEAR(a.top1_accuracy.successes, expected["top1_correct"].get<int64_t>(), 1);
  ASSERT_TRUE(a.top5_accuracy.has_value());
  EXPECT_NEAR(a.top5_accuracy->successes, expected["top5_correct"].get<int64_t>(), 1);
  EXPECT_LT(a.top1_accuracy.low, a.top1_accuracy.value);
  EXPECT_GT(a.top1_accuracy.high, a.top1_accuracy.value);
  // Per class: the data set's counts exactly, and they sum to the totals.
  ASSERT_EQ(a.per_class.size(), 10u);
  int64_t images = 0, correct = 0;
  for (size_t c = 0; c < a.per_class.size(); ++c) {
    EXPECT_EQ(a.per_class[c].images, expected["per_class"][c]["images"].get<int64_t>()) << c;
    EXPECT_NEAR(a.per_class[c].correct, expected["per_class"][c]["correct"].get<int64_t>(), 1) << c;
    images += a.per_class[c].images;
    correct += a.per_class[c].correct;
  }
  EXPECT_EQ(a.per_class[9].name, "Ankle boot");
  EXPECT_EQ(images, 1000);
  EXPECT_EQ(correct, a.top1_accuracy.successes);
  EXPECT_EQ(a.preprocess_ns.size(), 1000u);
  EXPECT_EQ(a.inference_summary.count, 1000);
  EXPECT_EQ(a.data_split, "test");
  EXPECT_EQ(a.data_total, 10000);
  EXPECT_NE(a.data_description.find("t10k-images-idx3-ubyte.gz"), std::string::npos) << a.data_description;
  EXPECT_EQ(a.output, "logits [1x10]");
  EXPECT_EQ(record.case_key.size(), 16u);
  EXPECT_EQ(printed[0]["case_key"], record.case_key);

  // The same data set range and preprocessing give the same key; another range does not.
  const std::string other = StoreDir("other");
  auto again = RunCommand(Executable() + " accuracy " + Fashion("fashion_softmax.json") +
                          " --target ort:cpu --limit 10 --offset 5 --out " + other + " >/dev/null 2>&1");
  ASSERT_EQ(again.exit_code, 0);
  auto other_records = ReadRecords(other + "/results.jsonl");
  ASSERT_TRUE(other_records.ok()) << other_records.error();
  ASSERT_EQ(other_records.value().size(), 1u);
  EXPECT_NE(other_records.value()[0].case_key, record.case_key);
  EXPECT_EQ(other_records.value()[0].accuracy->latency_case_key, a.latency_case_key);

  // `run` on the same variant and target: its record's case key is the accuracy record's
  // latency_case_key, so a report can join the two.
  const std::string latency = StoreDir("latency");
  auto run = RunCommand(Executable() + " run '" + Fashion("fashion_softmax.json") +
                        "?variant=fp32' --target ort:cpu --out " + latency + " >/dev/null 2>&1");
  ASSERT_EQ(run.exit_code, 0);
  auto run_records = ReadRecords(latency + "/results.jsonl");
  ASSERT_TRUE(run_records.ok()) << run_records.error();
  ASSERT_EQ(run_records.value().size(), 1u);
  EXPECT_EQ(run_records.value()[0].case_key, a.latency_case_key);
  EXPECT_EQ(run_records.value()[0].artifact_sha256, record.artifact_sha256);
}

TEST(AccuracyCli, EveryVariantWithASkippedRowAndDeltas) {
  auto r = RunCommand(Executable() + " accuracy " + Fashion("fashion_softmax.json") +
                      " --variant all --target ort:cpu --limit 1000 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;  // a skipped row is not a failure
  const nlohmann::json expected = Expected();
  EXPECT_NE(r.output.find("fp32"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ref"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("coarse"), std::string::npos) << r.output;
  // The coarse variant's delta in points against fp32 on the same target, within an image each.
  const double delta = (expected["coarse"]["top1_correct"].get<double>() - expected["fp32"]["top1_correct"].get<double>()) / 10;
  bool found_delta = false;
  for (double d = delta - 0.2; d <= delta + 0.2 + 1e-9; d += 0.1) {
    found_delta |= r.output.find(FormatNumber("%+.2f", d)) != std::string::npos;
  }
  EXPECT_TRUE(found_delta) << "expected about " << delta << " points\n" << r.output;
  // The variant with only a .tflite: a row saying why, never dropped.
  EXPECT_NE(r.output.find("tflite-only"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("skipped"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Ankle boot"), std::string::npos) << r.output;  // per-class table
  // Progress on stderr, a line as each case starts and ends.
  EXPECT_NE(r.output.find("edgebench accuracy: 3 passes of 1000 images\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("edgebench: case 1/3: fashion_softmax fp32 on ort:cpu (accuracy)\n"), std::string::npos)
      << r.output;
  const double fp32_top1 = expected["fp32"]["top1_correct"].get<double>() / 10;
  bool found_progress = false;
  for (double t = fp32_top1 - 0.1; t <= fp32_top1 + 0.1 + 1e-9; t += 0.1) {
    found_progress |= r.output.find("fp32 on ort:cpu (accuracy): ok, top-1 " + FormatNumber("%.2f", t) + "% after ") !=
                      std::string::npos;
  }
  EXPECT_TRUE(found_progress) << r.output;
  EXPECT_NE(r.output.find("edgebench: case 3/3: fashion_softmax tflite-only on ort:cpu (accuracy): skipped ("),
            std::string::npos)
      << r.output;
}

// A command killed mid-way leaves the records of the passes that finished; run again with
// --resume it runs only the rest (one record per case in the end), shows every pass in its table
// (the skipped ones from the store), and each pass's record has the device monitor's series.
TEST(AccuracyCli, ResumeRunsOnlyThePassesTheStoreLacks) {
  const std::string dir = StoreDir("resume");
  const std::string command = Executable() + " accuracy " + Fashion("fashion_softmax.json") +
                              " --variant all --target ort:cpu --limit 100 --out " + dir;
  auto first = RunCommand(command + " 2>&1");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::string store = dir + "/results.jsonl";
  {
    // As if killed after the first pass: only its line stays.
    std::ifstream in(store);
    std::string line;
    std::getline(in, line);
    in.close();
    std::ofstream(store, std::ios::trunc) << line << "\n";
  }
  auto resumed = RunCommand(command + " --resume 2>&1");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(resumed.output.find("case 1/3"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("edgebench: case 2/3: fashion_softmax coarse on ort:cpu (accuracy): ok, top-1 "),
            std::string::npos)
      << resumed.output;
  EXPECT_NE(resumed.output.find("case 3/3: fashion_softmax tflite-only on ort:cpu (accuracy): skipped"),
            std::string::npos)
      << resumed.output;
  // The table has the pass that was not run again, from the store.
  EXPECT_NE(resumed.output.find("\n1   fp32 "), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("\n2   coarse "), std::string::npos) << resumed.output;
  auto records = ReadRecords(store);
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 3u);
  std::set<std::string> keys;
  for (const Record& r : records.value()) keys.insert(r.case_key);
  EXPECT_EQ(keys.size(), 3u);
  for (const Record& r : records.value()) {
    if (r.status != CaseStatus::kOk) continue;
    ASSERT_TRUE(r.monitor.has_value()) << r.variant;
    EXPECT_TRUE(r.monitor->disabled_reason.empty()) << r.monitor->disabled_reason;
    EXPECT_FALSE(r.monitor->series.t_ns.empty()) << r.variant;
  }
  // Everything stored: nothing runs, and the table still shows every pass.
  auto again = RunCommand(command + " --resume 2>&1");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(again.output.find("(accuracy): ok"), std::string::npos) << again.output;
  EXPECT_NE(again.output.find("\n2   coarse "), std::string::npos) << again.output;
  EXPECT_EQ(ReadRecords(store).value().size(), 3u);
  // --resume without a store is a bad argument.
  auto no_store = RunCommand(Executable() + " accuracy " + Fashion("fashion_softmax.json") + " --resume 2>&1");
  EXPECT_EQ(no_store.exit_code, 2) << no_store.output;
  EXPECT_NE(no_store.output.find("--resume needs --out"), std::string::npos) << no_store.output;
}

TEST(AccuracyCli, ClearErrors) {
  // 7 output classes against 10 labels.
  auto seven = RunCommand(Executable() + " accuracy " + Fashion("fashion_softmax7.json") +
                          " --target ort:cpu --limit 20 2>&1");
  EXPECT_EQ(seven.exit_code, 1) << seven.output;
  EXPECT_NE(seven.output.find("7 classes"), std::string::npos) << seven.output;
  EXPECT_NE(seven.output.find("10 labels"), std::string::npos) << seven.output;
  // No preprocessing declared, none given.
  auto nopre = RunCommand(Executable() + " accuracy " + Fashion("fashion_nopre.json") + " --limit 20 2>&1");
  EXPECT_EQ(nopre.exit_code, 2) << nopre.output;
  EXPECT_NE(nopre.output.find("declares no preprocessing: give --preprocess"), std::string::npos) << nopre.output;
  // ... but --preprocess supplies it.
  auto given = RunCommand(Executable() + " accuracy " + Fashion("fashion_nopre.json") +
                          " --limit 20 --preprocess scale=0.00392156862745098,mean=0.2860,std=0.3530 2>&1");
  EXPECT_EQ(given.exit_code, 0) << given.output;
  // A corrupt IDX file: named, before any worker runs.
  const std::string images = WriteTempFile("accuracy_", "corrupt-images", std::string("\0\0\x08\x03\0\0", 6));
  const std::string labels = WriteTempFile("accuracy_", "labels", std::string("\0\0\x08\x01\0\0\0\x01\x03", 9));
  auto corrupt = RunCommand(Executable() + " accuracy " + Fashion("fashion_softmax.json") + " --data " + images +
                            "," + labels + " 2>&1");
  EXPECT_EQ(corrupt.exit_code, 2) << corrupt.output;
  EXPECT_NE(corrupt.output.find(images), std::string::npos) << corrupt.output;
  EXPECT_NE(corrupt.output.find("truncated"), std::string::npos) << corrupt.output;
  // An unknown variant lists the model's.
  auto variant = RunCommand(Executable() + " accuracy " + Fashion("fashion_softmax.json") + " --variant int9 2>&1");
  EXPECT_EQ(variant.exit_code, 2) << variant.output;
  EXPECT_NE(variant.output.find("fp32, coarse, tflite-only"), std::string::npos) << variant.output;
}

}  // namespace
}  // namespace edgebench
