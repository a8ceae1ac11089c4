#include "report/precision_note.h"

#include <map>
#include <set>

#include "backends/target.h"
#include "core/strings.h"

namespace edgebench {

std::string ComputePrecisionOf(const Record& record) {
  std::string precision;
  if (auto target = ParseTarget(record.effective_target); target.ok()) {
    const auto found = target.value().options.find("precision");
    if (found != target.value().options.end()) precision = ToLowerAscii(found->second);
  }
  // "default" or "f32 (asked; ...)": nothing known beyond the model's own.
  if (precision.rfind("default", 0) == 0 || precision.find("asked") != std::string::npos) precision.clear();
  if (precision.empty()) precision = ToLowerAscii(record.variant);
  if (precision == "f32" || precision == "fp32" || precision == "float32") precision.clear();
  return precision;
}

std::string MixedPrecisionNote(const std::vector<RowPrecision>& rows) {
  std::map<std::string, std::set<std::string>> targets_at;  // precision -> targets
  for (const RowPrecision& row : rows) targets_at[row.precision].insert(row.target);
  if (rows.size() < 2 || targets_at.size() < 2) return "";
  std::string parts;
  for (const auto& [precision, targets] : targets_at) {
    const std::vector<std::string> names(targets.begin(), targets.end());
    parts += (parts.empty() ? "" : "; ") + Join(names, ", ") + ": " +
             (precision.empty() ? std::string("the model's own precision") : precision);
  }
  return "not like with like: these rows computed at different precisions (" + parts +
         "); a faster row may compute less exactly (edgebench agree compares their outputs)";
}

}  // namespace edgebench
