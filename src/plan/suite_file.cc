#include "plan/suite_file.h"

#include "plan/mix_file.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>
#include <sstream>
#include <string_view>

#include "core/cartesian.h"
#include "core/path_names.h"
#include "load/scenario_registry.h"
#include "load/scenario_spec.h"
#include "plan/path_expansion.h"
#include "plan/plan.h"
#include "core/bounded_file.h"
#include "plan/suite_modes.h"
#include "plan/suite_targets.h"
#include "plan/suite_yaml.h"
#include "load/case_kind.h"

namespace edgebench {
namespace {

// The keys each mapping accepts, in the order errors list them.
constexpr std::string_view kTopKeys[] = {"name",    "out",    "settings",  "models", "targets",
                                         "params",  "scenarios", "llm",    "accuracy", "agree", "drift", "mixes",
                                         "conformance"};
constexpr std::string_view kConformanceKeys[] = {"cases", "ops", "timeout"};
constexpr std::string_view kSettingsKeys[] = {
    "warmup", "min_queries", "min_duration_ms", "max_duration_ms", "max_queries", "seed",
    "max_cv", "timeout_ms", "sessions", "concurrency", "batch", "streams", "window_ms",
    "confidence", "p99_bound_ms", "find_peak", "profile", "input_pool", "strict_dims"};
constexpr std::string_view kModelKeys[] = {"name", "path",   "artifacts",
                                           "manifest", "dims", "inputs"};
constexpr std::string_view kLlmKeys[] = {"prompt",      "gen",         "repeat", "warmup", "sequences",
                                         "prompt_text", "concurrency", "rate",   "slo"};

// Reads one suite text. Every check reports "FILE:LINE:COLUMN: message" through At().
class SuiteParser : public SuiteYaml {
 public:
  SuiteParser(std::string path, std::string base_dir, const SuiteReadOptions& options)
      : SuiteYaml(std::move(path)), base_dir_(std::move(base_dir)), options_(options) {}

  Result<SuiteSpec> Parse(const std::string& text) {
    return ParseDocument<SuiteSpec>(text, [this](const YAML::Node& root) {
      auto suite = ParseRoot(root);
      if (suite.ok() && options_.relocate) suite.value().relocated_yaml = Relocated(root, suite.value().name);
      return suite;
    });
  }

 private:
  std::optional<std::string> Getenv(const std::string& name) const {
    return options_.getenv ? options_.getenv(name) : ProcessEnvironment(name);
  }

  // Expands `${VAR}` and a leading `~`, then resolves a relative path against the suite's
  // directory (plan/path_expansion.h).
  Result<std::string> ResolvePath(const std::string& raw, const YAML::Node& node) const {
    auto path = ExpandPath(raw, [this](const std::string& name) { return Getenv(name); }, base_dir_);
    if (!path.ok()) return At(node, path.error());
    return path;
  }

  Status MustExist(const std::string& resolved, const std::string& raw, const YAML::Node& node,
                   const std::string& what) const {
    std::error_code ec;
    if (std::filesystem::is_regular_file(resolved, ec)) return Status::Ok();
    std::string message = what + " '" + resolved + "' ";
    message += std::filesystem::exists(resolved, ec) ? "is not a regular file" : "does not exist";
    if (resolved != raw) message += " (written '" + raw + "')";
    return At(node, message);
  }

  // One artifact, "PATH[?layout=...]", resolved and checked to exist; returns "RESOLVED[?...]".
  Result<std::string> Artifact(const YAML::Node& node) const {
    auto text = String(node, "model artifact");
    if (!text.ok()) return text.status();
    const std::string& raw = text.value();
    const size_t q = raw.find('?');
    const std::string raw_path = raw.substr(0, q);
    const std::string suffix = q == std::string::npos ? "" : raw.substr(q);
    auto resolved = ResolvePath(raw_path, node);
    if (!resolved.ok()) return resolved.status();
    if (Status s = MustExist(resolved.value(), raw_path, node, "model file"); !s.ok()) return s;
    if (resolved.value().find(',') != std::string::npos) {
      return At(node, "model file '" + resolved.value() +
                          "': a path with a comma cannot be used; rename or link the file");
    }
    Read(resolved.value(), node, suffix);
    return resolved.value() + suffix;
  }

