#include "report/printers.h"

#include <cstdio>
#include <iomanip>
#include <vector>

namespace edgebench {
namespace {

std::string Ms(double ns) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", ns / 1e6);
  return buffer;
}

std::string MsOrDash(const std::optional<int64_t>& ns) {
  return ns ? Ms(static_cast<double>(*ns)) : "-";
}

std::string Ran(const Record& r) {
  if (!r.placement.known) return "?";
  std::string ran;
  for (const auto& [device, nodes] : r.placement.nodes_by_device) {
    ran += (ran.empty() ? "" : "+") + device + ":" + std::to_string(nodes);
  }
  return ran.empty() ? "?" : ran;
}

std::string Verdict(const Record& r) {
  if (r.valid) return "VALID";
  return "INVALID";
}

}  // namespace

std::string CsvCell(const std::string& cell) {
  if (cell.find_first_of(",\"\n") == std::string::npos) return cell;
  std::string quoted = "\"";
  for (char ch : cell) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

std::string OneLineWhy(const Record& r) {
  std::string why = r.status != CaseStatus::kOk ? r.error
                    : r.invalid_reasons.empty() ? ""
                                                : r.invalid_reasons.front();
  for (char& c : why) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return why;
}

namespace {

class TablePrinter : public RecordPrinter {
 public:
  explicit TablePrinter(std::ostream& out) : out_(out) {}
  void Begin() override {
    Row(TableHeader());
  }
  void Print(const Record& r) override {
    Row(TableRow(r));
    const std::string why = OneLineWhy(r);
    if (!why.empty()) out_ << "    ^ " << why << "\n";
    out_.flush();
  }

 private:
  void Row(const std::vector<std::string>& cells) {
    static constexpr int kWidths[] = {18, 34, 11, 26, 6, 10, 10, 10, 10, 9, 8, 7};
    for (size_t i = 0; i < cells.size(); ++i) {
      const int width = i < std::size(kWidths) ? kWidths[i] : 10;
      std::string cell = cells[i];
      if (static_cast<int>(cell.size()) > width) cell = cell.substr(0, static_cast<size_t>(width - 1)) + "~";
      out_ << std::left << std::setw(width) << cell << (i + 1 < cells.size() ? " " : "");
    }
    out_ << "\n";
  }
  std::ostream& out_;
};

// Markdown table or CSV: the table's cells plus the reason, one row per record.
class DelimitedPrinter : public RecordPrinter {
 public:
  DelimitedPrinter(std::ostream& out, bool markdown) : out_(out), markdown_(markdown) {}
  void Begin() override {
    auto header = TableHeader();
    header.push_back("why");
    Row(header);
    if (markdown_) Row(std::vector<std::string>(header.size(), "---"));
  }
  void Print(const Record& r) override {
    auto cells = TableRow(r);
    cells.push_back(OneLineWhy(r));
    Row(cells);
  }

 private:
  void Row(const std::vector<std::string>& cells) {
    if (markdown_) out_ << "|";
    for (size_t i = 0; i < cells.size(); ++i) {
      if (markdown_) {
        std::string escaped;
        for (char ch : cells[i]) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
        out_ << " " << escaped << " |";
      } else {
        out_ << CsvCell(cells[i]) << (i + 1 < cells.size() ? "," : "");
      }
    }
    out_ << "\n";
  }
  std::ostream& out_;
  bool markdown_;
};

class JsonArrayPrinter : public RecordPrinter {
 public:
  explicit JsonArrayPrinter(std::ostream& out) : out_(out) {}
  void Print(const Record& r) override { records_.push_back(RecordToJson(r)); }
  void End() override { out_ << records_.dump(2) << "\n"; }

 private:
  std::ostream& out_;
  nlohmann::json records_ = nlohmann::json::array();
};

class JsonLinesPrinter : public RecordPrinter {
 public:
  explicit JsonLinesPrinter(std::ostream& out) : out_(out) {}
  void Print(const Record& r) override { out_ << RecordToJson(r).dump() << "\n" << std::flush; }

 private:
  std::ostream& out_;
};

}  // namespace

std::vector<std::string> TableHeader() {
  return {"model", "target", "status", "ran on (nodes)", "n", "p50 ms", "p90 ms", "p99 ms",
          "mean ms", "qps", "settle", "verdict"};
}

std::vector<std::string> TableRow(const Record& r) {
  const LatencySummary& s = r.summary;
  const bool measured = r.status == CaseStatus::kOk;
  char qps[32];
  std::snprintf(qps, sizeof qps, "%.1f", s.throughput_qps);
  return {r.model,
          r.requested_target,
          CaseStatusName(r.status),
          measured ? Ran(r) : "-",
          measured ? std::to_string(s.count) : "-",
          measured ? MsOrDash(s.Percentile(0.50)) : "-",
          measured ? MsOrDash(s.Percentile(0.90)) : "-",
          measured ? MsOrDash(s.Percentile(0.99)) : "-",
          measured ? Ms(s.mean_ns) : "-",
          measured ? qps : "-",
          measured && r.settling ? "q" + std::to_string(r.settling->query_index) : "-",
          Verdict(r)};
}

Result<std::unique_ptr<RecordPrinter>> MakePrinter(const std::string& format, std::ostream& out) {
  if (format == "table") return std::unique_ptr<RecordPrinter>(new TablePrinter(out));
  if (format == "markdown") return std::unique_ptr<RecordPrinter>(new DelimitedPrinter(out, true));
  if (format == "csv") return std::unique_ptr<RecordPrinter>(new DelimitedPrinter(out, false));
  if (format == "json") return std::unique_ptr<RecordPrinter>(new JsonArrayPrinter(out));
  if (format == "jsonl") return std::unique_ptr<RecordPrinter>(new JsonLinesPrinter(out));
  return Status::Error("unknown output format '" + format +
                       "'; use one of: table, markdown, csv, json, jsonl");
}

}  // namespace edgebench
