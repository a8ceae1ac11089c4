// `edgebench agree MODEL --target T1,T2,...`: the same inputs through every target, each in a
// worker; each output compared with the reference target's (default: the first).
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <iomanip>
#include <iostream>

#include "cli/commands.h"
#include "core/log.h"
#include "core/strings.h"
#include "core/tensor_json.h"
#include "diagnose/agreement.h"
#include "diagnose/detection_agreement.h"
#include "diagnose/output_mapping.h"
#include "postprocess/detection.h"
#include "inputs/image_input.h"
#include "report/json_numbers.h"
#include "report/record.h"
#include "report/store.h"
#include "core/sha256.h"
#include "runner/plan.h"
#include "runner/run_case.h"
#include "runner/worker_process.h"

namespace edgebench {
namespace {

struct AgreeOptions {
  std::string model;
  std::string targets;
  std::string reference;
  std::vector<std::string> dims;
  uint64_t seed = 0;
  std::string image;
  std::string preprocess;
  std::optional<double> max_abs, min_cosine, min_sqnr_db;
  std::string format = "table";
  std::string out_dir;
  int64_t timeout_ms = 300000;
};

std::string JoinComma(const std::vector<std::string>& targets) {
  std::string text;
  for (const std::string& t : targets) text += (text.empty() ? "" : ", ") + t;
  return text;
}

// A target's detections: its own detection outputs, else its raw outputs decoded by the
// postprocess, else none (raw outputs and no postprocess declared).
Result<std::optional<std::vector<Tensor>>> DetectionsOf(const std::vector<Tensor>& outputs,
                                                       const std::optional<SsdDetectionsOptions>& postprocess) {
  if (HasDetections(outputs)) {
    std::vector<Tensor> detections, others;
    SplitDetectionOutputs(outputs, detections, others);
    return std::optional<std::vector<Tensor>>(std::move(detections));
  }
  if (!postprocess) return std::optional<std::vector<Tensor>>();
  auto decoded = SsdDetectionsFromOutputs(outputs, *postprocess);
  if (!decoded.ok()) return decoded.status();
  return std::optional<std::vector<Tensor>>(decoded.take());
}

// Boxes and scores as the JSON report lists them, so a reader can see what was found.
nlohmann::json DetectionList(const std::vector<Tensor>& detections) {
  nlohmann::json list = nlohmann::json::array();
  const Tensor* boxes = nullptr;
  const Tensor* scores = nullptr;
  for (const Tensor& t : detections) {
    if (t.name == kDetectionBoxes) boxes = &t;
    if (t.name == kDetectionScores) scores = &t;
  }
  if (!boxes || !scores) return list;
  auto b = TensorValues(*boxes);
  auto s = TensorValues(*scores);
  if (!b.ok() || !s.ok() || b.value().size() != 4 * s.value().size()) return list;
  for (size_t i = 0; i < s.value().size(); ++i) {
    const double* box = b.value().data() + 4 * i;
    list.push_back({{"box", {Number(box[0]), Number(box[1]), Number(box[2]), Number(box[3])}},
                    {"score", Number(s.value()[i])}});
  }
  return list;
}

// The table's last column: the verdict, then each violation.
std::string ResultText(const std::vector<std::string>& violations) {
  return violations.empty() ? "PASS" : "FAIL; " + Join(violations, "; ");
}

std::string DetectionSummary(const DetectionAgreement& d) {
  std::string text = "matched " + std::to_string(d.matched) + ", unmatched " + std::to_string(d.unmatched_reference) +
                     "+" + std::to_string(d.unmatched_other);
  if (d.matched > 0) {
    text += ", corner max " + FormatNumberOrInf("%.3g", d.max_corner_error_px) + " px mean " + FormatNumberOrInf("%.3g", d.mean_corner_error_px) +
            ", score max " + FormatNumberOrInf("%.3g", d.max_score_diff);
    if (d.max_keypoint_error) text += ", keypoint max " + FormatNumberOrInf("%.3g", *d.max_keypoint_error);
  }
  return text;
}

int Agree(const AgreeOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench agree: " << message << "\n";
    return 2;
  };
  ShapeBindings dims;
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, dims); !s.ok()) return fail(s.message());
  }
  auto model = ParseModelArgument(o.model);
  if (!model.ok()) return fail(model.error());
  auto targets = ParseTargetList(o.targets);
  if (!targets.ok()) return fail(targets.error());
  if (targets.value().size() < 2) return fail("give at least two targets to compare");
  if (o.format != "table" && o.format != "json") return fail("--format must be table or json");
  // Tolerances: flags over the manifest over defaults.
  Tolerances tolerances = model.value().tolerances;
  if (!tolerances.min_cosine) tolerances.min_cosine = 0.999;
  if (!tolerances.min_sqnr_db) tolerances.min_sqnr_db = 30.0;
  if (o.max_abs) tolerances.max_abs = o.max_abs;
  if (o.min_cosine) tolerances.min_cosine = o.min_cosine;
  if (o.min_sqnr_db) tolerances.min_sqnr_db = o.min_sqnr_db;

  std::vector<PlannedTarget> plan = PlanTargets(model.value(), targets.value(), context.registry);
  if (const std::string missing = MissingArtifacts(plan); !missing.empty()) return fail(missing);
  size_t ref_index = 0;
  if (!o.reference.empty()) {
    ref_index = plan.size();
    for (size_t i = 0; i < plan.size(); ++i) {
      if (plan[i].target.text == o.reference) ref_index = i;
    }
    if (ref_index == plan.size()) return fail("--reference '" + o.reference + "' is not one of --target");
  }
  std::rotate(plan.begin(), plan.begin() + static_cast<long>(ref_index), plan.begin() + static_cast<long>(ref_index) + 1);
  if (!plan[0].artifact) return fail("the reference target " + plan[0].target.text + " is skipped: " + plan[0].skip_reason);

  std::vector<Tensor> inputs;
  const Layout compare_layout = plan[0].artifact->layout;
  if (!o.image.empty()) {
    // Checked here from the header alone (a bad spec is exit 2); each worker decodes and resizes
    // the image itself, under its memory limit, so nothing image-sized is allocated here.
    auto pre = ParseImagePreprocess(o.preprocess);
    if (!pre.ok()) return fail(pre.error());
    if (Status s = CheckImageInput(o.image, pre.value()); !s.ok()) return fail(s.message());
  }
  std::vector<std::string> worker_args;
  if (LogEnabled(LogLevel::kDebug)) worker_args.push_back("--verbose");

  nlohmann::json report = {{"schema", "edgebench.agreement/1"},
                           {"id", NewRecordId()},
                           {"started_at", UtcNowIso8601()},
                           {"model", model.value().name},
                           {"reference", plan[0].target.text},
                           {"input", o.image.empty() ? "seeded random (seed " + std::to_string(o.seed) + ")" : o.image},
                           {"tolerances", {{"max_abs", tolerances.max_abs ? nlohmann::json(*tolerances.max_abs) : nlohmann::json(nullptr)},
                                           {"min_cosine", *tolerances.min_cosine},
                                           {"min_sqnr_db", *tolerances.min_sqnr_db}}},
                           {"targets", nlohmann::json::array()}};
  // Each target's comparison is also a record (scenario "agree") in DIR/results.jsonl, beside
  // the latency records, so drift and speed can be joined by model and target.
  bool exit_code_store_failed = false;
  std::optional<ResultStore> store;
  if (!o.out_dir.empty()) {
    auto opened = ResultStore::Open(o.out_dir);
    if (!opened.ok()) return fail(opened.error());
    store = opened.take();
  }
  const std::string input_description = report["input"].get<std::string>();
  ArtifactDigests digests;
  int stored = 0;
  auto store_record = [&](const PlannedTarget& p, const std::string& status, const std::string& stage,
                          const std::string& error, const OutputsResult* result,
                          std::vector<OutputAgreement> outputs, bool is_reference) {
    if (!store) return;
    CaseSpec spec;
    spec.model = model.value().name;
    spec.artifact = p.artifact ? p.artifact->path : "";
    spec.target = p.target.text;
    spec.dims = dims;
    spec.scenario = "agree";
    spec.settings.seed = o.seed;
    if (!spec.artifact.empty()) {
      // Unreadable here means the worker already said why; the record then has no digest.
      auto digest = digests.Of(spec.artifact);
      if (digest.ok()) spec.artifact_sha256 = digest.take();
    }
    spec.case_key =
        Sha256Hex(CaseKey(spec) + "|reference=" + plan[0].target.text + "|input=" + input_description).substr(0, 16);
    Record r = MakeBaseRecord(spec, context.registry);
    r.status = ParseCaseStatus(status).value_or(CaseStatus::kFailed);
    r.failed_stage = stage;
    r.error = error;
    if (result) {
      r.effective_target = result->effective_target;
      r.placement = result->placement;
    }
    r.agreement = AgreementRecord{plan[0].target.text, is_reference, input_description, tolerances, std::move(outputs)};
    FinishRecord(r);
    if (Status s = store->Append(r); !s.ok()) {
      std::cerr << "edgebench agree: " << s.message() << "\n";
      exit_code_store_failed = true;
    } else {
      ++stored;
    }
  };
  int exit_code = 0;
  bool reference_failed = false;
  int compared_targets = 0;  // targets other than the reference with at least one output compared
  std::vector<std::string> skipped_targets;    // no artifact for them: shown, not a failure alone
  std::vector<std::string> uncompared_reasons;  // "target: why", for "nothing was compared"
  std::vector<Tensor> reference_outputs;
  // The reference's detections, decoded once when a comparison first needs them.
  std::optional<Result<std::optional<std::vector<Tensor>>>> reference_detections;
  // The target column fits the longest target written (options included), and at least 30.
  size_t target_width = 30;
  for (const auto& p : plan) target_width = std::max(target_width, p.target.text.size() + 2);
  const int target_column = static_cast<int>(target_width);
  if (o.format == "table") {
    std::cout << std::left << std::setw(target_column) << "target" << std::setw(22) << "output" << std::setw(15) << "shape"
              << std::setw(11) << "max abs" << std::setw(11) << "mean abs" << std::setw(11) << "cosine"
              << std::setw(10) << "SQNR dB" << std::setw(6) << "top1" << std::setw(6) << "top5" << "result\n";
  }
  for (size_t i = 0; i < plan.size(); ++i) {
    const PlannedTarget& p = plan[i];
    nlohmann::json entry = {{"target", p.target.text}, {"outputs", nlohmann::json::array()}};
    auto row_note = [&](const std::string& status, const std::string& message) {
      entry["status"] = status;
      entry["error"] = message;
      if (o.format == "table") {
        std::cout << std::setw(target_column) << p.target.text << status << ": " << message << "\n";
      }
    };
    if (!p.artifact) {
      row_note("skipped", p.skip_reason);
      skipped_targets.push_back(p.target.text);
      uncompared_reasons.push_back(p.target.text + " skipped: " + p.skip_reason);
      report["targets"].push_back(entry);
      store_record(p, "skipped", "plan", p.skip_reason, nullptr, {}, false);
      continue;
    }
    OutputsRequest request{model.value().name, *p.artifact, compare_layout, p.target.text, dims, o.seed, inputs,
                           o.image, o.preprocess};
    OutputsResult result = RunOutputsInWorker(context.executable, request, o.timeout_ms, worker_args);
    entry["artifact"] = result.artifact;
    entry["effective_target"] = result.effective_target;
    if (result.status != "ok") {
      row_note(result.status, result.stage + ": " + result.error);
      store_record(p, result.status, result.stage, result.error, &result, {}, i == 0);
      if (i == 0) {
        std::cerr << "edgebench agree: the reference target failed; nothing to compare against\n";
        report["targets"].push_back(entry);
        exit_code = 1;
        reference_failed = true;
        break;
      }
      exit_code = 1;
      uncompared_reasons.push_back(p.target.text + " " + result.status + " at " + result.stage);
      report["targets"].push_back(entry);
      continue;
    }
    // The manifest's output mapping first, so that twins' outputs carry the same names.
    auto mapped = ApplyOutputMapping(p.artifact->outputs, std::move(result.outputs), p.artifact->path);
    result.outputs.clear();
    if (!mapped.ok()) {
      row_note("failed", mapped.error());
      store_record(p, "failed", "compare", mapped.error(), &result, {}, i == 0);
      exit_code = 1;
      report["targets"].push_back(entry);
      if (i == 0) {
        std::cerr << "edgebench agree: the reference target failed; nothing to compare against\n";
        reference_failed = true;
        break;
      }
      uncompared_reasons.push_back(p.target.text + ": " + mapped.error());
      continue;
    }
    const std::vector<Tensor> outputs = mapped.take();
    entry["status"] = "ok";
    if (i == 0) {
      // Every other target gets exactly these (an image: the same spec, decoded the same way).
      inputs = result.inputs;
      reference_outputs = outputs;
      for (const Tensor& t : outputs) {
        entry["outputs"].push_back({{"name", t.name}, {"shape", t.shape}});
        if (o.format == "table") {
          std::cout << std::setw(target_column) << p.target.text << std::setw(22) << t.name.substr(0, 21)
                    << std::setw(15) << ShapeToString(t.shape) << "reference\n";
        }
      }
      report["targets"].push_back(entry);
      store_record(p, "ok", "", "", &result, {}, true);
      continue;
    }
    // Detection outputs are compared as sets (their counts may differ), the rest elementwise.
    // A raw detector beside one that gives detections is decoded by the model's postprocess;
    // two raw twins that both have a postprocess are compared both ways.
    std::vector<Tensor> reference_detection_outputs, reference_raw, other_detection_outputs, other_raw;
    SplitDetectionOutputs(reference_outputs, reference_detection_outputs, reference_raw);
    SplitDetectionOutputs(outputs, other_detection_outputs, other_raw);
    const auto& reference_postprocess = ArtifactPostprocess(model.value(), *plan[0].artifact);
    const auto& other_postprocess = ArtifactPostprocess(model.value(), *p.artifact);
    const bool reference_gives_detections = HasDetections(reference_outputs);
    const bool other_gives_detections = HasDetections(outputs);
    const bool compare_detections = reference_gives_detections || other_gives_detections ||
                                    (reference_postprocess && other_postprocess);
    const bool compare_raw = !reference_raw.empty() && !other_raw.empty() && !reference_gives_detections &&
                             !other_gives_detections;
    std::vector<OutputAgreement> compared;
    std::string compare_error;
    auto compare_failed = [&](const std::string& message) {
      row_note("failed", message);
      compare_error = message;
      exit_code = 1;
    };
    if (compare_raw) {
      auto pairs = PairOutputs(reference_raw, other_raw);
      if (!pairs.ok()) {
        compare_failed(pairs.error());
      } else {
        for (const auto& [ri, oi] : pairs.value()) {
          auto agreement = CompareOutput(reference_raw[ri], other_raw[oi]);
          if (!agreement.ok()) {
            compare_failed(agreement.error());
            continue;
          }
          OutputAgreement& a = agreement.value();
          CheckTolerances(a, tolerances);
          compared.push_back(a);
          const bool pass = a.violations.empty();
          if (!pass) exit_code = 1;
          nlohmann::json out = {{"name", a.output}, {"other_name", other_raw[oi].name}, {"shape", a.shape},
                                {"max_abs_error", Number(a.max_abs_error)},
                                {"mean_abs_error", Number(a.mean_abs_error)},
                                {"cosine", Number(a.cosine)}, {"sqnr_db", Number(a.sqnr_db)},
                                {"reference_nonfinite", a.reference_nonfinite},
                                {"other_nonfinite", a.other_nonfinite},
                                {"top1_agrees", a.top1_agrees ? nlohmann::json(*a.top1_agrees) : nlohmann::json(nullptr)},
                                {"top5_overlap", a.top5_overlap ? nlohmann::json(*a.top5_overlap) : nlohmann::json(nullptr)},
                                {"within_tolerance", pass}, {"violations", a.violations}};
          entry["outputs"].push_back(out);
          if (o.format == "table") {
            std::cout << std::setw(target_column) << p.target.text << std::setw(22) << a.output.substr(0, 21)
                      << std::setw(15) << ShapeToString(a.shape) << std::setw(11) << FormatNumberOrInf("%.3g", a.max_abs_error)
                      << std::setw(11) << FormatNumberOrInf("%.3g", a.mean_abs_error) << std::setw(11) << FormatNumberOrInf("%.6f", a.cosine)
                      << std::setw(10) << FormatNumberOrInf("%.1f", a.sqnr_db)
                      << std::setw(6) << (a.top1_agrees ? (*a.top1_agrees ? "yes" : "no") : "-")
                      << std::setw(6) << (a.top5_overlap ? FormatNumberOrInf("%.1f", *a.top5_overlap) : "-") << ResultText(a.violations) << "\n";
          }
        }
      }
    }
    bool detections_compared = false;
    // Records have no fields for detection metrics yet: a disagreement is recorded as a failed
    // comparison with the violations as its error, so the record is not read as agreement.
    std::string detection_disagreement;
    if (compare_detections) {
      if (!reference_detections) reference_detections = DetectionsOf(reference_outputs, reference_postprocess);
      auto other_detections = DetectionsOf(outputs, other_postprocess);
      const auto no_detections = [](const std::string& who) {
        return who + " gives raw outputs and the model declares no postprocess to decode them; add "
               "\"postprocess\": {\"kind\": \"ssd_detections\", \"preset\": ...} to its manifest";
      };
      if (!reference_detections->ok()) {
        compare_failed("decoding the reference's detections: " + reference_detections->error());
      } else if (!other_detections.ok()) {
        compare_failed("decoding the detections: " + other_detections.error());
      } else if (!reference_detections->value()) {
        compare_failed(no_detections("the reference " + plan[0].target.text));
      } else if (!other_detections.value()) {
        compare_failed(no_detections(p.target.text));
      } else {
        const DetectionTolerances& dt = model.value().detection_tolerances;
        auto agreement = CompareDetections(*reference_detections->value(), *other_detections.value(), dt.min_iou);
        if (!agreement.ok()) {
          compare_failed(agreement.error());
        } else {
          DetectionAgreement& d = agreement.value();
          CheckDetectionTolerances(d, dt);
          detections_compared = true;
          const bool pass = d.violations.empty();
          if (!pass) {
            exit_code = 1;
            detection_disagreement = "detections disagree: " + Join(d.violations, "; ");
          }
          entry["outputs"].push_back(
              {{"name", "detections"}, {"kind", "detections"},
               {"reference_count", d.reference_count}, {"other_count", d.other_count},
               {"matched", d.matched}, {"unmatched_reference", d.unmatched_reference},
               {"unmatched_other", d.unmatched_other}, {"min_matched_iou", Number(d.min_matched_iou)},
               {"max_corner_error_px", Number(d.max_corner_error_px)},
               {"mean_corner_error_px", Number(d.mean_corner_error_px)},
               {"max_score_diff", Number(d.max_score_diff)},
               {"max_keypoint_error", d.max_keypoint_error ? Number(*d.max_keypoint_error) : nlohmann::json(nullptr)},
               {"decoded_reference", !reference_gives_detections},
               {"decoded_other", !other_gives_detections},
               {"reference_detections", DetectionList(*reference_detections->value())},
               {"other_detections", DetectionList(*other_detections.value())},
               {"within_tolerance", pass}, {"violations", d.violations}});
          if (o.format == "table") {
            std::cout << std::setw(target_column) << p.target.text << std::setw(22) << "detections"
                      << std::setw(15) << ("N " + std::to_string(d.reference_count) + "/" + std::to_string(d.other_count))
                      << std::setw(71) << DetectionSummary(d) + " " << ResultText(d.violations) << "\n";
          }
        }
      }
    }
    if (!compare_raw && !detections_compared && compare_error.empty()) {
      compare_failed("nothing to compare: the reference's outputs and these have nothing in common");
    }
    if (compare_error.empty()) {
      ++compared_targets;
    } else {
      uncompared_reasons.push_back(p.target.text + ": " + compare_error);
    }
    report["targets"].push_back(entry);
    const std::string record_error = compare_error.empty() ? detection_disagreement : compare_error;
    store_record(p, record_error.empty() ? "ok" : "failed", record_error.empty() ? "" : "compare", record_error,
                 &result, std::move(compared), false);
  }
  // Nothing compared is not agreement: a run whose other targets were all skipped or failed
  // says so and fails. A skipped target beside a real comparison does not fail, but is named.
  if (!reference_failed && compared_targets == 0) {
    std::cerr << "edgebench agree: nothing was compared: no target besides the reference "
              << plan[0].target.text << " produced outputs to compare ("
              << JoinComma(uncompared_reasons) << ")\n";
    exit_code = 1;
  } else if (!skipped_targets.empty()) {
    std::cerr << "edgebench agree: " << skipped_targets.size()
              << (skipped_targets.size() == 1 ? " target" : " targets") << " not compared (skipped): "
              << JoinComma(skipped_targets) << "\n";
  }
  report["compared_targets"] = compared_targets;
  report["skipped_targets"] = skipped_targets;
  report["within_tolerance"] = exit_code == 0;
  if (o.format == "json") std::cout << report.dump(2) << "\n";
  if (store) {
    std::cerr << "edgebench: " << stored << (stored == 1 ? " record" : " records") << " appended to "
              << store->path() << "\n";
    if (exit_code_store_failed) return 1;
  }
  return exit_code;
}

}  // namespace

void AddAgreeCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<AgreeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "agree", "run the same inputs through every target and compare outputs with a reference");
  cmd->footer(
      "Metrics per output against the reference: max and mean absolute error, cosine similarity, "
      "SQNR (dB), top-1/top-5 agreement for score vectors. Default tolerances: cosine >= 0.999, "
      "SQNR >= 30 dB; a manifest's tolerances or the flags override them.\n"
      "Any NaN or infinity in either output fails that output, whatever the tolerances; so does an "
      "output with no elements or with different element counts.\n"
      "Exit status: 0 when every target that ran is within tolerance, 1 when any is not or failed, "
      "or when nothing was compared (every target besides the reference skipped or failed), 2 for "
      "bad arguments (including a --preprocess resize too large for memory). A target skipped for "
      "want of an artifact, beside at least one compared target, does not change the status; it is "
      "shown as skipped and named on stderr.");
  cmd->add_option("model", o->model, "model: FILE, NAME=FILE1,FILE2[?layout=nchw|nhwc], or a manifest .json")
      ->required();
  cmd->add_option("-t,--target", o->targets, "comma-separated targets (at least two)")->required();
  cmd->add_option("--reference", o->reference, "the target others are compared with (default: the first)");
  cmd->add_option("--dim", o->dims, "bind a symbolic dimension: NAME=VALUE (repeatable)");
  cmd->add_option("--seed", o->seed, "seed of the generated inputs")->capture_default_str();
  cmd->add_option("--input", o->image, "an image file to use as the input instead of seeded data");
  cmd->add_option("--preprocess", o->preprocess,
                  "for --input: resize=WxH,scale=S,mean=M[:M:M],std=S[:S:S],layout=nhwc|nchw "
                  "(value = (pixel*scale - mean)/std; default scale 1/255)");
  cmd->add_option("--max-abs", o->max_abs, "tolerance: largest absolute error");
  cmd->add_option("--min-cosine", o->min_cosine, "tolerance: smallest cosine similarity");
  cmd->add_option("--min-sqnr", o->min_sqnr_db, "tolerance: smallest SQNR in dB");
  cmd->add_option("-f,--format", o->format, "table or json")->capture_default_str();
  cmd->add_option("-o,--out", o->out_dir,
                  "append one record per target (scenario \"agree\") to DIR/results.jsonl");
  cmd->add_option("--timeout", o->timeout_ms, "kill a target's worker after this many ms")->capture_default_str();
  cmd->callback([o, &context] { context.exit_code = Agree(*o, context); });
}

}  // namespace edgebench
