#include "plan/suite_yaml.h"

#include <cmath>

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>

namespace edgebench {

std::string TypeName(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Scalar: return "'" + node.Scalar() + "'";
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Undefined: break;
  }
  return "nothing";
}

Status SuiteYaml::At(const YAML::Node& node, const std::string& message) const {
  YAML::Mark mark = node.IsDefined() ? node.Mark() : YAML::Mark::null_mark();
  for (const auto& [value, key_mark] : empty_values_) {
    if (node.IsDefined() && value.is(node)) mark = key_mark;
  }
  if (mark.is_null()) return Status::Error(path_ + ": " + message);
  return Status::Error(path_ + ":" + std::to_string(mark.line + 1) + ":" +
                       std::to_string(mark.column + 1) + ": " + message);
}

Status SuiteYaml::CheckExpansion(const YAML::Node& root) const {
  struct Pending {
    YAML::Node node;
    int depth;
  };
  std::vector<Pending> stack = {{root, 0}};
  int64_t values = 0;
  while (!stack.empty()) {
    Pending p = std::move(stack.back());
    stack.pop_back();
    if (++values > kMaxValues) {
      return Status::Error(path_ + ": the file expands to more than " + std::to_string(kMaxValues) +
                           " values (aliases such as *name repeat what they name); a suite or pipeline file "
                           "needs far fewer: refused before reading it");
    }
    if (p.depth > kMaxDepth) {
      return At(p.node, "nested more than " + std::to_string(kMaxDepth) + " levels deep: refused before reading it");
    }
    if (p.node.IsSequence()) {
      for (const YAML::Node& item : p.node) stack.push_back({item, p.depth + 1});
    } else if (p.node.IsMap()) {
      for (const auto& item : p.node) {
        stack.push_back({item.first, p.depth + 1});
        stack.push_back({item.second, p.depth + 1});
      }
    }
  }
  return Status::Ok();
}

// yaml-cpp marks an empty value (`name:` and nothing) where the next token starts, often the
// next line; errors about it should point at its key instead.
void SuiteYaml::NoteKey(const YAML::Node& key, const YAML::Node& value) const {
  if (value.IsNull()) empty_values_.emplace_back(value, key.Mark());
}

// `map` must be a mapping whose keys are all in `known`, each once. Returns the values by key.
Result<std::map<std::string, YAML::Node>> SuiteYaml::Fields(const YAML::Node& map, const std::string& what,
                                                 std::span<const std::string_view> known) const {
  if (!map.IsMap()) return At(map, what + ": expected a mapping of " + JoinComma(known) +
                                       "; got " + TypeName(map));
  std::map<std::string, YAML::Node> fields;
  std::map<std::string, int> lines;
  for (const auto& item : map) {
    const YAML::Node& key = item.first;
    if (!key.IsScalar()) {
      return At(key, what + ": a key must be a plain name; got " + TypeName(key));
    }
    const std::string name = key.Scalar();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return At(key, "unknown key '" + name + "' in " + what +
                         "; known keys: " + JoinComma(known));
    }
    if (lines.count(name)) {
      return At(key, "key '" + name + "' given twice in " + what + " (first on line " +
                         std::to_string(lines[name]) + ")");
    }
    lines[name] = Line(key);
    NoteKey(key, item.second);
    // emplace, not operator[] and assignment: assigning to a YAML::Node rewrites the node it
    // refers to instead of rebinding the handle.
    fields.emplace(name, item.second);
  }
  return fields;
}

Result<std::string> SuiteYaml::String(const YAML::Node& node, const std::string& what) const {
  if (!node.IsScalar() || node.Scalar().empty()) {
    return At(node, what + ": expected a non-empty string; got " + TypeName(node));
  }
  return node.Scalar();
}

namespace {

// One number from a scalar's whole text, or nothing (not a scalar, not a number, trailing text).
template <typename T>
std::optional<T> ScalarNumber(const YAML::Node& node) {
  if (!node.IsScalar()) return std::nullopt;
  const std::string& s = node.Scalar();
  T value{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

}  // namespace

Status SuiteYaml::NotANumber(const YAML::Node& node, const std::string& expected) const {
  return At(node, expected + "; got " + (node.IsScalar() ? "'" + node.Scalar() + "'" : TypeName(node)));
}

Result<int64_t> SuiteYaml::Integer(const YAML::Node& node, const std::string& what, int64_t min,
                                   int64_t max) const {
  const std::string expected =
      what + ": expected an integer " +
      (max == std::numeric_limits<int64_t>::max() ? "of at least " + std::to_string(min)
                                                  : "from " + std::to_string(min) + " to " + std::to_string(max));
  const auto value = ScalarNumber<int64_t>(node);
  // Past the bound is refused, never clamped: a record must hold the value that was asked.
  if (!value || *value < min || *value > max) return NotANumber(node, expected);
  return *value;
}

Result<uint64_t> SuiteYaml::Unsigned(const YAML::Node& node, const std::string& what) const {
  const auto value = ScalarNumber<uint64_t>(node);
  if (!value) return NotANumber(node, what + ": expected an integer of at least 0");
  return *value;
}

Result<bool> SuiteYaml::Boolean(const YAML::Node& node, const std::string& what) const {
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
    return At(node, what + ": expected true or false; got " + TypeName(node));
  }
  return value;
}

Result<double> SuiteYaml::PositiveNumber(const YAML::Node& node, const std::string& what) const {
  const auto value = ScalarNumber<double>(node);
  if (!value || !std::isfinite(*value) || !(*value > 0)) return NotANumber(node, what + ": expected a number above 0");
  return *value;
}

Result<double> SuiteYaml::Number(const YAML::Node& node, const std::string& what) const {
  const auto value = ScalarNumber<double>(node);
  if (!value || !std::isfinite(*value)) return NotANumber(node, what + ": expected a number");
  return *value;
}

// A non-empty list; `example` shows the expected spelling.
Status SuiteYaml::List(const YAML::Node& node, const std::string& what, const std::string& example) const {
  if (!node.IsSequence()) {
    return At(node, what + ": expected a list, for example " + example + "; got " +
                        TypeName(node));
  }
  if (node.size() == 0) return At(node, what + ": the list is empty; give at least one entry");
  return Status::Ok();
}

Result<std::vector<int64_t>> SuiteYaml::IntegerList(const YAML::Node& node, const std::string& what,
                                         int64_t min) const {
  if (Status s = List(node, what, "[128, 512]"); !s.ok()) return s;
  std::vector<int64_t> values;
  for (const YAML::Node& item : node) {
    auto value = Integer(item, what, min);
    if (!value.ok()) return value.status();
    values.push_back(value.value());
  }
  return values;
}


}  // namespace edgebench
