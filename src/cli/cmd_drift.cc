// `edgebench drift MODEL --reference fp32 --candidate int8-qdq-minmax-c100 --target ort:cpu`:
// where a candidate (a quantized variant, another artifact) starts to differ from a reference.
// Both run the same samples, each in its own worker that writes every intermediate tensor to a
// file in a temporary directory (runner/intermediates_case.h); the tensors are matched by name
// and compared here, file against file (diagnose/drift.h). docs/drift.md says how to read it.
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <optional>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "cli/token_drift_command.h"
#include "core/log.h"
#include "core/strings.h"
#include "diagnose/drift.h"
#include "inputs/image_input.h"
#include "inputs/input_source.h"
#include "inputs/labelled_images.h"
#include "report/json_numbers.h"
#include "report/record.h"
#include "runner/accuracy_case.h"
#include "runner/model_spec.h"
#include "runner/plan.h"
#include "runner/worker_process.h"

namespace edgebench {
namespace {

// 30 dB: the noise is a thousandth of the signal's power (cosine about 0.9995). A healthy int8
// tensor is at 35-45 dB (8 bits give at most ~48 dB, less for tensors with outliers), and the
// error a well-quantized network accumulates keeps its tensors above 30 dB; under 20 dB a layer
// is visibly wrong. It is also `agree`'s default for outputs, so one number means one thing.
constexpr double kDefaultMinSqnrDb = 30.0;

struct DriftOptions {
  std::string model;
  std::string reference;
  std::string candidates;
  std::string target;  // empty: ort:cpu, or llamacpp:cpu for GGUF models
  std::vector<std::string> dims;
  std::vector<std::string> inputs;
  uint64_t seed = 0;
  int64_t samples = 16;
  double min_sqnr_db = kDefaultMinSqnrDb;
  std::string format = "table";
  int64_t timeout_ms = 600000;
  // GGUF language models only (cli/token_drift_command.h).
  std::string prompts_file;
  int64_t random_prompts = 0;
  int64_t max_tokens = 128;
  std::string out_store;
  // A labelled data set instead of seeded inputs (inputs/labelled_images.h); --samples images.
  std::string data;
  std::string split = "test";
  int64_t offset = 0;
  std::string preprocess;  // default: the manifest's
};

// A temporary directory removed with everything in it when the command ends.
class ScratchDir {
 public:
  static Result<ScratchDir> Make() {
    std::string pattern = (std::filesystem::temp_directory_path() / "edgebench-drift-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return Status::Error("cannot create a temporary directory under " +
                           std::filesystem::temp_directory_path().string() + " for the tensors");
    }
    return ScratchDir(pattern);
  }
  ScratchDir(ScratchDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  ScratchDir(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  // A fresh subdirectory; removing it early keeps disk use to one candidate at a time.
  std::string Sub(const std::string& name) const {
    const std::string dir = path_ + "/" + name;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    return dir;
  }

 private:
  explicit ScratchDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// One side: a variant of the model, else an artifact file.
struct Side {
  std::string label;  // as written
  std::string artifact;
  std::string variant;  // empty for a plain file
  Layout layout = Layout::kAny;  // the artifact's declared layout
};

Result<Side> ResolveSide(const std::optional<ModelSpec>& model, const std::string& text, const Target& target,
                         const Registry& registry) {
  if (model) {
    const std::vector<std::string> variants = ModelVariants(*model);
    if (std::find(variants.begin(), variants.end(), text) != variants.end()) {
      auto selected = SelectVariant(*model, text);
      if (!selected.ok()) return selected.status();
      const PlannedTarget planned = PlanTargets(selected.value(), {target}, registry).front();
      if (!planned.artifact) {
        return Status::Error("variant '" + text + "' has no artifact for " + target.text + ": " + planned.skip_reason);
      }
      return Side{text, planned.artifact->path, text, planned.artifact->layout};
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(text, ec)) {
      return Status::Error("'" + text + "' is neither a variant of " + model->name + " (" +
                           (variants.empty() ? std::string("it has none") : "variants: " + Join(variants, ", ")) +
                           ") nor an artifact file");
    }
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(text, ec)) {
    return Status::Error("'" + text + "' is not an artifact file (give MODEL to name variants)");
  }
  return Side{text, text, "", Layout::kAny};
}

std::vector<DriftTensor> ToDrift(const std::vector<DumpedTensor>& dumped) {
  std::vector<DriftTensor> tensors;
  for (const DumpedTensor& d : dumped) tensors.push_back({d.name, d.node, d.op_type, d.shape, d.file, d.skip_reason});
  return tensors;
}

// Why the candidate's inputs are not the reference's (empty when they are): another number of
// inputs or another shape. Labelled images are laid out per model (NCHW or NHWC), so there the
// same dimensions in another order are the same images.
std::string InputsDiffer(const std::vector<std::vector<int64_t>>& reference,
                         const std::vector<std::vector<int64_t>>& candidate, bool labelled) {
  auto text = [](const std::vector<std::vector<int64_t>>& shapes) {
    std::string t;
    for (const auto& shape : shapes) t += (t.empty() ? "" : ", ") + ShapeToString(shape);
    return t.empty() ? std::string("none") : t;
  };
  bool same = reference.size() == candidate.size();
  for (size_t i = 0; same && i < reference.size(); ++i) {
    std::vector<int64_t> a = reference[i], b = candidate[i];
    if (labelled) {
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
    }
    same = a == b;
  }
  if (same) return "";
  return "its inputs are " + text(candidate) + " and the reference's " + text(reference) +
         ": drift compares the same inputs through both models, so they are not comparable; bind the same "
         "shapes with --dim or compare models exported with the same inputs";
}

std::string RowLabel(const TensorDriftRow& row) {
  return row.reference_name + " (" + (row.node.empty() ? "" : row.node + ", ") + row.op_type + ")";
}

nlohmann::json RowJson(const TensorDriftRow& row) {
  nlohmann::json j = {{"tensor", row.reference_name}, {"candidate_tensor", row.candidate_name},
                      {"node", row.node},             {"op_type", row.op_type},
                      {"shape", row.shape},           {"compared", row.compared}};
  if (!row.compared) {
    j["skip_reason"] = row.skip_reason;
    return j;
  }
  j["sqnr_db"] = Number(row.sqnr_db);
  j["cosine"] = Number(row.cosine);
  j["max_abs_error"] = Number(row.max_abs_error);
  j["nonfinite"] = row.nonfinite;
  j["drop_db"] = row.drop_db ? Number(*row.drop_db) : nlohmann::json(nullptr);
  return j;
}

// A name cut to `width` characters keeping its end, where converters put the layer's own name
// ("...torch.nn.modules.conv.Conv2d_conv3;1"): "..." and the last width - 3 characters.
std::string Tail(const std::string& name, size_t width) {
  if (name.size() <= width) return name;
  return "..." + name.substr(name.size() - (width - 3));
}

// Top-1 hits against the labels, from a run's class-score output (the only output, else the one
// shaped [1, classes]), sample by sample; an error when no output is class scores.
Result<int64_t> Top1Hits(const std::vector<DumpedTensor>& outputs, const std::vector<int32_t>& labels) {
  std::vector<const DumpedTensor*> scores;
  for (const DumpedTensor& d : outputs) {
    const int64_t count = ElementCount(d.shape);
    if (!d.file.empty() && !d.shape.empty() && d.shape.back() >= 2 && count == d.shape.back()) scores.push_back(&d);
  }
  if (scores.size() != 1) return Status::Error("no single output is class scores [1, classes]: no accuracy");
  const int64_t classes = scores[0]->shape.back();
  std::ifstream in(scores[0]->file, std::ios::binary);
  std::vector<float> values(static_cast<size_t>(classes));
  int64_t hits = 0;
  for (int32_t label : labels) {
    if (!in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)))) {
      return Status::Error("cannot read the class scores of every sample from " + scores[0]->file);
    }
    // The best class as accuracy ranks it: ties to the lower class, a NaN never best.
    const int32_t best = TopClasses(values.data(), classes, 1).front();
    if (!std::isnan(values[static_cast<size_t>(best)]) && best == label) ++hits;
  }
  return hits;
}

// The model's outputs of two runs, paired by name (else by position when both have one).
std::vector<TensorDriftRow> CompareOutputs(const std::vector<DumpedTensor>& reference,
                                           const std::vector<DumpedTensor>& other, int64_t samples,
                                           std::vector<std::string>& errors) {
  std::vector<DriftTensor> a = ToDrift(reference), b = ToDrift(other);
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t k = 0; k < b.size(); ++k) {
      if (a[i].name == b[k].name) pairs.push_back({i, k});
    }
  }
  if (pairs.empty() && a.size() == 1 && b.size() == 1) pairs.push_back({0, 0});
  std::vector<TensorDriftRow> rows;
  for (const auto& [i, k] : pairs) {
    auto row = CompareDriftTensors(a[i], b[k], samples);
    if (!row.ok()) {
      errors.push_back(row.error());
      continue;
    }
    rows.push_back(row.take());
  }
  if (pairs.empty()) errors.push_back("the model outputs share no name and are not one each: not compared");
  return rows;
}

