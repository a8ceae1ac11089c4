#include "report/llm_printer.h"

#include <cstdio>
#include <iomanip>

namespace edgebench {
namespace {

std::string Fixed(double v, const char* format = "%.2f") {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, v);
  return buffer;
}

std::string MsOrDash(const std::optional<int64_t>& ns) {
  return ns ? Fixed(static_cast<double>(*ns) / 1e6) : "-";
}

class LlmTablePrinter : public RecordPrinter {
 public:
  LlmTablePrinter(std::ostream& out, char style) : out_(out), style_(style) {}
  void Begin() override {
    auto header = LlmTableHeader();
    if (style_ != 't') header.push_back("why");
    Row(header);
    if (style_ == 'm') Row(std::vector<std::string>(header.size(), "---"));
  }
  void Print(const Record& r) override {
    auto row = LlmTableRow(r);
    if (style_ != 't') row.push_back(OneLineWhy(r));
    Row(row);
    if (style_ == 't') {
      if (const std::string why = OneLineWhy(r); !why.empty()) out_ << "    ^ " << why << "\n";
    }
    out_.flush();
  }

 private:
  void Row(const std::vector<std::string>& cells) {
    static constexpr int kWidths[] = {16, 30, 7, 5, 5, 8, 10, 10, 10, 10, 11, 11, 8, 9, 8};
    if (style_ == 'm') out_ << "|";
    for (size_t i = 0; i < cells.size(); ++i) {
      std::string c = cells[i];
      if (style_ == 't') {
        const int w = i < std::size(kWidths) ? kWidths[i] : 10;
        if (static_cast<int>(c.size()) > w) c = c.substr(0, static_cast<size_t>(w - 1)) + "~";
        out_ << std::left << std::setw(w) << c << (i + 1 < cells.size() ? " " : "");
      } else if (style_ == 'm') {
        out_ << " " << c << " |";
      } else {
        out_ << CsvCell(c) << (i + 1 < cells.size() ? "," : "");
      }
    }
    out_ << "\n";
  }
  std::ostream& out_;
  char style_;  // 't' table, 'm' markdown, 'c' csv
};

}  // namespace

std::vector<std::string> LlmTableHeader() {
  return {"model", "target", "prompt", "gen", "seqs", "reqs", "TTFT p50", "TTFT p90", "TPOT mean",
          "TPOT p99", "prefill t/s", "decode t/s", "KV MiB", "peak MiB", "verdict"};
}

std::vector<std::string> LlmTableRow(const Record& r) {
  const bool ok = r.status == CaseStatus::kOk && r.llm;
  const LlmSettings settings = r.llm ? r.llm->settings : LlmSettings{};
  std::vector<std::string> row = {r.model, r.requested_target,
                                  std::to_string(r.llm && r.llm->prompt_tokens_run ? r.llm->prompt_tokens_run
                                                                                    : settings.prompt_tokens),
                                  std::to_string(settings.gen_tokens), std::to_string(settings.sequences)};
  if (!ok) {
    row.push_back(CaseStatusName(r.status));
    for (int i = 0; i < 8; ++i) row.push_back("-");
  } else {
    const LlmSummary& s = r.llm->summary;
    row.push_back(std::to_string(s.requests));
    row.push_back(MsOrDash(s.ttft.Percentile(0.50)));
    row.push_back(MsOrDash(s.ttft.Percentile(0.90)));
    row.push_back(s.tpot.count ? Fixed(s.tpot.mean_ns / 1e6) : "-");
    row.push_back(MsOrDash(s.tpot.Percentile(0.99)));
    row.push_back(Fixed(s.prefill_tokens_per_s, "%.1f"));
    row.push_back(s.tpot.count ? Fixed(s.decode_tokens_per_s, "%.1f") : "-");
    row.push_back(Fixed(static_cast<double>(r.llm->session.kv_cache_bytes) / (1 << 20), "%.1f"));
    row.push_back(Fixed(static_cast<double>(r.llm->rss_peak_bytes) / (1 << 20), "%.0f"));
  }
  row.push_back(r.valid ? "VALID" : "INVALID");
  return row;
}

Result<std::unique_ptr<RecordPrinter>> MakeLlmPrinter(const std::string& format, std::ostream& out) {
  if (format == "table") return std::unique_ptr<RecordPrinter>(new LlmTablePrinter(out, 't'));
  if (format == "markdown") return std::unique_ptr<RecordPrinter>(new LlmTablePrinter(out, 'm'));
  if (format == "csv") return std::unique_ptr<RecordPrinter>(new LlmTablePrinter(out, 'c'));
  if (format == "json" || format == "jsonl") return MakePrinter(format, out);
  return Status::Error("unknown output format '" + format + "'; use one of: table, markdown, csv, json, jsonl");
}

}  // namespace edgebench
