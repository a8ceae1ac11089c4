// `edgebench compare BASE NEW`: whether NEW's runs are slower or faster than BASE's, case by case,
// with a test rather than a guess (report/compare.h, docs/compare.md). Exit status: 0, or 1 with
// --fail-if-slower when a case is slower by more than its bound; 2 for usage errors and stores
// that cannot be compared.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include "cli/command_support.h"
#include "cli/commands.h"
#include "core/strings.h"
#include "report/compare.h"
#include "report/compare_gate.h"
#include "report/conformance_tables.h"
#include "report/store.h"

namespace edgebench {
namespace {

struct CompareCommandOptions {
  std::string base;
  std::string candidate;
  std::string format = "text";
  std::string noise_threshold = "1%";
  std::string fail_if_slower;
  bool fail_if_slower_given = false;  // without it, never exit 1
  std::string by;              // empty: case keys
  int resamples = 2000;
  uint64_t seed = 0;
  bool ignore_environment = false;
  bool ignore_runtime_version = false;
};

// "1%", "0.5%" or a fraction "0.01". The error names the flag.
Result<double> ParseRelative(const std::string& flag, const std::string& text) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  const std::optional<double> value = ParseFiniteNumber(number);
  if (!value || !(*value >= 0)) {
    return Status::Error(flag + ": '" + text + "' is not a relative change; write e.g. 1% or 0.01");
  }
  return percent ? *value / 100 : *value;
}

// DIR holding results.jsonl, or a .jsonl file; its records, with the reader's warnings on stderr.
// An error says what is wrong with the store and what to do.
// With `measured_required` false (NEW under --fail-if-slower), a store whose every case crashed
// or failed is read anyway: that is the regression the gate exists to catch, not a usage error.
Result<std::vector<Record>> LoadStore(const std::string& side, const std::string& path, bool measured_required = true) {
  auto located = StoreResultsPath(path);
  if (!located.ok()) return Status::Error(side + ": " + located.error());
  const std::string file = located.take();
  auto contents = ReadStore(file);
  if (!contents.ok()) return Status::Error(side + ": " + contents.error());
  for (const std::string& warning : contents.value().warnings) {
    std::cerr << "edgebench compare: " << side << ": " << warning << "\n";
  }
  std::vector<Record> records = std::move(contents.value().records);
  if (records.empty()) return Status::Error(side + " '" + file + "' holds no records");
  std::map<std::string, int> statuses;
  for (const Record& r : records) ++statuses[CaseStatusName(r.status)];
  if (measured_required && !statuses.count(CaseStatusName(CaseStatus::kOk))) {
    std::string list;
    for (const auto& [status, count] : statuses) list += (list.empty() ? "" : ", ") + std::to_string(count) + " " + status;
    return Status::Error(side + " '" + file + "' has no measured record (" + list + "): nothing to compare");
  }
  return records;
}

// Whether a store argument names conformance cells rather than measured records: a
// conformance.jsonl, or a directory holding one and no results.jsonl.
bool IsConformanceStore(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return std::filesystem::exists(std::filesystem::path(path) / "conformance.jsonl", ec) &&
           !std::filesystem::exists(std::filesystem::path(path) / "results.jsonl", ec);
  }
  return std::filesystem::path(path).filename() == "conformance.jsonl";
}

// Two conformance runs: which cases broke, which were fixed, per target (report/conformance_tables.h).
int CompareConformance(const CompareCommandOptions& command) {
  std::vector<ConformanceColumn> sides[2];
  const std::string names[2] = {"BASE", "NEW"};
  const std::string paths[2] = {command.base, command.candidate};
  for (int i = 0; i < 2; ++i) {
    auto located = ConformanceStorePath(paths[i]);
    auto store = located.ok() ? ReadConformanceStore(located.value()) : Result<ConformanceStore>(located.status());
    if (!store.ok()) {
      std::cerr << "edgebench compare: " << names[i] << ": " << store.error() << "\n";
      return 2;
    }
    for (const std::string& warning : store.value().warnings) {
      std::cerr << "edgebench compare: " << names[i] << ": " << warning << "\n";
    }
    sides[i] = ConformanceColumns(store.value().cells);
    if (sides[i].empty()) {
      std::cerr << "edgebench compare: " << names[i] << " '" << paths[i] << "' holds no conformance cell\n";
      return 2;
    }
  }
  const ConformanceDiff diff = DiffConformance(sides[0], sides[1]);
  if (command.format == "json") {
    std::cout << ConformanceDiffToJson(diff).dump(2) << "\n";
  } else {
    std::cout << FormatConformanceDiff(diff, {command.format == "markdown", {}});
  }
  if (!command.fail_if_slower_given) return 0;
  // --fail-if-slower on conformance: a case that broke fails the gate.
  int broke = 0;
  for (const ConformanceChange& change : diff.changes) broke += change.Kind() == "broke" ? 1 : 0;
  if (broke) std::cerr << "edgebench compare: " << broke << " conformance cases broke\n";
  return broke ? 1 : 0;
}

