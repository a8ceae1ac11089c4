#include "cli/token_drift_command.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "core/strings.h"
#include "load/settings.h"
#include "report/store.h"
#include "runner/token_logits_case.h"
#include "runner/worker_process.h"

namespace edgebench {
namespace {

constexpr char kRandomWeightsNote[] = "random weights: drift only, no task meaning";

// A temporary directory for the reference's logits, removed with everything in it.
class ScratchDirectory {
 public:
  static Result<ScratchDirectory> Create() {
    std::error_code ec;
    std::string pattern = (std::filesystem::temp_directory_path(ec) / "edgebench-token-drift-XXXXXX").string();
    if (ec || ::mkdtemp(pattern.data()) == nullptr) {
      return Status::Error("cannot create a temporary directory for the reference's logits under " +
                           std::filesystem::temp_directory_path(ec).string() + " (set TMPDIR elsewhere)");
    }
    ScratchDirectory d;
    d.path_ = pattern;
    return d;
  }
  ScratchDirectory() = default;
  ScratchDirectory(ScratchDirectory&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  ScratchDirectory& operator=(ScratchDirectory&&) = delete;
  ~ScratchDirectory() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct PromptSet {
  std::vector<std::string> texts;  // empty for random sequences
  std::string description;         // for people, before the token counts are known
};

Result<PromptSet> LoadPrompts(const TokenDriftOptions& o) {
  PromptSet set;
  if (o.random_prompts > 0) {
    set.description = std::to_string(o.random_prompts) + " seeded random token sequences of " +
                      std::to_string(o.max_tokens) + " tokens (seed " + std::to_string(o.seed) + ")";
    return set;
  }
  if (o.prompts_file.empty()) {
    set.texts = DefaultDriftPrompts();
    set.description = std::to_string(set.texts.size()) + " built-in English sentences, up to " +
                      std::to_string(o.max_tokens) + " tokens each";
    return set;
  }
  std::ifstream in(o.prompts_file);
  if (!in) return Status::Error("cannot read the prompts file '" + o.prompts_file + "'");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) set.texts.push_back(line);
  }
  if (set.texts.empty()) {
    return Status::Error("the prompts file '" + o.prompts_file + "' has no prompt (one per line, empty lines skipped)");
  }
  set.description = std::to_string(set.texts.size()) + " prompts from " + o.prompts_file + ", up to " +
                    std::to_string(o.max_tokens) + " tokens each";
  return set;
}

// A worker's answer, or a failed result saying how the worker ended.
TokenLogitsResult RunInWorker(const TokenLogitsRequest& request, const TokenDriftOptions& o,
                              const CommandContext& context) {
  WorkerOutcome outcome = RunWorker(context.executable, TokenLogitsRequestToJson(request), o.timeout_ms,
                                    o.worker_args, {}, o.case_memory_mb ? o.case_memory_mb : DefaultCaseMemoryMb());
  TokenLogitsResult failed;
  failed.model = request.model;
  failed.effective_target = request.target;
  return AnswerOf(outcome, TokenLogitsResultFromJson, failed);
}

std::string Percent(const ValueWithUncertainty& v, const char* format) {
  return FormatNumber(format, 100 * v.value) + " ± " + FormatNumber(format, 100 * v.uncertainty);
}

double KldAt(const TokenDriftSummary& s, double percent) {
  for (const KldPercentile& p : s.kld_percentiles) {
    if (p.percent == percent) return p.kld;
  }
  return 0;
}

struct Row {
  std::string label;
  TokenLogitsResult result;
};

void PrintTable(const std::vector<Row>& rows) {
  const std::vector<std::string> header = {"candidate", "positions", "mean KLD", "max KLD", "p99 KLD",
                                           "same top %", "RMS Δp %"};
  std::vector<std::vector<std::string>> cells = {header};
  std::vector<std::string> failures;
  for (const Row& row : rows) {
    const TokenLogitsResult& r = row.result;
    if (r.status != "ok" || !r.drift) {
      cells.push_back({row.label, r.status, "-", "-", "-", "-", "-"});
      failures.push_back(row.label + ": " + r.status + " at " + r.stage + ": " + r.error);
      continue;
    }
    const TokenDriftSummary& s = *r.drift;
    cells.push_back({row.label, std::to_string(s.positions),
                     FormatNumber("%.6f", s.mean_kld.value) + " ± " + FormatNumber("%.6f", s.mean_kld.uncertainty),
                     FormatNumber("%.6f", s.max_kld), FormatNumber("%.6f", KldAt(s, 99.0)),
                     // Δp of a near-uniform distribution (a random-weight model's) is tiny:
                     // significant digits, not decimals.
                     Percent(s.same_top, "%.2f"), Percent(s.rms_delta_p, "%.3g")});
  }
  // Widths in characters, not bytes: "±" and "Δ" are two bytes each in UTF-8.
  auto width = [](const std::string& text) {
    size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80;
    return n;
  };
  std::vector<size_t> widths(header.size(), 0);
  for (const auto& line : cells) {
    for (size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], width(line[i]));
  }
  for (const auto& line : cells) {
    std::string text;
    for (size_t i = 0; i < line.size(); ++i) {
      const std::string pad(widths[i] - width(line[i]), ' ');
      text += i == 0 ? line[i] + pad : "  " + pad + line[i];
    }
    std::cout << text << "\n";
  }
  for (const std::string& f : failures) std::cout << f << "\n";
}

nlohmann::json RowJson(const Row& row, const TokenLogitsResult& reference, const PromptSet& prompts,
                       const TokenDriftOptions& o) {
  const TokenLogitsResult& r = row.result;
  nlohmann::json j = {{"kind", "token_drift"},
                      {"definitions", "llama-perplexity --kl-divergence"},
                      {"reference", reference.model},
                      {"reference_description", reference.model_description},
                      {"candidate", r.model},
                      {"candidate_description", r.model_description},
                      {"is_reference", row.label == "(reference itself)"},
                      {"target", r.effective_target},
                      {"prompts", prompts.description},
                      {"prompt_source", o.random_prompts > 0          ? "random"
                                        : o.prompts_file.empty() ? "built-in"
                                                                 : "file"},
                      {"max_tokens", o.max_tokens},
                      {"seed", o.seed},
                      {"status", r.status},
                      {"stage", r.stage},
                      {"error", r.error},
                      {"per_prompt", TokenLogitsResultToJson(r).at("prompts")}};
  if (r.drift) j["drift"] = TokenDriftSummaryToJson(*r.drift);
  if (reference.random_weights || r.random_weights) j["note"] = kRandomWeightsNote;
  return j;
}

}  // namespace