  // Notes a file the models read; with options_.relocate, rewrites the path written at `node`
  // (none for a file a manifest names) to the file's new place, options `suffix` kept.
  void Read(const std::string& resolved, const YAML::Node& node, const std::string& suffix) const {
    if (std::find(files_.begin(), files_.end(), resolved) == files_.end()) files_.push_back(resolved);
    if (options_.relocate && node.IsDefined()) {
      YAML::Node written = node;  // a handle on the same node: assigning rewrites it in the tree
      written = options_.relocate(resolved) + suffix;
    }
  }

  // The suite as read, its paths rewritten by Read(): `name:` written out (a host's copy has
  // another file name) and `out:` left out (the host's store is given on its command line).
  static std::string Relocated(YAML::Node root, const std::string& name) {
    root["name"] = name;
    root.remove("out");
    YAML::Emitter out;
    out << root;
    return std::string(out.c_str()) + "\n";
  }

  Status CheckModelName(const std::string& name, const YAML::Node& node) const {
    if (name.find_first_of("=,/?") != std::string::npos) {
      return At(node, "model name '" + name + "' may not contain '=', ',', '/' or '?'; set "
                      "another with name:");
    }
    return Status::Ok();
  }

  // Artifacts written as strings become the command-line form NAME=A,B and go through
  // ParseModelArgument, so `?layout=` means what it means on the command line.
  Result<ModelSpec> ModelFromArtifacts(const std::vector<YAML::Node>& nodes,
                                       const std::optional<std::string>& name,
                                       const YAML::Node& entry) const {
    std::string list;
    std::string first_path;
    for (const YAML::Node& node : nodes) {
      auto artifact = Artifact(node);
      if (!artifact.ok()) return artifact.status();
      if (first_path.empty()) first_path = artifact.value().substr(0, artifact.value().find('?'));
      list += (list.empty() ? "" : ",") + artifact.value();
    }
    const std::string model_name =
        name ? *name : std::filesystem::path(first_path).stem().string();
    if (Status s = CheckModelName(model_name, entry); !s.ok()) return s;
    auto spec = ParseModelArgument(model_name + "=" + list);
    if (!spec.ok()) return At(entry, "model: " + spec.error());
    return spec;
  }

  Result<ModelSpec> ModelFromManifest(const YAML::Node& node) const {
    auto raw = String(node, "model manifest");
    if (!raw.ok()) return raw.status();
    auto resolved = ResolvePath(raw.value(), node);
    if (!resolved.ok()) return resolved.status();
    if (std::filesystem::path(resolved.value()).extension() != ".json") {
      return At(node, "model manifest '" + raw.value() + "' must be a .json file");
    }
    if (Status s = MustExist(resolved.value(), raw.value(), node, "model manifest"); !s.ok()) {
      return s;
    }
    auto spec = ParseModelArgument(resolved.value());
    if (!spec.ok()) return At(node, spec.error());
    Read(resolved.value(), node, "");
    for (const ArtifactSpec& artifact : spec.value().artifacts) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(artifact.path, ec)) {
        return At(node, "model manifest '" + resolved.value() + "' names model file '" +
                            artifact.path + "', which does not exist");
      }
      Read(std::filesystem::path(artifact.path).lexically_normal().string(), YAML::Node(), "");
    }
    return spec;
  }

