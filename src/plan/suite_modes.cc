#include "plan/suite_modes.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

namespace edgebench {
namespace {

// One value of a block, read as its field's type; `what` is "MODE: KEY" for messages.
Status ReadValue(const SuiteYaml& yaml, const YAML::Node& node, const std::string& what, std::string& out) {
  auto text = yaml.String(node, what);
  if (!text.ok()) return text.status();
  out = text.take();
  return Status::Ok();
}

Status ReadValue(const SuiteYaml& yaml, const YAML::Node& node, const std::string& what, int64_t& out) {
  auto value = yaml.Integer(node, what, 0);
  if (!value.ok()) return value.status();
  out = value.value();
  return Status::Ok();
}

Status ReadValue(const SuiteYaml& yaml, const YAML::Node& node, const std::string& what, int& out) {
  auto value = yaml.Integer(node, what, 0);
  if (!value.ok()) return value.status();
  if (value.value() > std::numeric_limits<int>::max()) return yaml.At(node, what + ": too large");
  out = static_cast<int>(value.value());
  return Status::Ok();
}

Status ReadValue(const SuiteYaml& yaml, const YAML::Node& node, const std::string& what, uint64_t& out) {
  auto value = yaml.Unsigned(node, what);
  if (!value.ok()) return value.status();
  out = value.value();
  return Status::Ok();
}

Status ReadValue(const SuiteYaml& yaml, const YAML::Node& node, const std::string& what, double& out) {
  auto value = yaml.Number(node, what);
  if (!value.ok()) return value.status();
  out = value.value();
  return Status::Ok();
}

Status ReadValue(const SuiteYaml& yaml, const YAML::Node& node, const std::string& what, std::optional<double>& out) {
  double value = 0;
  if (Status s = ReadValue(yaml, node, what, value); !s.ok()) return s;
  out = value;
  return Status::Ok();
}

// A repeatable option (dim, input): a list, or one value.
Status ReadValue(const SuiteYaml& yaml, const YAML::Node& node, const std::string& what,
                 std::vector<std::string>& out) {
  out.clear();
  if (!node.IsSequence()) {
    std::string one;
    if (Status s = ReadValue(yaml, node, what, one); !s.ok()) return s;
    out.push_back(one);
    return Status::Ok();
  }
  if (Status s = yaml.List(node, what, "[batch=1, seq=128]"); !s.ok()) return s;
  for (const YAML::Node& item : node) {
    std::string one;
    if (Status s = ReadValue(yaml, item, what, one); !s.ok()) return s;
    out.push_back(one);
  }
  return Status::Ok();
}

// Fills `options` from the mapping `node`; `where` carries errors about the block as a whole.
template <typename Options>
Status ReadFields(const SuiteYaml& yaml, const YAML::Node& node, const YAML::Node& where, const std::string& mode,
                  Options& options) {
  std::vector<std::string> names;
  options.Fields([&](const ModeField& field, auto&) { names.push_back(field.name); });
  std::vector<std::string> given;
  if (!node.IsNull()) {
    if (!node.IsMap()) {
      return yaml.At(node, mode + ": expected a mapping of `edgebench " + mode + "` options (for example " +
                               names.front() + ": ...); got " + TypeName(node));
    }
    for (const auto& item : node) {
      const YAML::Node& key = item.first;
      if (!key.IsScalar() || key.Scalar().empty() || key.Scalar().front() == '-') {
        return yaml.At(key, mode + ": a key is an option's name without its dashes (data, not --data); got " +
                                TypeName(key));
      }
      // max_tokens, as the suite's settings spell their keys, or max-tokens, as the flag does.
      std::string name = key.Scalar();
      std::replace(name.begin(), name.end(), '_', '-');
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        return yaml.At(key, mode + ": " + key.Scalar() + ": `edgebench " + mode + "` has no option --" + name +
                                "; a suite's " + mode + ": block takes " + JoinComma(names));
      }
      if (std::find(given.begin(), given.end(), name) != given.end()) {
        return yaml.At(key, mode + ": " + key.Scalar() + " is given twice");
      }
      given.push_back(name);
      const std::string what = mode + ": " + key.Scalar();
      Status read = Status::Ok();
      options.Fields([&](const ModeField& field, auto& value) {
        if (read.ok() && name == field.name) read = ReadValue(yaml, item.second, what, value);
      });
      if (!read.ok()) return read;
    }
  }
  Status missing = Status::Ok();
  options.Fields([&](const ModeField& field, auto&) {
    if (missing.ok() && (field.flags & kFieldRequired) &&
        std::find(given.begin(), given.end(), field.name) == given.end()) {
      missing = yaml.At(node.IsNull() ? where : node,
                        mode + ": --" + field.name + " is required: give it in the suite's " + mode + ": block (" +
                            field.name + ": ...)");
    }
  });
  return missing;
}

}  // namespace

bool IsSuiteMode(const std::string& scenario) {
  return std::find(std::begin(kSuiteModeNames), std::end(kSuiteModeNames), scenario) != std::end(kSuiteModeNames);
}

SuiteModeBlock DefaultSuiteModeBlock(const std::string& mode) {
  SuiteModeBlock block;
  // The alternative whose kMode is `mode`; the first (accuracy) for a name that is none.
  [&]<size_t... I>(std::index_sequence<I...>) {
    ((std::variant_alternative_t<I, SuiteModeOptions>::kMode == mode
          ? (block.options.emplace<I>(), true)
          : false) ||
     ...);
  }(std::make_index_sequence<std::variant_size_v<SuiteModeOptions>>());
  return block;
}

Result<SuiteModeBlock> ReadSuiteModeBlock(const SuiteYaml& yaml, const YAML::Node& node, const YAML::Node& where,
                                          const std::string& mode) {
  SuiteModeBlock block = DefaultSuiteModeBlock(mode);
  block.line = node.IsNull() ? 0 : SuiteYaml::Line(node);
  Status read = std::visit([&](auto& options) { return ReadFields(yaml, node, where, mode, options); }, block.options);
  if (!read.ok()) return read;
  return block;
}

}  // namespace edgebench