const std::vector<std::string>& DefaultDriftPrompts() {
  static const std::vector<std::string> prompts = {
      "The quick brown fox jumps over the lazy dog while the farmer watches from the porch.",
      "In 1969, two astronauts walked on the Moon and brought back 21.5 kilograms of rock.",
      "To reset the router, hold the button for ten seconds, then wait until the light turns green.",
      "She asked whether the train to Lisbon left at seven or at half past eight, and nobody knew.",
      "Photosynthesis turns carbon dioxide and water into sugar, using the energy of sunlight.",
      "def add(a, b):\n    return a + b  # a small Python function",
      "Dear committee, thank you for considering my application; I look forward to hearing from you.",
      "Rain is expected tomorrow morning, with temperatures between 12 and 17 degrees Celsius.",
  };
  return prompts;
}

int RunTokenDrift(const TokenDriftOptions& o, CommandContext& context) {
  auto usage = [](const std::string& message) {
    std::cerr << "edgebench drift: " << message << "\n";
    return 2;
  };
  std::error_code ec;
  if (o.reference.empty() || !std::filesystem::is_regular_file(o.reference, ec)) {
    return usage("reference model '" + o.reference + "' does not exist or is not a file");
  }
  if (o.candidates.empty()) return usage("give at least one candidate GGUF to compare with the reference");
  for (const std::string& c : o.candidates) {
    if (!std::filesystem::is_regular_file(c, ec)) return usage("candidate model '" + c + "' does not exist or is not a file");
  }
  if (o.format != "table" && o.format != "json") return usage("--format '" + o.format + "': expected table or json");
  if (o.max_tokens < 2) return usage("--max-tokens must be at least 2: each position is scored against the next token");
  if (o.random_prompts < 0) return usage("the number of random prompts must be 0 or more");
  if (o.random_prompts > 0 && !o.prompts_file.empty()) {
    return usage("give --prompts FILE or random token sequences, not both");
  }
  if (o.timeout_ms < 1) return usage("--timeout must be at least 1 ms");
  auto prompts = LoadPrompts(o);
  if (!prompts.ok()) return usage(prompts.error());
  std::optional<std::string> store_path;
  if (!o.out_store.empty()) {
    std::filesystem::create_directories(o.out_store, ec);
    if (ec) return usage("cannot create the store directory '" + o.out_store + "': " + ec.message());
    store_path = (std::filesystem::path(o.out_store) / "token_drift.jsonl").string();
  }
  auto scratch = ScratchDirectory::Create();
  if (!scratch.ok()) {
    std::cerr << "edgebench drift: " << scratch.error() << "\n";
    return 1;
  }

  TokenLogitsRequest request;
  request.role = "reference";
  request.model = o.reference;
  request.target = o.target;
  request.logits_file = scratch.value().path() + "/reference.logits";
  request.prompt_texts = prompts.value().texts;
  request.random_prompts = o.random_prompts;
  request.max_tokens = o.max_tokens;
  request.seed = o.seed;
  const TokenLogitsResult reference = RunInWorker(request, o, context);
  if (reference.status != "ok") {
    std::cerr << "edgebench drift: the reference " << o.reference << " " << reference.status << " at "
              << reference.stage << ": " << reference.error << "\n";
    return 1;
  }

  std::vector<Row> rows;
  request.role = "candidate";
  std::vector<std::pair<std::string, std::string>> models;  // label, path
  if (o.reference_row) models.push_back({"(reference itself)", o.reference});
  for (const std::string& c : o.candidates) models.push_back({std::filesystem::path(c).filename().string(), c});
  for (const auto& [label, path] : models) {
    request.model = path;
    rows.push_back({label, RunInWorker(request, o, context)});
  }

  int64_t positions = 0;
  for (int64_t n : reference.prompt_tokens) positions += n - 1;
  bool random_weights = reference.random_weights;
  for (const Row& row : rows) random_weights = random_weights || row.result.random_weights;
  std::vector<std::string> notes;
  for (const Row& row : rows) {
    if (row.label == "(reference itself)" && row.result.drift &&
        (row.result.drift->max_kld != 0 || row.result.drift->same_top.value != 1)) {
      notes.push_back("the reference against itself gives a maximum KLD of " +
                      FormatNumber("%.3g", row.result.drift->max_kld) +
                      ", not 0: its evaluation is not repeatable here, so drift of that size is noise");
    }
  }
  if (reference.truncated_prompts > 0) {
    notes.push_back(std::to_string(reference.truncated_prompts) + " prompts were cut to " +
                    std::to_string(o.max_tokens) + " tokens (--max-tokens)");
  }

  if (o.format == "table") {
    std::cout << "Per-token drift from " << o.reference << " (" << reference.model_description << ") on "
              << reference.effective_target << "\n"
              << "Prompts: " << prompts.value().description << "; " << positions << " positions scored\n"
              << "Definitions: llama-perplexity --kl-divergence (KLD in nats; Δp on the next token of the text)\n";
    if (random_weights) std::cout << kRandomWeightsNote << "\n";
    std::cout << "\n";
    PrintTable(rows);
    for (const std::string& n : notes) std::cout << "note: " << n << "\n";
  }
  int exit_code = 0;
  for (const Row& row : rows) {
    nlohmann::json line = RowJson(row, reference, prompts.value(), o);
    if (!notes.empty()) line["notes"] = notes;
    if (o.format == "json") std::cout << line.dump() << "\n";
    if (store_path) {
      std::string warning;
      if (Status s = AppendJsonLine(*store_path, line, &warning); !s.ok()) {
        std::cerr << "edgebench drift: " << s.message() << "\n";
        exit_code = 1;
      }
      if (!warning.empty()) std::cerr << "edgebench drift: " << warning << "\n";
    }
    if (row.result.status != "ok") exit_code = 1;
  }
  return exit_code;
}

}  // namespace edgebench