  Result<SuiteModel> Model(const YAML::Node& entry) const {
    SuiteModel model;
    model.line = Line(entry);
    if (entry.IsScalar()) {
      const std::string file = entry.Scalar().substr(0, entry.Scalar().find('?'));
      const bool manifest = std::filesystem::path(file).extension() == ".json";
      auto spec = manifest ? ModelFromManifest(entry)
                           : ModelFromArtifacts({entry}, std::nullopt, entry);
      if (!spec.ok()) return spec.status();
      model.spec = spec.take();
      return model;
    }
    auto fields = Fields(entry, "a model", kModelKeys);
    if (!fields.ok()) return fields.status();
    auto& f = fields.value();
    const size_t forms = f.count("path") + f.count("artifacts") + f.count("manifest");
    if (forms != 1) {
      return At(entry, std::string("a model needs exactly one of path, artifacts or manifest; ") +
                           (forms == 0 ? "this one has none" : "this one has several"));
    }
    std::optional<std::string> name;
    if (f.count("name")) {
      auto text = String(f["name"], "model name");
      if (!text.ok()) return text.status();
      if (Status s = CheckModelName(text.value(), f["name"]); !s.ok()) return s;
      name = text.value();
    }
    Result<ModelSpec> spec = Status::Error("");
    if (f.count("path")) {
      spec = ModelFromArtifacts({f["path"]}, name, entry);
    } else if (f.count("artifacts")) {
      const YAML::Node& list = f["artifacts"];
      if (Status s = List(list, "model artifacts", "[a.onnx, \"a.tflite?layout=nhwc\"]"); !s.ok()) {
        return s;
      }
      spec = ModelFromArtifacts(std::vector<YAML::Node>(list.begin(), list.end()), name, entry);
    } else {
      spec = ModelFromManifest(f["manifest"]);
      if (spec.ok() && name) spec.value().name = *name;
    }
    if (!spec.ok()) return spec.status();
    model.spec = spec.take();
    if (f.count("dims")) {
      const YAML::Node& dims = f["dims"];
      if (!dims.IsMap()) {
        return At(dims, "dims: expected a mapping of dimension names to sizes, for example "
                        "{batch: 1}; got " + TypeName(dims));
      }
      for (const auto& item : dims) {
        NoteKey(item.first, item.second);
        auto key = String(item.first, "dims");
        if (!key.ok()) return key.status();
        if (model.dims.count(key.value())) {
          return At(item.first, "dims: '" + key.value() + "' given twice");
        }
        auto size = Integer(item.second, "dims: " + key.value(), 1);
        if (!size.ok()) return size.status();
        model.dims[key.value()] = size.value();
      }
    }
    if (f.count("inputs")) {
      const YAML::Node& inputs = f["inputs"];
      if (Status s = List(inputs, "inputs", "[\"sr=16000\"]"); !s.ok()) return s;
      for (const YAML::Node& item : inputs) {
        auto text = String(item, "inputs");
        if (!text.ok()) return text.status();
        const size_t eq = text.value().find('=');
        if (eq == std::string::npos || eq == 0) {
          return At(item, "inputs: expected NAME=VALUE as for --input, for example sr=16000; "
                          "got '" + text.value() + "'");
        }
        model.inputs.push_back(text.value());
      }
    }
    return model;
  }

  Status Settings(const YAML::Node& node, SuiteSpec& suite) const {
    if (node.IsNull()) return Status::Ok();
    auto fields = Fields(node, "settings", kSettingsKeys);
    if (!fields.ok()) return fields.status();
    auto& f = fields.value();
    RunSettings& settings = suite.settings;
    suite.settings_line = Line(node);
    for (const auto& [key, value] : f) suite.given_settings.insert(key);
    for (const auto& [key, out] : {std::pair<const char*, bool*>{"find_peak", &suite.find_peak},
                                   {"profile", &suite.profile}, {"strict_dims", &suite.strict_dims}}) {
      if (!f.count(key)) continue;
      auto value = Boolean(f[key], std::string("settings: ") + key);
      if (!value.ok()) return value.status();
      *out = value.value();
    }
    auto integer = [&](const char* key, int64_t min, int64_t& out) -> Status {
      if (!f.count(key)) return Status::Ok();
      auto value = Integer(f[key], std::string("settings: ") + key, min);
      if (!value.ok()) return value.status();
      out = value.value();
      return Status::Ok();
    };
    for (Status s : {integer("warmup", 0, settings.warmup_queries),
                     integer("min_queries", 1, settings.min_queries),
                     integer("min_duration_ms", 0, settings.min_duration_ms),
                     integer("max_duration_ms", 1, settings.max_duration_ms),
                     integer("max_queries", 1, settings.max_queries),
                     integer("timeout_ms", 0, settings.case_timeout_ms),
                     integer("concurrency", 1, settings.concurrency),
                     integer("batch", 0, settings.batch),
                     integer("streams", 1, settings.streams),
                     integer("window_ms", 1, settings.window_ms),
                     integer("input_pool", 1, suite.input_pool)}) {
      if (!s.ok()) return s;
    }
    if (f.count("seed")) {
      auto seed = Unsigned(f["seed"], "settings: seed");
      if (!seed.ok()) return seed.status();
      settings.seed = seed.value();
    }
    if (f.count("max_cv")) {
      auto max_cv = PositiveNumber(f["max_cv"], "settings: max_cv");
      if (!max_cv.ok()) return max_cv.status();
      settings.max_cv = max_cv.value();
    }
    if (f.count("sessions")) {
      auto sessions = String(f["sessions"], "settings: sessions");
      if (!sessions.ok()) return sessions.status();
      settings.sessions = sessions.value();
    }
    for (const auto& [key, out] : {std::pair<const char*, double*>{"confidence", &settings.confidence},
                                   {"p99_bound_ms", &settings.p99_bound_ms}}) {
      if (!f.count(key)) continue;
      auto value = PositiveNumber(f[key], std::string("settings: ") + key);
      if (!value.ok()) return value.status();
      *out = value.value();
    }
    if (settings.min_duration_ms > settings.max_duration_ms) {
      const YAML::Node& at =
          f.count("min_duration_ms") ? f["min_duration_ms"] : f["max_duration_ms"];
      return At(at, "settings: min_duration_ms (" + std::to_string(settings.min_duration_ms) +
                        ") is longer than max_duration_ms (" +
                        std::to_string(settings.max_duration_ms) + ")");
    }
    if (auto valid = Validate(settings); !valid.ok()) return At(node, valid.error());
    return Status::Ok();
  }

