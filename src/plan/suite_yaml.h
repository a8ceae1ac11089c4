// Reading a suite file's YAML with errors for people: every check reports
// "FILE:LINE:COLUMN: what is wrong", pointing at the key of an empty value. The primitives the
// suite reader (plan/suite_file.h) and its mode blocks (plan/suite_modes.h) share.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace edgebench {

template <typename Range>
std::string JoinComma(const Range& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

// "a list", "a mapping", "'text'" or "nothing": what a node is, for messages.
std::string TypeName(const YAML::Node& node);

class SuiteYaml {
 public:
  explicit SuiteYaml(std::string path) : path_(std::move(path)) {}

  // The most values a file may expand to, and the deepest nesting: a suite or pipeline file
  // holds a few hundred values; aliases (`*name`) repeat what they name, so a few hundred bytes
  // of them can stand for billions of values ("billion laughs").
  static constexpr int64_t kMaxValues = 100000;
  static constexpr int kMaxDepth = 64;
  // Refuses a document past those bounds, before anything reads it; counts each use of an alias.
  Status CheckExpansion(const YAML::Node& root) const;

  // An error at `node` (at its key when the value is empty), or at the file when it has no mark.
  Status At(const YAML::Node& node, const std::string& message) const;

  // `text` parsed, bounded (CheckExpansion) and handed to `root`; a YAML syntax error is an error
  // at its FILE:LINE:COL, any other yaml-cpp exception one naming the file (the checks look at
  // node types before reading; this is a safety net).
  template <typename T, typename Root>
  Result<T> ParseDocument(const std::string& text, Root root) const {
    try {
      const YAML::Node node = YAML::Load(text);
      if (Status bounded = CheckExpansion(node); !bounded.ok()) return bounded;
      return root(node);
    } catch (const YAML::ParserException& e) {
      return Status::Error(path_ + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                           ": YAML syntax error: " + e.msg);
    } catch (const YAML::Exception& e) {
      return Status::Error(path_ + ": " + e.what());
    }
  }
  static int Line(const YAML::Node& node) { return node.Mark().line + 1; }
  // `map` must be a mapping whose keys are all in `known`, each once. Returns the values by key.
  Result<std::map<std::string, YAML::Node>> Fields(const YAML::Node& map, const std::string& what,
                                                   std::span<const std::string_view> known) const;
  Result<std::string> String(const YAML::Node& node, const std::string& what) const;
  // An integer in [min, max]; one outside is refused with the range, never clamped.
  Result<int64_t> Integer(const YAML::Node& node, const std::string& what, int64_t min,
                          int64_t max = std::numeric_limits<int64_t>::max()) const;
  Result<uint64_t> Unsigned(const YAML::Node& node, const std::string& what) const;
  Result<bool> Boolean(const YAML::Node& node, const std::string& what) const;
  Result<double> PositiveNumber(const YAML::Node& node, const std::string& what) const;
  Result<double> Number(const YAML::Node& node, const std::string& what) const;  // any finite number
  // A non-empty list; `example` shows the expected spelling.
  Status List(const YAML::Node& node, const std::string& what, const std::string& example) const;
  Result<std::vector<int64_t>> IntegerList(const YAML::Node& node, const std::string& what, int64_t min) const;

  // yaml-cpp marks an empty value (`name:` and nothing) where the next token starts, often the
  // next line; errors about it should point at its key instead.
  void NoteKey(const YAML::Node& key, const YAML::Node& value) const;

 protected:
  std::string path_;

 private:
  // "EXPECTED; got 'TEXT'" (or what the node is when it is not a scalar), at the node.
  Status NotANumber(const YAML::Node& node, const std::string& expected) const;

  mutable std::vector<std::pair<YAML::Node, YAML::Mark>> empty_values_;
};

}  // namespace edgebench