int RunDrift(const DriftOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench drift: " << message << "\n";
    return 2;
  };
  if (o.format != "table" && o.format != "json") return fail("--format must be table or json");
  if (o.samples < 1) return fail("--samples must be at least 1");
  ShapeBindings dims;
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, dims); !s.ok()) return fail(s.message());
  }
  std::optional<ModelSpec> model;
  if (!o.model.empty()) {
    auto parsed = ParseModelArgument(o.model);
    if (!parsed.ok()) return fail(parsed.error());
    model = parsed.take();
  }
  // GGUF language models: drift there is the KL divergence of next-token distributions
  // (cli/token_drift_command.h), not tensors by name.
  bool gguf = EndsWith(o.reference, ".gguf");
  if (model) {
    gguf = std::all_of(model->artifacts.begin(), model->artifacts.end(),
                       [](const ArtifactSpec& a) { return EndsWith(a.path, ".gguf"); });
  }
  const std::string target_text = !o.target.empty() ? o.target : gguf ? "llamacpp:cpu" : "ort:cpu";
  auto target = ParseTarget(target_text);
  if (!target.ok()) return fail(target.error());
  auto reference = ResolveSide(model, o.reference, target.value(), context.registry);
  if (!reference.ok()) return fail("--reference: " + reference.error());
  std::vector<Side> candidates;
  for (const std::string& text : SplitList(o.candidates)) {
    auto side = ResolveSide(model, text, target.value(), context.registry);
    if (!side.ok()) return fail("--candidate: " + side.error());
    candidates.push_back(side.take());
  }
  std::vector<const Side*> sides = {&reference.value()};
  for (const Side& side : candidates) sides.push_back(&side);
  for (const Side* side : sides) {
    if (EndsWith(side->artifact, ".gguf") != gguf) {
      return fail("'" + side->artifact + "' " + (gguf ? "is not a GGUF language model, " : "is a GGUF language model, ") +
                  "and '" + reference.value().artifact + "' " + (gguf ? "is" : "is not") +
                  ": drift compares language models with language models and tensor models with tensor models");
    }
  }
  if (gguf) {
    TokenDriftOptions t;
    t.reference = reference.value().artifact;
    for (const Side& side : candidates) t.candidates.push_back(side.artifact);
    t.target = target_text;
    t.prompts_file = o.prompts_file;
    t.random_prompts = o.random_prompts;
    t.max_tokens = o.max_tokens;
    t.seed = o.seed;
    t.format = o.format;
    t.out_store = o.out_store;
    t.timeout_ms = o.timeout_ms;
    t.worker_args = WorkerLogArgs();
    return RunTokenDrift(t, context);
  }
  if (!o.prompts_file.empty() || o.random_prompts != 0 || !o.out_store.empty()) {
    return fail("--prompts, --random-prompts and --out are for GGUF language models");
  }
  // The input source: seeded values or files (inputs/input_source.h), or a labelled data set, the
  // same for every side.
  InputOptions inputs{o.inputs, o.samples, o.seed};
  if (Status s = ValidateInputOptions(inputs); !s.ok()) return fail(s.message());
  DataSetSpec data;
  std::string preprocess;
  std::vector<int32_t> labels;
  if (!o.data.empty()) {
    if (!o.inputs.empty()) return fail("--data and --input are two input sources: give one");
    data = DataSetSpec{o.data, o.split, o.samples, o.offset};
    preprocess = !o.preprocess.empty() ? o.preprocess : model ? model->preprocess : "";
    if (preprocess.empty()) {
      return fail("--data needs the images' preprocessing: the model's manifest declares none; give --preprocess "
                  "(e.g. scale=0.0039215686,mean=0.2860,std=0.3530,layout=nchw)");
    }
    if (auto parsed = ParseImagePreprocess(preprocess); !parsed.ok()) return fail("--preprocess: " + parsed.error());
    auto images = LoadLabelledImages(data);
    if (!images.ok()) return fail("--data: " + images.error());
    labels = images.value().labels;
  } else if (!o.preprocess.empty() || o.offset != 0) {
    return fail("--preprocess and --offset are for --data");
  }
  auto scratch = ScratchDir::Make();
  if (!scratch.ok()) return fail(scratch.error());
  const std::vector<std::string> worker_args = WorkerLogArgs();
  const std::string model_name = model ? model->name : std::filesystem::path(reference.value().artifact).stem().string();
  auto run_side = [&](const Side& side, const std::string& dir, bool expose) {
    IntermediatesRequest request{model_name, side.artifact, target.value().text, dims, inputs, dir, expose,
                                 data, preprocess, side.layout};
    return RunIntermediatesInWorker(context.executable, request, o.timeout_ms, worker_args);
  };

  const IntermediatesResult ref = run_side(reference.value(), scratch.value().Sub("reference"), true);
  nlohmann::json report = {{"schema", "edgebench.drift/1"},
                           {"started_at", UtcNowIso8601()},
                           {"model", model_name},
                           {"target", target.value().text},
                           {"reference", {{"label", reference.value().label},
                                          {"artifact", reference.value().artifact},
                                          {"status", ref.status}}},
                           {"samples", o.data.empty() ? o.samples : static_cast<int64_t>(labels.size())},
                           {"inputs", ref.input_provenance},
                           {"min_sqnr_db", o.min_sqnr_db},
                           {"candidates", nlohmann::json::array()}};
  if (ref.status != "ok") {
    std::cerr << "edgebench drift: the reference " << reference.value().label << " " << ref.status << " at "
              << ref.stage << ": " << ref.error << "\n";
    if (o.format == "json") std::cout << report.dump(2) << "\n";
    return 1;
  }
  if (!ref.intermediates_unsupported.empty()) report["reference"]["intermediates_unsupported"] = ref.intermediates_unsupported;
  int exit_code = 0;
  // With labels: the top-1 accuracy of each side on these images, beside the drift.
  std::optional<int64_t> reference_hits;
  if (!labels.empty()) {
    auto hits = Top1Hits(ref.outputs, labels);
    if (hits.ok()) {
      reference_hits = hits.value();
      report["reference"]["top1"] = static_cast<double>(hits.value()) / static_cast<double>(labels.size());
    } else {
      report["reference"]["top1_error"] = hits.error();
    }
  }
  const std::vector<DriftTensor> reference_tensors = ToDrift(ref.tensors);
  for (size_t c = 0; c < candidates.size(); ++c) {
    const Side& side = candidates[c];
    const std::string dir = scratch.value().Sub("candidate-" + std::to_string(c));
    const IntermediatesResult exposed = run_side(side, scratch.value().Sub("candidate-" + std::to_string(c) + "/exposed"), true);
    nlohmann::json entry = {{"label", side.label}, {"artifact", side.artifact}, {"status", exposed.status}};
    auto close = [&]() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
      report["candidates"].push_back(entry);
    };
    if (exposed.status != "ok") {
      entry["error"] = exposed.stage + ": " + exposed.error;
      std::cerr << "edgebench drift: candidate " << side.label << " " << exposed.status << " at " << exposed.stage
                << ": " << exposed.error << "\n";
      exit_code = 1;
      close();
      continue;
    }
    // Drift is the same inputs through both: a candidate fed other inputs (another input shape,
    // so other seeded values) gives no verdict, only an error.
    if (const std::string differ = InputsDiffer(ref.input_shapes, exposed.input_shapes, !labels.empty());
        !differ.empty()) {
      entry["status"] = "not comparable";
      entry["error"] = differ;
      std::cerr << "edgebench drift: candidate " << side.label << ": " << differ << "\n";
      exit_code = 2;
      close();
      continue;
    }
    // The candidate as it runs when nothing is exposed (ORT fuses DQ->Conv->Q into QLinearConv
    // only then): is its output the exposed run's?
    const IntermediatesResult plain = run_side(side, scratch.value().Sub("candidate-" + std::to_string(c) + "/plain"), false);
    std::vector<std::string> errors;
    std::vector<TensorDriftRow> rows;
    DriftPairing pairing;
    const std::string unsupported = !ref.intermediates_unsupported.empty()
                                        ? "reference: " + ref.intermediates_unsupported
                                        : exposed.intermediates_unsupported;
    const std::vector<DriftTensor> candidate_tensors = ToDrift(exposed.tensors);
    if (unsupported.empty()) {
      pairing = PairDriftTensors(reference_tensors, candidate_tensors);
      for (const auto& pair : pairing.pairs) {
        auto row = CompareDriftTensors(reference_tensors[pair.reference], candidate_tensors[pair.candidate], ref.samples);
        if (!row.ok()) {
          errors.push_back(row.error());
          continue;
        }
        rows.push_back(row.take());
      }
    }
    const DriftSummary summary = SummarizeDrift(rows, o.min_sqnr_db);
    const std::vector<TensorDriftRow> final_rows = CompareOutputs(ref.outputs, exposed.outputs, ref.samples, errors);
    std::vector<TensorDriftRow> exposure_rows, plain_rows;
    if (plain.status == "ok") {
      exposure_rows = CompareOutputs(exposed.outputs, plain.outputs, ref.samples, errors);
      plain_rows = CompareOutputs(ref.outputs, plain.outputs, ref.samples, errors);
    } else {
      errors.push_back("the run without exposed intermediates " + plain.status + " at " + plain.stage + ": " + plain.error);
    }
    int skipped = 0;
    for (const TensorDriftRow& row : rows) skipped += row.compared ? 0 : 1;
    std::map<std::string, int> candidate_only_ops;
    for (size_t k : pairing.candidate_only) ++candidate_only_ops[candidate_tensors[k].op_type];

    // The verdict, in words.
    std::vector<std::string> findings;
    if (!unsupported.empty()) {
      findings.push_back("intermediate tensors unsupported (" + unsupported + "); final outputs only");
    } else if (summary.first_drift) {
      const TensorDriftRow& row = rows[*summary.first_drift];
      findings.push_back("first drift at " + RowLabel(row) + ", SQNR " + FormatNumberOrInf("%.1f", row.sqnr_db) + " dB < " +
                         FormatNumberOrInf("%g", o.min_sqnr_db) + " dB");
    } else if (!rows.empty()) {
      findings.push_back("no tensor below " + FormatNumberOrInf("%g", o.min_sqnr_db) + " dB");
    }
    if (summary.largest_drop) {
      const TensorDriftRow& row = rows[*summary.largest_drop];
      std::string before = "from the input";
      for (size_t i = *summary.largest_drop; i-- > 0;) {
        if (rows[i].compared && !(std::isinf(rows[i].sqnr_db) && rows[i].sqnr_db > 0)) {
          before = FormatNumberOrInf("%.1f", rows[i].sqnr_db);
          break;
        }
      }
      findings.push_back("largest drop at " + RowLabel(row) + ": " + before + " -> " + FormatNumberOrInf("%.1f", row.sqnr_db) + " dB");
    }
    for (const TensorDriftRow& row : final_rows) {
      if (row.compared) findings.push_back("final output " + row.reference_name + " SQNR " + FormatNumberOrInf("%.1f", row.sqnr_db) + " dB");
    }
    if (reference_hits) {
      // The candidate as it runs (nothing exposed), else as exposed.
      auto hits = Top1Hits(plain.status == "ok" ? plain.outputs : exposed.outputs, labels);
      if (hits.ok()) {
        const double n = static_cast<double>(labels.size());
        const double reference_top1 = static_cast<double>(*reference_hits) / n;
        const double candidate_top1 = static_cast<double>(hits.value()) / n;
        entry["top1"] = candidate_top1;
        entry["top1_delta_points"] = 100 * (candidate_top1 - reference_top1);
        findings.push_back("top-1 on these " + std::to_string(labels.size()) + " images " +
                           FormatNumberOrInf("%.2f", 100 * candidate_top1) + "% against the reference's " +
                           FormatNumberOrInf("%.2f", 100 * reference_top1) + "% (" + FormatNumberOrInf("%+.2f", 100 * (candidate_top1 - reference_top1)) +
                           " points)");
      } else {
        errors.push_back(hits.error());
      }
    }
    std::string exposure_text;
    bool exposure_changed = false;
    // The lowest SQNR of the exposed run's final outputs against the unexposed run's: above
    // kRoundingOnlyDb the change is float rounding (a fusion the exposure stopped), not drift.
    constexpr double kRoundingOnlyDb = 100;
    double exposure_sqnr_db = std::numeric_limits<double>::infinity();
    for (const TensorDriftRow& row : exposure_rows) {
      if (!row.compared) continue;
      if (row.max_abs_error != 0 || row.nonfinite > 0) {
        exposure_changed = true;
        exposure_sqnr_db = std::isnan(row.sqnr_db) ? row.sqnr_db : std::min(exposure_sqnr_db, row.sqnr_db);
        exposure_text += (exposure_text.empty() ? "" : "; ") + row.reference_name + ": SQNR " +
                         FormatNumberOrInf("%.1f", row.sqnr_db) + " dB, max abs " + FormatNumberOrInf("%.3g", row.max_abs_error);
      }
    }
    for (const TensorDriftRow& row : plain_rows) {
      if (exposure_changed && row.compared) {
        exposure_text += "; unexposed vs reference: " + row.reference_name + " SQNR " + FormatNumberOrInf("%.1f", row.sqnr_db) + " dB";
      }
    }

    entry["effective_target"] = exposed.effective_target;
    entry["intermediates_unsupported"] = unsupported;
    entry["tensors"] = nlohmann::json::array();
    for (const TensorDriftRow& row : rows) entry["tensors"].push_back(RowJson(row));
    entry["final_outputs"] = nlohmann::json::array();
    for (const TensorDriftRow& row : final_rows) entry["final_outputs"].push_back(RowJson(row));
    entry["unexposed_outputs"] = nlohmann::json::array();
    for (const TensorDriftRow& row : plain_rows) entry["unexposed_outputs"].push_back(RowJson(row));
    entry["exposure_changed_output"] = plain.status == "ok" ? nlohmann::json(exposure_changed) : nlohmann::json(nullptr);
    entry["exposure_output_sqnr_db"] = plain.status == "ok" ? Number(exposure_sqnr_db) : nlohmann::json(nullptr);
    entry["first_drift"] = summary.first_drift ? nlohmann::json(rows[*summary.first_drift].reference_name) : nlohmann::json(nullptr);
    entry["largest_drop"] = summary.largest_drop ? nlohmann::json(rows[*summary.largest_drop].reference_name) : nlohmann::json(nullptr);
    entry["matched"] = pairing.pairs.size();
    entry["skipped"] = skipped;
    nlohmann::json reference_only = nlohmann::json::array(), candidate_only = nlohmann::json::array();
    for (size_t r : pairing.reference_only) reference_only.push_back(reference_tensors[r].name);
    for (size_t k : pairing.candidate_only) candidate_only.push_back(candidate_tensors[k].name);
    entry["reference_only"] = reference_only;
    entry["candidate_only"] = candidate_only;
    entry["summary"] = Join(findings, "; ");
    entry["errors"] = errors;
    if (!errors.empty()) exit_code = 1;

    if (o.format == "table") {
      std::cout << model_name << ": " << reference.value().label << " vs " << side.label << " on "
                << exposed.effective_target << ", " << ref.samples << " samples (" << Join(ref.input_provenance, "; ")
                << ")\n";
      std::cout << "  reference " << reference.value().artifact << "\n  candidate " << side.artifact << "\n";
      if (unsupported.empty()) {
        std::cout << std::left << "  " << std::setw(4) << "" << std::setw(30) << "tensor" << std::setw(20) << "node"
                  << std::setw(20) << "op" << std::setw(14) << "shape" << std::setw(9) << "SQNR dB" << std::setw(9)
                  << "drop dB" << std::setw(10) << "cosine" << std::setw(11) << "max abs" << "candidate tensor\n";
        for (size_t i = 0; i < rows.size(); ++i) {
          const TensorDriftRow& row = rows[i];
          const bool low = row.compared && !(row.sqnr_db >= o.min_sqnr_db);
          std::cout << "  " << std::setw(4) << (low ? "<" : "") << std::setw(30) << Tail(row.reference_name, 29)
                    << std::setw(20) << Tail(row.node, 19) << std::setw(20) << Tail(row.op_type, 19)
                    << std::setw(14) << ShapeToString(row.shape);
          if (!row.compared) {
            std::cout << "skipped: " << row.skip_reason << "\n";
            continue;
          }
          std::cout << std::setw(9) << FormatNumberOrInf("%.1f", row.sqnr_db) << std::setw(9)
                    << (row.drop_db ? FormatNumberOrInf("%.1f", *row.drop_db) : "-") << std::setw(10) << FormatNumberOrInf("%.6f", row.cosine)
                    << std::setw(11) << FormatNumberOrInf("%.3g", row.max_abs_error)
                    << (row.candidate_name == row.reference_name ? "" : row.candidate_name) << "\n";
        }
        std::string only_ops;
        for (const auto& [op, count] : candidate_only_ops) only_ops += (only_ops.empty() ? "" : ", ") + op + " " + std::to_string(count);
        std::cout << "  matched " << pairing.pairs.size() << " tensors (" << skipped << " skipped); reference-only "
                  << pairing.reference_only.size() << "; candidate-only " << pairing.candidate_only.size()
                  << (only_ops.empty() ? "" : " (" + only_ops + ")") << "\n";
      }
      std::cout << "  " << Join(findings, "; ") << "\n";
      if (plain.status == "ok") {
        std::cout << "  exposing the intermediates "
                  << (!exposure_changed ? std::string("left the candidate's final output unchanged")
                      : exposure_sqnr_db >= kRoundingOnlyDb
                          ? "changed the candidate's final output by float rounding only (" + exposure_text +
                                "): runtimes fuse differently when inner values are outputs"
                          : "CHANGED the candidate's final output (" + exposure_text +
                                "): the rows above are of the model as run with them exposed")
                  << "\n";
      }
      for (const std::string& e : errors) std::cout << "  error: " << e << "\n";
      std::cout << "\n";
    }
    close();
  }
  if (o.format == "json") std::cout << report.dump(2) << "\n";
  return exit_code;
}

}  // namespace

void AddDriftCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<DriftOptions>();
  CLI::App* cmd = app.add_subcommand(
      "drift", "find where a candidate (a quantized variant) starts to differ from a reference, tensor by tensor");
  cmd->footer(
      "Runs the reference and each candidate on the same samples, each in a worker with every "
      "intermediate tensor exposed, matches the tensors by name (QDQ copies included: docs/drift.md) "
      "and reports per tensor, in graph order, SQNR and cosine over all samples and the largest "
      "absolute error; then the first tensor under --min-sqnr and the largest drop. The candidate "
      "also runs without exposure, to show whether exposing changed its output.\n"
      "Exit status: 0 when every side ran and was compared, 1 when a side failed or a comparison "
      "could not be made, 2 for bad arguments, a candidate whose inputs differ in shape from the reference's "
      "included (no verdict is given on other inputs).");
  cmd->add_option("model", o->model, "the model whose variants --reference and --candidate name (optional with files)");
  cmd->add_option("--reference", o->reference, "a variant of MODEL, or an artifact file")->required();
  cmd->add_option("--candidate", o->candidates, "variants or artifact files, comma-separated")->required();
  cmd->add_option("-t,--target", o->target, "where both run (one target; default ort:cpu, llamacpp:cpu for GGUF)");
  cmd->add_option("--samples", o->samples, "inputs to run (seeded: seed, seed+1, ...)")->capture_default_str();
  cmd->add_option("--seed", o->seed, "seed of the generated inputs")->capture_default_str();
  cmd->add_option("--input", o->inputs, "NAME=SPEC: an input's source, as `run --input` (e.g. x=a.npy)");
  cmd->add_option("--dim", o->dims, "bind a symbolic dimension: NAME=VALUE (repeatable)");
  cmd->add_option("--min-sqnr", o->min_sqnr_db, "a tensor below this SQNR (dB) has drifted")->capture_default_str();
  cmd->add_option("-f,--format", o->format, "table or json")->capture_default_str();
  cmd->add_option("--timeout", o->timeout_ms, "kill a side's worker after this many ms")->capture_default_str();
  cmd->add_option("--data", o->data, "a labelled data set instead of seeded inputs: fashion-mnist, DIR or IMAGES,LABELS "
                  "(--samples images; adds top-1 accuracy)");
  cmd->add_option("--split", o->split, "--data: test or train")->capture_default_str();
  cmd->add_option("--offset", o->offset, "--data: the first image's index")->capture_default_str();
  cmd->add_option("--preprocess", o->preprocess, "--data: the images' preprocessing (default: the manifest's)");
  cmd->add_option("--prompts", o->prompts_file, "GGUF: a text file of prompts, one per line (default: built-in sentences)");
  cmd->add_option("--random-prompts", o->random_prompts, "GGUF: this many seeded random token sequences instead");
  cmd->add_option("--max-tokens", o->max_tokens, "GGUF: tokens per prompt (longer ones are cut)")->capture_default_str();
  cmd->add_option("--out", o->out_store, "GGUF: append one JSON line per candidate to DIR/token_drift.jsonl");
  cmd->callback([o, &context] { context.exit_code = RunDrift(*o, context); });
}

}  // namespace edgebench