  Status Llm(const YAML::Node& node, LlmLists& llm) const {
    if (node.IsNull()) return Status::Ok();
    auto fields = Fields(node, "llm", kLlmKeys);
    if (!fields.ok()) return fields.status();
    auto& f = fields.value();
    if (f.count("prompt")) {
      auto prompts = IntegerList(f["prompt"], "llm: prompt", 1);
      if (!prompts.ok()) return prompts.status();
      llm.prompt_tokens = prompts.take();
    }
    if (f.count("gen")) {
      auto gens = IntegerList(f["gen"], "llm: gen", 1);
      if (!gens.ok()) return gens.status();
      llm.gen_tokens = gens.take();
    }
    auto integer = [&](const char* key, int64_t min, int64_t& out) -> Status {
      if (!f.count(key)) return Status::Ok();
      auto value = Integer(f[key], std::string("llm: ") + key, min);
      if (!value.ok()) return value.status();
      out = value.value();
      return Status::Ok();
    };
    for (Status s : {integer("repeat", 1, llm.repetitions),
                     integer("warmup", 0, llm.warmup_requests),
                     integer("sequences", 1, llm.sequences),
                     integer("concurrency", 1, llm.concurrency)}) {
      if (!s.ok()) return s;
    }
    if (f.count("rate")) {
      auto rate = PositiveNumber(f["rate"], "llm: rate");
      if (!rate.ok()) return rate.status();
      llm.rate = rate.value();
    }
    if (f.count("slo")) {
      auto text = String(f["slo"], "llm: slo");
      if (!text.ok()) return text.status();
      auto slo = ParseLlmSlo("llm: slo", text.value());
      if (!slo.ok()) return At(f["slo"], slo.error());
      llm.slo = slo.value();
    }
    if (llm.sequences > 1 && (llm.concurrency > 1 || llm.rate > 0)) {
      return At(node, "llm: sequences decodes in lockstep as one request; it does not combine with "
                      "concurrency or rate (serving load runs one sequence per request)");
    }
    if (f.count("prompt_text")) {
      auto text = String(f["prompt_text"], "llm: prompt_text");
      if (!text.ok()) return text.status();
      if (f.count("prompt")) {
        return At(f["prompt_text"], "llm: give prompt lengths (prompt) or a prompt text "
                                    "(prompt_text), not both: the text sets the length");
      }
      llm.prompt_text = text.value();
    }
    return Status::Ok();
  }

  using FieldMap = std::map<std::string, YAML::Node>;

  Result<SuiteSpec> ParseRoot(const YAML::Node& root) const {
    if (root.IsNull()) {
      return Status::Error(path_ + ": the suite file is empty; it needs at least models: and "
                                   "targets: (see docs/suites.md)");
    }
    auto fields = Fields(root, "the suite", kTopKeys);
    if (!fields.ok()) return fields.status();
    FieldMap& f = fields.value();
    SuiteSpec suite;
    if (Status s = Head(f, suite); !s.ok()) return s;
    // A suite of mixes alone needs no models or targets: each mix names its own.
    const bool mixes_only = f.count("mixes") && !f.count("models") && !f.count("targets");
    // A suite of ONNX's node tests alone needs targets and no models.
    const bool conformance_only = f.count("conformance") && !f.count("models") && f.count("targets");
    if (!mixes_only) {
      if (!conformance_only) {
        if (Status s = Models(root, f, suite); !s.ok()) return s;
      }
      if (Status s = Targets(root, f, suite); !s.ok()) return s;
    }
    if (Status s = Mixes(f, suite); !s.ok()) return s;
    if (Status s = Conformance(f, suite); !s.ok()) return s;
    if (Status s = Scenarios(f, suite); !s.ok()) return s;
    if (Status s = Modes(f, suite); !s.ok()) return s;
    return suite;
  }