int RunCompare(const CompareCommandOptions& command) {
  const bool base_conformance = IsConformanceStore(command.base);
  if (base_conformance != IsConformanceStore(command.candidate)) {
    std::cerr << "edgebench compare: one of BASE and NEW holds conformance cells and the other measured records; "
                 "compare two conformance runs (their conformance.jsonl) or two measured stores\n";
    return 2;
  }
  if (base_conformance) return CompareConformance(command);
  CompareOptions options;
  auto threshold = ParseRelative("--noise-threshold", command.noise_threshold);
  if (!threshold.ok()) {
    std::cerr << "edgebench compare: " << threshold.error() << "\n";
    return 2;
  }
  options.noise_threshold = threshold.value();
  std::optional<double> fail_if_slower;
  if (command.fail_if_slower_given) {
    auto bound = ParseGateThreshold("--fail-if-slower", command.fail_if_slower);
    if (!bound.ok()) {
      std::cerr << "edgebench compare: " << bound.error() << "\n";
      return 2;
    }
    fail_if_slower = bound.value();
  }
  if (!command.by.empty()) {
    auto fields = ParseMatchFields(command.by);
    if (!fields.ok()) {
      std::cerr << "edgebench compare: " << fields.error() << "\n";
      return 2;
    }
    options.match_by = fields.take();
  }
  options.resamples = command.resamples;
  options.seed = command.seed;
  options.ignore_environment = command.ignore_environment;
  options.ignore_runtime_version = command.ignore_runtime_version;
  auto base = LoadStore("BASE", command.base);
  if (!base.ok()) {
    std::cerr << "edgebench compare: " << base.error() << "\n";
    return 2;
  }
  auto candidate = LoadStore("NEW", command.candidate, /*measured_required=*/!fail_if_slower);
  if (!candidate.ok()) {
    std::cerr << "edgebench compare: " << candidate.error() << "\n";
    return 2;
  }
  auto comparison = CompareRecords(base.value(), candidate.value(), options);
  if (!comparison.ok()) {
    std::cerr << "edgebench compare: " << comparison.error() << "\n";
    return 2;
  }
  if (command.format == "json") {
    std::cout << ComparisonToJson(comparison.value()).dump(2) << "\n";
  } else if (command.format == "markdown") {
    std::cout << ComparisonMarkdown(comparison.value());
  } else {
    std::cout << ComparisonText(comparison.value());
  }
  if (!fail_if_slower) return 0;
  const std::vector<std::string> failures =
      GateFailures(comparison.value(), *fail_if_slower, command.fail_if_slower);
  for (const std::string& failure : failures) std::cerr << "edgebench compare: " << failure << "\n";
  return failures.empty() ? 0 : 1;
}

}  // namespace

void AddCompareCommand(CLI::App& app, CommandContext& context) {
  CLI::App* cmd = app.add_subcommand(
      "compare", "whether NEW's runs are slower or faster than BASE's, case by case, with a significance test");
  auto options = std::make_shared<CompareCommandOptions>();
  cmd->add_option("base", options->base, "the store measured before (a directory with results.jsonl, or a .jsonl); or a conformance run's "
                  "conformance.jsonl (or its directory): then which ONNX cases broke or were fixed")
      ->required();
  cmd->add_option("new", options->candidate, "the store measured after")->required();
  cmd->add_option("--format", options->format, "text, markdown (for a pull request) or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}))
      ->capture_default_str();
  cmd->add_option("--noise-threshold", options->noise_threshold,
                  "changes whose 95% interval reaches inside +-this are \"no change\" (1% or 0.01)")
      ->capture_default_str();
  CLI::Option* gate = cmd->add_option(
      "--fail-if-slower", options->fail_if_slower,
      "exit 1 when a case is judged slower and its change's interval lies above this percentage (e.g. 5%), when a "
      "case BASE measured was not measured in NEW, or when no case could be compared");
  cmd->add_option("--by", options->by,
                  "pair cases by these record fields instead of the case key (model, variant, artifact, backend, "
                  "device, target, scenario, host), to compare a deliberate change of target options or settings; "
                  "stores that hold several hosts (a fleet's) pair each host's records only with the same host's")
      ->check(NonEmpty());
  cmd->add_option("--resamples", options->resamples, "bootstrap resamples per interval")
      ->check(CLI::Range(100, 1000000))
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "the bootstrap's seed")->capture_default_str();
  cmd->add_flag("--ignore-environment", options->ignore_environment,
                "compare runs from different machines (host, CPU, cores, memory) anyway; the difference is noted");
  cmd->add_flag("--ignore-runtime-version", options->ignore_runtime_version,
                "compare runs of different runtime versions anyway (an upgrade); the difference is noted");
  cmd->callback([&context, options, gate] {
    options->fail_if_slower_given = gate->count() > 0;
    context.exit_code = RunCompare(*options);
  });
}

}  // namespace edgebench
