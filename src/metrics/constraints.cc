#include "metrics/constraints.h"

#include <cmath>
#include <iomanip>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "core/strings.h"

namespace edgebench {
namespace {

bool IsMetricUnit(FlatUnit unit) {
  return unit != FlatUnit::kText && unit != FlatUnit::kFlag;
}

std::string MetricNames() {
  std::string names;
  for (const MetricAlias& a : MetricAliases()) names += std::string(names.empty() ? "" : ", ") + a.alias;
  names += "; or a metric of docs/query.md (";
  bool first = true;
  for (const Metric& metric : Metrics()) {
    if (metric.unit == FlatUnit::kCount) continue;
    names += std::string(first ? "" : ", ") + metric.name;
    first = false;
  }
  return names + ")";
}

// The column a metric name means (a metric of the registry, or for a constraint also a numeric
// dimension such as threads or batch), or an error listing the names there are.
Result<const FlatColumn*> MetricColumn(const std::string& name, bool allow_counts) {
  const Metric* metric = FindMetric(name);
  const FlatColumn* found = FindFlatColumn(metric ? metric->name : name);
  const bool usable = found && IsMetricUnit(found->unit) && (found->metric || allow_counts) &&
                      (allow_counts || found->unit != FlatUnit::kCount);
  if (!usable) {
    if (found) {
      return Status::Error("'" + name + "' is not a metric to rank by; metrics: " + MetricNames());
    }
    return Status::Error("unknown metric '" + name + "'; metrics: " + MetricNames());
  }
  return found;
}

std::vector<std::string> TrimmedItems(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!TrimBlanks(item).empty()) items.push_back(TrimBlanks(item));
  }
  return items;
}

// Factor from `unit` to the column's unit; nullopt when the unit does not fit the column.
std::optional<double> UnitFactor(FlatUnit column, const std::string& unit) {
  static const std::map<FlatUnit, std::map<std::string, double>> factors = {
      {FlatUnit::kMilliseconds, {{"", 1}, {"ns", 1e-6}, {"us", 1e-3}, {"µs", 1e-3}, {"ms", 1}, {"s", 1e3}}},
      {FlatUnit::kMillijoules, {{"", 1}, {"uJ", 1e-3}, {"µJ", 1e-3}, {"mJ", 1}, {"J", 1e3}}},
      {FlatUnit::kMilliwatts, {{"", 1}, {"mW", 1}, {"W", 1e3}}},
      {FlatUnit::kMebibytes,
       {{"", 1}, {"B", 1.0 / (1 << 20)}, {"KiB", 1.0 / 1024}, {"MiB", 1}, {"GiB", 1024},
        {"KB", 1e3 / (1 << 20)}, {"MB", 1e6 / (1 << 20)}, {"GB", 1e9 / (1 << 20)}}},
      {FlatUnit::kFraction, {{"", 1}, {"%", 0.01}}},
      {FlatUnit::kPerSecond, {{"", 1}, {"/s", 1}, {"qps", 1}, {"tok/s", 1}}},
      {FlatUnit::kCount, {{"", 1}}},
      {FlatUnit::kNats, {{"", 1}, {"nats", 1}}},
  };
  const auto column_units = factors.find(column);
  if (column_units == factors.end()) return std::nullopt;
  const auto factor = column_units->second.find(unit);
  if (factor == column_units->second.end()) return std::nullopt;
  return factor->second;
}

std::string UnitsFor(FlatUnit column) {
  switch (column) {
    case FlatUnit::kMilliseconds: return "ns, us, ms (the default), s";
    case FlatUnit::kMillijoules: return "uJ, mJ (the default), J";
    case FlatUnit::kMilliwatts: return "mW (the default), W";
    case FlatUnit::kMebibytes: return "B, KiB, MiB (the default), GiB, KB, MB, GB";
    case FlatUnit::kFraction: return "a fraction (0.9) or a percentage (90%)";
    case FlatUnit::kPerSecond: return "a plain number, /s, qps or tok/s";
    case FlatUnit::kNats: return "nats (the default)";
    default: return "a plain number";
  }
}

}  // namespace

const char* BoundRelationText(BoundRelation c) {
  switch (c) {
    case BoundRelation::kAtMost: return "<=";
    case BoundRelation::kAtLeast: return ">=";
    case BoundRelation::kBelow: return "<";
    case BoundRelation::kAbove: return ">";
  }
  return "?";
}