  // The suite's name, its store and its load settings.
  Status Head(FieldMap& f, SuiteSpec& suite) const {
    suite.path = path_;
    suite.name = std::filesystem::path(path_).stem().string();
    if (f.count("name")) {
      auto name = String(f["name"], "name");
      if (!name.ok()) return name.status();
      // Without `out:` it names the store's directory (results/NAME): never a path.
      if (Status s = CheckPathComponent(name.value(), "suite name"); !s.ok()) return At(f["name"], s.message());
      suite.name = name.value();
    }
    if (f.count("out")) {
      auto raw = String(f["out"], "out");
      if (!raw.ok()) return raw.status();
      auto out = ResolvePath(raw.value(), f["out"]);
      if (!out.ok()) return out.status();
      suite.out_dir = out.value();
    }
    if (f.count("settings")) {
      if (Status s = Settings(f["settings"], suite); !s.ok()) return s;
    }
    return Status::Ok();
  }

  // The models, each named once.
  Status Models(const YAML::Node& root, FieldMap& f, SuiteSpec& suite) const {
    if (!f.count("models")) return At(root, "the suite has no models: list");
    const YAML::Node& models = f["models"];
    if (Status s = List(models, "models", "[model.onnx]"); !s.ok()) return s;
    std::map<std::string, int> model_lines;
    for (const YAML::Node& entry : models) {
      auto model = Model(entry);
      if (!model.ok()) return model.status();
      const std::string& name = model.value().spec.name;
      if (model_lines.count(name)) {
        return At(entry, "model name '" + name + "' is used twice (first on line " +
                             std::to_string(model_lines[name]) + "); set another with name:");
      }
      model_lines[name] = model.value().line;
      suite.models.push_back(model.take());
      suite.model_files = files_;
    }
    return Status::Ok();
  }

  // The targets, each expanded with the suite's option lists and its own, each once.
  Status Targets(const YAML::Node& root, FieldMap& f, SuiteSpec& suite) const {
    std::vector<ParamList> suite_params;
    if (f.count("params")) {
      auto lists = ReadParamLists(*this, f["params"], "params");
      if (!lists.ok()) return lists.status();
      suite_params = lists.take();
    }
    if (!f.count("targets")) return At(root, "the suite has no targets: list");
    const YAML::Node& targets = f["targets"];
    if (Status s = List(targets, "targets", "[ort:cpu, litert:cpu]"); !s.ok()) return s;
    std::map<std::string, int> target_lines;
    for (const YAML::Node& entry : targets) {
      auto expanded = ExpandSuiteTarget(*this, entry, suite_params, options_.known_backends);
      if (!expanded.ok()) return expanded.status();
      for (Target& target : expanded.value()) {
        if (target_lines.count(target.text)) {
          return At(entry, "target '" + target.text + "' appears twice (also from line " +
                               std::to_string(target_lines[target.text]) +
                               "), after expanding option lists");
        }
        target_lines[target.text] = Line(entry);
        suite.targets.push_back(std::move(target));
      }
    }
    return Status::Ok();
  }

  // The scenarios (single-stream by default) and the modes among them, and the llm: settings.
  Status Scenarios(FieldMap& f, SuiteSpec& suite) const {
    if (f.count("scenarios")) {
      const YAML::Node& scenarios = f["scenarios"];
      if (Status s = List(scenarios, "scenarios", "[single-stream]"); !s.ok()) return s;
      for (const YAML::Node& item : scenarios) {
        auto name = String(item, "scenarios");
        if (!name.ok()) return name.status();
        std::string canonical = name.value();
        if (!IsSuiteMode(canonical)) {
          auto parsed = ParseScenario(name.value());
          if (!parsed.ok()) return At(item, parsed.error() + " (or a mode: accuracy, agree, drift)");
          canonical = parsed.value().Canonical();
        }
        if (std::find(suite.scenarios.begin(), suite.scenarios.end(), canonical) !=
            suite.scenarios.end()) {
          return At(item, "scenario '" + name.value() + "' is listed twice");
        }
        suite.scenarios.push_back(canonical);
      }
    } else {
      suite.scenarios = {"single-stream"};
    }
    if (f.count("llm")) {
      const auto& scenarios = suite.scenarios;
      if (std::none_of(scenarios.begin(), scenarios.end(),
                       [](const std::string& s) { return CaseKindOf(s) == CaseKind::kLanguageModel; })) {
        return At(f["llm"], "llm: settings given, but scenarios does not include llm; add it "
                            "or remove the llm: section");
      }
      if (Status s = Llm(f["llm"], suite.llm); !s.ok()) return s;
    }
    return Status::Ok();
  }

