#include "report/html/report_labels.h"

#include <algorithm>
#include <functional>
#include <set>

#include "backends/target.h"
#include "report/shape_matrix.h"

namespace edgebench {

std::string ModelOnTarget(const Record& r) {
  return r.model + (r.variant.empty() ? "" : "?" + r.variant) + " " + r.requested_target;
}

std::string ReportCaseLabel(const Record& r) {
  std::string label = ModelOnTarget(r) + " " + r.scenario;
  if (!r.dims.empty()) label += " " + ShapeLabel(r.dims, {});
  return label;
}

namespace {

// The group's labels with `part(record)` appended where it differs within the group.
void AppendWhereItDiffers(const std::vector<const Record*>& group, std::vector<std::string>& labels,
                          const std::function<std::string(const Record&)>& part) {
  std::set<std::string> parts;
  for (const Record* r : group) parts.insert(part(*r));
  if (parts.size() < 2) return;
  for (size_t i = 0; i < group.size(); ++i) {
    const std::string text = part(*group[i]);
    if (!text.empty()) labels[i] += " " + text;
  }
}

// The options of the effective target whose values differ within the group: "threads=1".
std::function<std::string(const Record&)> DifferingOptions(const std::vector<const Record*>& group) {
  std::map<std::string, std::set<std::string>> values;
  for (const Record* r : group) {
    auto target = ParseTarget(r->effective_target);
    if (!target.ok()) continue;
    for (const auto& [key, value] : target.value().options) values[key].insert(value);
  }
  return [values](const Record& r) {
    std::string text;
    auto target = ParseTarget(r.effective_target);
    if (!target.ok()) return text;
    for (const auto& [key, seen] : values) {
      if (seen.size() < 2) continue;
      const auto found = target.value().options.find(key);
      text += (text.empty() ? "" : ",") + key + "=" + (found == target.value().options.end() ? "-" : found->second);
    }
    return text;
  };
}

// Groups of indices into `labels` that hold the same label, each of two or more.
std::vector<std::vector<size_t>> Duplicates(const std::vector<std::string>& labels) {
  std::map<std::string, std::vector<size_t>> by_label;
  for (size_t i = 0; i < labels.size(); ++i) by_label[labels[i]].push_back(i);
  std::vector<std::vector<size_t>> groups;
  for (auto& [label, indices] : by_label) {
    if (indices.size() > 1) groups.push_back(std::move(indices));
  }
  return groups;
}

}  // namespace

CaseLabels::CaseLabels(const std::vector<Record>& records) {
  std::vector<std::string> labels;
  for (const Record& r : records) labels.push_back(ReportCaseLabel(r));
  const std::vector<std::function<std::function<std::string(const Record&)>(const std::vector<const Record*>&)>> parts = {
      DifferingOptions,
      [](const std::vector<const Record*>&) {
        return [](const Record& r) { return r.round ? "round " + std::to_string(r.round->round) : std::string(); };
      },
      [](const std::vector<const Record*>&) {
        // "2026-12-06T23:10:05Z" as "12-06 23:10:05".
        return [](const Record& r) {
          const std::string& t = r.started_at;
          return t.size() >= 19 ? t.substr(5, 5) + " " + t.substr(11, 8) : t;
        };
      },
  };
  for (const auto& part_of : parts) {
    for (const std::vector<size_t>& indices : Duplicates(labels)) {
      std::vector<const Record*> group;
      std::vector<std::string> group_labels;
      for (size_t i : indices) {
        group.push_back(&records[i]);
        group_labels.push_back(labels[i]);
      }
      AppendWhereItDiffers(group, group_labels, part_of(group));
      for (size_t k = 0; k < indices.size(); ++k) labels[indices[k]] = group_labels[k];
    }
  }
  for (const std::vector<size_t>& indices : Duplicates(labels)) {
    for (size_t k = 1; k < indices.size(); ++k) labels[indices[k]] += " #" + std::to_string(k + 1);
  }
  for (size_t i = 0; i < records.size(); ++i) by_id_[records[i].id] = labels[i];
}

std::string CaseLabels::operator()(const Record& r) const {
  const auto found = by_id_.find(r.id);
  return found == by_id_.end() ? ReportCaseLabel(r) : found->second;
}

std::vector<size_t> ThinnedIndices(size_t n, size_t max_points) {
  std::vector<size_t> kept;
  if (n == 0) return kept;
  const size_t stride = max_points < 2 ? n : (n + max_points - 2) / (max_points - 1);
  for (size_t i = 0; i < n; i += std::max<size_t>(stride, 1)) kept.push_back(i);
  if (kept.back() != n - 1) {
    if (kept.size() >= max_points) kept.back() = n - 1;
    else kept.push_back(n - 1);
  }
  return kept;
}

}  // namespace edgebench
