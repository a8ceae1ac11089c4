#include "cli/token_drift_command.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <iostream>
#include <optional>

#include "core/strings.h"
#include "load/settings.h"
#include "report/store.h"
#include "record/record_token_drift.h"
#include "runner/resume.h"
#include "runner/run_plan.h"
#include "runner/token_drift_mode.h"

namespace edgebench {
namespace {

constexpr char kRandomWeightsNote[] = "random weights: drift only, no task meaning";

std::string Percent(const ValueWithUncertainty& v, const char* format) {
  return FormatNumber(format, 100 * v.value) + " ± " + FormatNumber(format, 100 * v.uncertainty);
}

double KldAt(const TokenDriftSummary& s, double percent) {
  for (const KldPercentile& p : s.kld_percentiles) {
    if (p.percent == percent) return p.kld;
  }
  return 0;
}

// A side's row: its label and its record (this run's, or the store's when --resume skipped it).
struct Row {
  std::string label;
  Record record;
};

void PrintTable(const std::vector<Row>& rows) {
  const std::vector<std::string> header = {"candidate", "positions", "mean KLD", "max KLD", "p99 KLD",
                                           "same top %", "RMS Δp %"};
  std::vector<std::vector<std::string>> cells = {header};
  std::vector<std::string> failures;
  for (const Row& row : rows) {
    const Record& r = row.record;
    if (r.status != CaseStatus::kOk || !r.token_drift || !r.token_drift->drift) {
      cells.push_back({row.label, CaseStatusName(r.status), "-", "-", "-", "-", "-"});
      failures.push_back(row.label + ": " + CaseStatusName(r.status) + " at " + r.failed_stage + ": " + r.error);
      continue;
    }
    const TokenDriftSummary& s = *r.token_drift->drift;
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

// The JSON line of a side (--format json, DIR/token_drift.jsonl), as before records held it.
nlohmann::json RowJson(const Row& row, const TokenDriftOptions& o) {
  const Record& r = row.record;
  const TokenDriftRecord d = r.token_drift.value_or(TokenDriftRecord{});
  nlohmann::json j = {{"kind", "token_drift"},
                      {"definitions", "llama-perplexity --kl-divergence"},
                      {"reference", o.reference},
                      {"reference_description", d.reference_description},
                      {"candidate", r.artifact},
                      {"candidate_description", d.description},
                      {"is_reference", d.is_reference},
                      {"target", r.effective_target},
                      {"prompts", d.prompts},
                      {"prompt_source", d.prompt_source},
                      {"max_tokens", o.max_tokens},
                      {"seed", o.seed},
                      {"status", CaseStatusName(r.status)},
                      {"stage", r.failed_stage},
                      {"error", r.error},
                      {"record_id", r.id},
                      {"per_prompt", PromptDriftsToJson(d.per_prompt)}};
  if (d.drift) j["drift"] = TokenDriftSummaryToJson(*d.drift);
  if (d.random_weights) j["note"] = kRandomWeightsNote;
  return j;
}

}  // namespace

int RunTokenDrift(const TokenDriftOptions& o, CommandContext& context) {
  auto usage = [](const std::string& message) {
    std::cerr << "edgebench drift: " << message << "\n";
    return 2;
  };
  auto request = TokenDriftRequestFrom(o, context.executable);
  if (!request.ok()) return usage(request.error());
  std::error_code ec;
  std::optional<std::string> store_path;
  if (!o.out_store.empty()) {
    std::filesystem::create_directories(o.out_store, ec);
    if (ec) return usage("cannot create the store directory '" + o.out_store + "': " + ec.message());
    store_path = (std::filesystem::path(o.out_store) / "token_drift.jsonl").string();
  }
  const std::string& prompts_description = request.value().prompts_description;
  auto cases = PlanTokenDriftCases(request.value(), context.registry);
  if (!cases.ok()) {
    std::cerr << "edgebench drift: " << cases.error() << "\n";
    return 1;
  }
  std::optional<ResultStore> store;
  if (!o.out_store.empty()) {
    auto opened = ResultStore::Open(o.out_store);
    if (!opened.ok()) return usage(opened.error());
    store = opened.take();
  }
  RunPlanOptions options;
  options.executable = context.executable;
  options.worker_args = o.worker_args;
  options.done_keys = o.done_keys;
  options.cooldown = o.cooldown;
  options.sysfs_root = o.monitor.sysfs_root;
  std::map<std::string, Record> by_key;
  int stored = 0;
  const RunPlanTotals totals = RunPlanIntoStore(cases.value(), context.registry, options, store ? &*store : nullptr,
                                                "drift", [&](const Record& r) { by_key[r.case_key] = r; }, stored);
  if (store && totals.resumed > 0) AddStoredRecords(store->path(), o.done_keys, by_key);
  int exit_code = 0;
  if (!totals.stopped.empty()) {
    std::cerr << "edgebench drift: " << totals.stopped << "\n";
    exit_code = 1;
  }
  if (totals.store_errors > 0 || totals.not_measured > 0) exit_code = 1;
  if (totals.interrupted_by != 0) {
    std::cerr << "edgebench drift: interrupted by signal " << totals.interrupted_by << "; every record so far is "
              << "stored; --resume runs the rest\n";
    return 128 + totals.interrupted_by;
  }
  // The reference's run first, then its row against itself and the candidates'.
  std::optional<Record> reference;
  std::vector<Row> rows;
  for (const PlannedCase& c : cases.value()) {
    auto it = by_key.find(c.spec.case_key);
    if (it == by_key.end()) continue;
    const Record& r = it->second;
    if (c.spec.variant == "logits") {
      reference = r;
      continue;
    }
    rows.push_back({c.spec.variant == "itself" ? "(reference itself)" : std::filesystem::path(r.artifact).filename().string(), r});
  }
  if (!reference || reference->status != CaseStatus::kOk || !reference->token_drift) return exit_code ? exit_code : 1;
  const TokenDriftRecord& ref = *reference->token_drift;
  int64_t positions = 0;
  for (int64_t n : ref.prompt_tokens) positions += n - 1;
  bool random_weights = ref.random_weights;
  for (const Row& row : rows) random_weights = random_weights || (row.record.token_drift && row.record.token_drift->random_weights);
  std::vector<std::string> notes;
  for (const Row& row : rows) {
    const auto& d = row.record.token_drift;
    if (d && d->is_reference && d->drift && (d->drift->max_kld != 0 || d->drift->same_top.value != 1)) {
      notes.push_back("the reference against itself gives a maximum KLD of " + FormatNumber("%.3g", d->drift->max_kld) +
                      ", not 0: its evaluation is not repeatable here, so drift of that size is noise");
    }
  }
  if (ref.truncated_prompts > 0) {
    notes.push_back(std::to_string(ref.truncated_prompts) + " prompts were cut to " + std::to_string(o.max_tokens) +
                    " tokens (--max-tokens)");
  }
  if (o.format == "table") {
    std::cout << "Per-token drift from " << o.reference << " (" << ref.description << ") on "
              << reference->effective_target << "\n";
    if (o.candidate_target) {
      // The candidates ran elsewhere (--candidate-target): the drift includes the device's own.
      for (const Row& row : rows) {
        if (row.record.token_drift && !row.record.token_drift->is_reference) {
          std::cout << "Candidates on " << row.record.effective_target << "\n";
          break;
        }
      }
    }
    std::cout << "Prompts: " << prompts_description << "; " << positions << " positions scored\n"
              << "Definitions: llama-perplexity --kl-divergence (KLD in nats; Δp on the next token of the text)\n";
    if (random_weights) std::cout << kRandomWeightsNote << "\n";
    std::cout << "\n";
    PrintTable(rows);
    for (const std::string& n : notes) std::cout << "note: " << n << "\n";
  }
  for (const Row& row : rows) {
    nlohmann::json line = RowJson(row, o);
    if (!notes.empty()) line["notes"] = notes;
    if (o.format == "json") std::cout << line.dump() << "\n";
    if (store_path && !o.done_keys.count(row.record.case_key)) {
      // The lines of earlier versions, beside the records, for readers of token_drift.jsonl.
      std::string warning;
      if (Status s = AppendJsonLine(*store_path, line, &warning); !s.ok()) {
        std::cerr << "edgebench drift: " << s.message() << "\n";
        exit_code = 1;
      }
      if (!warning.empty()) std::cerr << "edgebench drift: " << warning << "\n";
    }
  }
  return exit_code;
}

}  // namespace edgebench
