#include "report/shape_matrix.h"

#include <algorithm>
#include <cstring>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

#include "core/strings.h"
#include "report/columns.h"
#include "metrics/metrics.h"
#include "report/printers.h"

namespace edgebench {
namespace {

std::string Ms(int64_t ns) { return FormatSignificant(static_cast<double>(ns) / 1e6); }

std::string Mib(double mib, bool sign) {
  char text[32];
  std::snprintf(text, sizeof text, sign ? "%+.1f" : "%.1f", mib);
  return text;
}

// The metrics of metrics/metrics.h, for a cell that measured.
std::optional<double> ShapeMetric(const char* name, const Record& r) {
  return r.status == CaseStatus::kOk ? MetricValue(name, r) : std::nullopt;
}

// What a cell that did not measure says before its reference: the status and a short reason.
std::string ShortReason(const Record& r) {
  std::string text = CaseStatusName(r.status);
  if (r.status == CaseStatus::kCrashed && r.signal != 0) {
    text += ": signal " + std::to_string(r.signal);
    if (const char* name = ::sigabbrev_np(r.signal)) text += std::string(" (SIG") + name + ")";
  } else if (r.status == CaseStatus::kFailed && !r.failed_stage.empty()) {
    text += " at " + r.failed_stage;
  }
  return text;
}

// A cell that measured: "ok" when VALID, "INVALID" when its verdict says the numbers are not to
// be trusted (the footnote gives the reasons).
std::string OkCell(const Record& r, const std::optional<double>& previous_rss) {
  std::string cell = r.valid ? "ok " : "INVALID ";
  const auto p50 = ShapeMetric("p50_ms", r);
  const auto p99 = ShapeMetric("p99_ms", r);
  if (p50 && p99) {
    cell += "p50/p99 " + FormatSignificant(*p50) + "/" + FormatSignificant(*p99) + " ms";
  } else if (p50) {
    cell += "p50 " + FormatSignificant(*p50) + " ms";
  } else {
    cell += "p50 -";
  }
  cell += "; first " +
          (r.warmup_ns.empty() ? std::string(kNoValue) : Ms(r.warmup_ns.front()) + " ms");
  const auto rss = ShapeMetric("peak_rss_mib", r);
  cell += "; rss " + (rss ? Mib(*rss, false) + " MiB" : std::string(kNoValue));
  if (rss) cell += previous_rss ? " (" + Mib(*rss - *previous_rss, true) + ")" : " (-)";
  return cell;
}

}  // namespace

std::string ShapeLabel(const ShapeBindings& dims, const std::vector<std::string>& order) {
  std::vector<std::string> parts;
  for (const std::string& name : order) {
    if (auto it = dims.find(name); it != dims.end()) {
      parts.push_back(name + "=" + std::to_string(it->second));
    }
  }
  for (const auto& [name, value] : dims) {
    if (std::find(order.begin(), order.end(), name) == order.end()) {
      parts.push_back(name + "=" + std::to_string(value));
    }
  }
  if (parts.empty()) return "(no dims)";
  std::string label;
  for (const std::string& part : parts) label += (label.empty() ? "" : " ") + part;
  return label;
}

std::string FormatShapeMatrix(const std::vector<Record>& records,
                              const ShapeMatrixOptions& options) {
  if (records.empty()) return "";
  std::vector<std::string> shapes, targets;
  // (shape, target) -> index into records; a later record of the same cell replaces an earlier one.
  std::map<std::pair<size_t, size_t>, size_t> cell_record;
  for (size_t i = 0; i < records.size(); ++i) {
    const std::string shape = ShapeLabel(records[i].dims, options.dim_order);
    const std::string& target = records[i].requested_target;
    auto shape_at = std::find(shapes.begin(), shapes.end(), shape);
    if (shape_at == shapes.end()) shape_at = shapes.insert(shapes.end(), shape);
    auto target_at = std::find(targets.begin(), targets.end(), target);
    if (target_at == targets.end()) target_at = targets.insert(targets.end(), target);
    const auto row = static_cast<size_t>(shape_at - shapes.begin());
    const auto column = static_cast<size_t>(target_at - targets.begin());
    cell_record[{row, column}] = i;
  }

  std::vector<std::vector<std::string>> cells(shapes.size(),
                                              std::vector<std::string>(targets.size(), kNoValue));
  std::vector<std::string> messages;
  for (size_t t = 0; t < targets.size(); ++t) {
    std::optional<double> previous_rss;
    for (size_t s = 0; s < shapes.size(); ++s) {
      auto it = cell_record.find({s, t});
      if (it == cell_record.end()) continue;
      const Record& r = records[it->second];
      if (r.status == CaseStatus::kOk) {
        cells[s][t] = OkCell(r, previous_rss);
        if (const auto rss = ShapeMetric("peak_rss_mib", r)) previous_rss = rss;
        if (!r.valid) {
          messages.push_back(targets[t] + " at " + shapes[s] + ": INVALID: " +
                             (r.invalid_reasons.empty() ? std::string("no reason recorded")
                                                        : Join(r.invalid_reasons, "; ")));
          cells[s][t] += " [" + std::to_string(messages.size()) + "]";
        }
        continue;
      }
      std::string message = r.error.empty() ? OneLineWhy(r) : r.error;
      // The runner starts a worker's message with the target, which the list already names.
      if (message.rfind(targets[t] + ": ", 0) == 0) message.erase(0, targets[t].size() + 2);
      messages.push_back(targets[t] + " at " + shapes[s] + ": " + message);
      cells[s][t] = ShortReason(r) + " [" + std::to_string(messages.size()) + "]";
    }
  }

  std::ostringstream out;
  const std::string corner = "shape";
  if (options.markdown) {
    out << "| " << corner;
    for (const std::string& t : targets) out << " | " << MarkdownCell(t);
    out << " |\n|---";
    for (size_t t = 0; t < targets.size(); ++t) out << "|---";
    out << "|\n";
    for (size_t s = 0; s < shapes.size(); ++s) {
      out << "| " << MarkdownCell(shapes[s]);
      for (const std::string& cell : cells[s]) out << " | " << MarkdownCell(cell);
      out << " |\n";
    }
  } else {
    std::vector<size_t> widths(targets.size() + 1, corner.size());
    for (const std::string& s : shapes) widths[0] = std::max(widths[0], s.size());
    for (size_t t = 0; t < targets.size(); ++t) {
      widths[t + 1] = targets[t].size();
      for (const auto& row : cells) widths[t + 1] = std::max(widths[t + 1], row[t].size());
    }
    auto line = [&](const std::string& first, const std::vector<std::string>& rest) {
      std::string text = first + std::string(widths[0] - first.size(), ' ');
      for (size_t t = 0; t < rest.size(); ++t) {
        text += "  " + rest[t];
        if (t + 1 < rest.size()) text += std::string(widths[t + 1] - rest[t].size(), ' ');
      }
      out << text << "\n";
    };
    line(corner, targets);
    for (size_t s = 0; s < shapes.size(); ++s) line(shapes[s], cells[s]);
  }
  out << "\nok and INVALID cells: p50/p99 of the measured queries (INVALID: measured, but its verdict says not to "
         "trust them; the note gives the reasons); first: the first warmup query (the "
         "re-planning cost); rss: the worker's peak resident memory (MiB) and, in brackets, its "
         "change since the previous measured shape of the same target\n";
  if (!messages.empty()) {
    out << "\n";
    for (size_t i = 0; i < messages.size(); ++i) {
      out << (options.markdown ? "- " : "") << "[" << i + 1 << "] " << messages[i] << "\n";
    }
  }
  return out.str();
}

}  // namespace edgebench
