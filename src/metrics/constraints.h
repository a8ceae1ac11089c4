// What recommend ranks by and filters on, and what tune races for: objectives ("p99",
// "energy", any metric of the registry) and constraints ("p99<=10ms", "accuracy>=90%") parsed
// into the flat columns (flat_record.h) they read, with their units converted to the column's.
// Below both report/ (recommend) and tune/ (the race): neither includes the other for them.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "metrics/flat_record.h"
#include "metrics/metrics.h"

namespace edgebench {

struct Objective {
  std::string name;    // as the user wrote it ("p99")
  std::string column;  // the flat column ("p99_ms")
  Direction direction = Direction::kLower;
  FlatUnit unit = FlatUnit::kMilliseconds;
};

// "p99", "energy", "accuracy", or any metric of the registry ("p90_ms", "tokens_per_s";
// metrics/metrics.h), better the way the metric says. An error names the objectives there are.
Result<Objective> ParseObjective(const std::string& text);
// A comma-separated list, in order of importance.
Result<std::vector<Objective>> ParseObjectives(const std::string& list);

enum class BoundRelation { kAtMost, kAtLeast, kBelow, kAbove };  // <=, >=, <, >

struct Constraint {
  std::string text;    // as written, e.g. "p99<=10ms"
  std::string column;  // "p99_ms"
  BoundRelation comparison = BoundRelation::kAtMost;
  double bound = 0;    // in the column's unit (FlatUnitName)
  FlatUnit unit = FlatUnit::kMilliseconds;
};

// "METRIC OP NUMBER[UNIT]": OP one of <= >= < >; units convert to the column's: time ns, us,
// ms, s; energy uJ, mJ, J; power mW, W; memory B, KiB, MiB, GiB, KB, MB, GB; accuracy a
// fraction (0.9) or a percentage (90%); rates /s, qps, tok/s. An error says what is wrong with
// the text and what would be right.
Result<Constraint> ParseConstraint(const std::string& text);
Result<std::vector<Constraint>> ParseConstraints(const std::string& list);
bool Meets(const Constraint& constraint, double value);

// "<=", ">=", "<", ">".
const char* BoundRelationText(BoundRelation relation);

// A number as people read it: up to 4 significant digits, no exponent for everyday sizes.
std::string FormatMetricNumber(double value);

}  // namespace edgebench