  // The mix files (docs/mixes.md), each read and checked as `edgebench run MIX.yaml` reads it.
  Status Mixes(FieldMap& f, SuiteSpec& suite) const {
    if (!f.count("mixes")) return Status::Ok();
    const YAML::Node& mixes = f["mixes"];
    if (options_.relocate) {
      return At(mixes, "mixes: a fleet does not copy a mix's models to its hosts yet; run the mix on each host "
                       "with edgebench run MIX.yaml");
    }
    if (Status s = List(mixes, "mixes", "[mixes/camera-and-assistant.yaml]"); !s.ok()) return s;
    std::map<std::string, int> names;
    for (const YAML::Node& entry : mixes) {
      auto raw = String(entry, "mixes");
      if (!raw.ok()) return raw.status();
      auto path = ResolvePath(raw.value(), entry);
      if (!path.ok()) return path.status();
      auto mix = ReadMixFile(path.value());
      if (!mix.ok()) return At(entry, "mixes: " + mix.error());
      if (names.count(mix.value().name)) {
        return At(entry, "mix '" + mix.value().name + "' is listed twice (first on line " +
                             std::to_string(names[mix.value().name]) + ")");
      }
      names[mix.value().name] = Line(entry);
      suite.mixes.push_back(mix.take());
    }
    return Status::Ok();
  }

  // `conformance:`: `edgebench conformance`'s flags, run on the suite's targets.
  Status Conformance(FieldMap& f, SuiteSpec& suite) const {
    if (!f.count("conformance")) return Status::Ok();
    const YAML::Node& node = f["conformance"];
    if (options_.relocate) {
      return At(node, "conformance: a fleet does not copy ONNX's node tests to its hosts yet; run edgebench "
                      "conformance on each host and report the stores together");
    }
    SuiteConformance conformance;
    conformance.line = Line(node);
    if (!node.IsNull()) {
      auto fields = Fields(node, "conformance", kConformanceKeys);
      if (!fields.ok()) return fields.status();
      auto& c = fields.value();
      if (c.count("cases")) {
        auto raw = String(c["cases"], "conformance: cases");
        if (!raw.ok()) return raw.status();
        auto path = ResolvePath(raw.value(), c["cases"]);
        if (!path.ok()) return path.status();
        conformance.cases = path.take();
      }
      if (c.count("ops")) {
        auto ops = String(c["ops"], "conformance: ops");
        if (!ops.ok()) return ops.status();
        conformance.ops = ops.take();
      }
      if (c.count("timeout")) {
        auto timeout = Integer(c["timeout"], "conformance: timeout", 1);
        if (!timeout.ok()) return timeout.status();
        conformance.timeout_ms = timeout.value();
      }
    }
    suite.conformance = conformance;
    return Status::Ok();
  }

  // The block of each mode the scenarios list.
  Status Modes(FieldMap& f, SuiteSpec& suite) const {
    for (const std::string mode : kSuiteModeNames) {
      const bool listed = std::find(suite.scenarios.begin(), suite.scenarios.end(), mode) != suite.scenarios.end();
      if (f.count(mode) && !listed) {
        return At(f[mode], mode + ": flags given, but scenarios does not include " + mode + "; add it or remove the " +
                               mode + ": section");
      }
      if (!listed) continue;
      auto block = ReadSuiteModeBlock(*this, f.count(mode) ? f[mode] : YAML::Node(), f["scenarios"], mode);
      if (!block.ok()) return block.status();
      suite.modes[mode] = block.take();
    }
    return Status::Ok();
  }

  std::string base_dir_;
  const SuiteReadOptions& options_;
  mutable std::vector<std::string> files_;  // every file the models read (Read())
};

}  // namespace


Result<SuiteSpec> ParseSuite(const std::string& yaml_text, const std::string& path_for_messages,
                             const std::string& base_dir, const SuiteReadOptions& options) {
  return SuiteParser(path_for_messages, base_dir, options).Parse(yaml_text);
}

Result<SuiteSpec> ReadSuiteFile(const std::string& path, const SuiteReadOptions& options) {
  auto text = ReadBoundedTextFile(path, kMaxSuiteFileBytes, "suite file");
  if (!text.ok()) return text.status();
  return ParseSuite(text.value(), path, std::filesystem::path(path).parent_path().string(), options);
}

}  // namespace edgebench