std::string FormatMetricNumber(double v) {
  std::ostringstream out;
  if (v != 0 && (std::abs(v) >= 1e7 || std::abs(v) < 1e-4)) {
    out << std::setprecision(3) << std::scientific << v;
  } else {
    out << std::setprecision(std::abs(v) >= 1000 ? 7 : 4) << v;
  }
  return out.str();
}

Result<Objective> ParseObjective(const std::string& text) {
  const std::string name = TrimBlanks(text);
  auto column = MetricColumn(name, /*allow_counts=*/false);
  if (!column.ok()) return Status::Error("objective: " + column.error());
  Objective objective;
  objective.name = name;
  objective.column = column.value()->name;
  objective.unit = column.value()->unit;
  objective.direction = column.value()->metric->better;
  return objective;
}

Result<std::vector<Objective>> ParseObjectives(const std::string& list) {
  std::vector<Objective> objectives;
  for (const std::string& item : TrimmedItems(list)) {
    auto objective = ParseObjective(item);
    if (!objective.ok()) return objective.status();
    for (const Objective& o : objectives) {
      if (o.column == objective.value().column) {
        return Status::Error("objective '" + item + "' names " + o.column + " again (as '" + o.name + "')");
      }
    }
    objectives.push_back(objective.take());
  }
  if (objectives.empty()) {
    return Status::Error("no objective given; name at least one, e.g. --objective p99,energy,accuracy");
  }
  return objectives;
}

Result<Constraint> ParseConstraint(const std::string& text) {
  static const std::regex pattern(R"(^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|<|>)\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([^\s0-9][^\s]*)?\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, pattern)) {
    return Status::Error("constraint '" + text +
                         "' is not METRIC OP NUMBER[UNIT] with OP one of <=, >=, <, > (e.g. "
                         "'p99<=10ms', 'accuracy>=0.90', 'energy<5mJ')");
  }
  auto column = MetricColumn(m[1].str(), /*allow_counts=*/true);
  if (!column.ok()) return Status::Error("constraint '" + text + "': " + column.error());
  Constraint constraint;
  constraint.text = TrimBlanks(text);
  constraint.column = column.value()->name;
  constraint.unit = column.value()->unit;
  const std::string op = m[2].str();
  constraint.comparison = op == "<=" ? BoundRelation::kAtMost
                          : op == ">=" ? BoundRelation::kAtLeast
                          : op == "<"  ? BoundRelation::kBelow
                                       : BoundRelation::kAbove;
  const std::string unit = m[4].matched ? m[4].str() : "";
  const auto factor = UnitFactor(constraint.unit, unit);
  if (!factor) {
    return Status::Error("constraint '" + text + "': unit '" + unit + "' does not fit " + constraint.column +
                         " (" + FlatUnitName(constraint.unit) + "); write " + UnitsFor(constraint.unit));
  }
  const std::optional<double> number = ParseFiniteNumber(m[3].str());
  if (!number || !std::isfinite(*number * *factor)) {
    return Status::Error("constraint '" + text + "': " + m[3].str() +
                         " is not a number a double holds (it overflows or underflows); write a bound "
                         "in the range of the metric, e.g. 'p99<=10ms'");
  }
  constraint.bound = *number * *factor;
  if (constraint.unit == FlatUnit::kFraction && unit.empty() && constraint.bound > 1) {
    return Status::Error("constraint '" + text + "': " + constraint.column + " is a fraction from 0 to 1; write " +
                         m[3].str() + "% or " + FormatMetricNumber(constraint.bound / 100));
  }
  return constraint;
}

Result<std::vector<Constraint>> ParseConstraints(const std::string& list) {
  std::vector<Constraint> constraints;
  for (const std::string& item : TrimmedItems(list)) {
    auto constraint = ParseConstraint(item);
    if (!constraint.ok()) return constraint.status();
    constraints.push_back(constraint.take());
  }
  return constraints;
}

bool Meets(const Constraint& constraint, double value) {
  switch (constraint.comparison) {
    case BoundRelation::kAtMost: return value <= constraint.bound;
    case BoundRelation::kAtLeast: return value >= constraint.bound;
    case BoundRelation::kBelow: return value < constraint.bound;
    case BoundRelation::kAbove: return value > constraint.bound;
  }
  return false;
}

}  // namespace edgebench
