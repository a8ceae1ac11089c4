#include "plan/suite_targets.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "core/cartesian.h"
#include "plan/plan.h"

namespace edgebench {
namespace {

constexpr std::string_view kTargetKeys[] = {"target", "params"};

}  // namespace

// A `params` mapping: option name -> list of values. Each key and value must survive a trip
// through the target syntax, so the expanded target's text means what it says.
Result<std::vector<ParamList>> ReadParamLists(const SuiteYaml& yaml, const YAML::Node& node, const std::string& what) {
  if (!node.IsMap()) {
    return yaml.At(node, what + ": expected a mapping of target options to value lists, for example "
                           "{threads: [1, 2]}; got " + TypeName(node));
  }
  std::vector<ParamList> lists;
  for (const auto& item : node) {
    yaml.NoteKey(item.first, item.second);
    auto key = yaml.String(item.first, what);
    if (!key.ok()) return key.status();
    ParamList list{key.value(), item.first, {}};
    for (const ParamList& earlier : lists) {
      if (earlier.key == list.key) {
        return yaml.At(item.first, what + ": '" + list.key + "' given twice (first on line " +
                                  std::to_string(SuiteYaml::Line(earlier.key_node)) + ")");
      }
    }
    if (Status s = yaml.List(item.second, what + ": " + list.key, "[1, 2]"); !s.ok()) return s;
    for (const YAML::Node& value_node : item.second) {
      auto value = yaml.String(value_node, what + ": " + list.key);
      if (!value.ok()) return value.status();
      auto probe = ParseTarget("b:d?" + list.key + "=" + value.value());
      if (!probe.ok() || probe.value().options.size() != 1 ||
          probe.value().options.begin()->first != list.key ||
          probe.value().options.begin()->second != value.value()) {
        return yaml.At(value_node, what + ": option " + list.key + "=" + value.value() +
                                  " cannot be written in a target; names and values may not "
                                  "contain '&', and names may not contain '='");
      }
      for (const ParamValue& earlier : list.values) {
        if (earlier.value == value.value()) {
          return yaml.At(value_node, what + ": " + list.key + " lists '" + value.value() + "' twice");
        }
      }
      list.values.push_back({value.value(), value_node});
    }
    lists.push_back(std::move(list));
  }
  return lists;
}

// One `targets` entry expanded with the suite's option lists and its own.
Result<std::vector<Target>> ExpandSuiteTarget(const SuiteYaml& yaml, const YAML::Node& entry,
                                              const std::vector<ParamList>& suite_params,
                                              const std::vector<std::string>& known_backends) {
  std::optional<YAML::Node> text_in_map;
  std::vector<ParamList> own;
  if (entry.IsMap()) {
    auto fields = yaml.Fields(entry, "a target", kTargetKeys);
    if (!fields.ok()) return fields.status();
    if (!fields.value().count("target")) return yaml.At(entry, "a target mapping needs target:");
    text_in_map.emplace(fields.value()["target"]);
    if (fields.value().count("params")) {
      auto lists = ReadParamLists(yaml, fields.value()["params"], "params of the target");
      if (!lists.ok()) return lists.status();
      own = lists.take();
    }
  }
  const YAML::Node& text_node = text_in_map ? *text_in_map : entry;
  auto text = yaml.String(text_node, "target");
  if (!text.ok()) return text.status();
  auto target = ParseTarget(text.value());
  if (!target.ok()) return yaml.At(text_node, target.error());
  if (!known_backends.empty() &&
      std::find(known_backends.begin(), known_backends.end(),
                target.value().backend) == known_backends.end()) {
    return yaml.At(text_node, "target '" + text.value() + "': unknown backend '" +
                             target.value().backend + "'; known backends: " +
                             JoinComma(known_backends));
  }
  // An option is given once: in the target's text, its own lists or the suite's lists.
  for (const ParamList& list : own) {
    if (target.value().options.count(list.key)) {
      return yaml.At(list.key_node, "option '" + list.key + "' is both in target '" + text.value() +
                                   "' and in its params; give it once");
    }
  }
  std::vector<const ParamList*> lists;
  for (const ParamList& list : suite_params) {
    if (target.value().options.count(list.key)) {
      return yaml.At(text_node, "option '" + list.key + "' of target '" + text.value() +
                               "' is also listed in the suite's params (line " +
                               std::to_string(SuiteYaml::Line(list.key_node)) +
                               "); give it once: move the target's lists into its own params");
    }
    for (const ParamList& mine : own) {
      if (mine.key == list.key) {
        return yaml.At(mine.key_node, "option '" + list.key + "' of target '" + text.value() +
                                     "' is also listed in the suite's params (line " +
                                     std::to_string(SuiteYaml::Line(list.key_node)) + "); give it once");
      }
    }
    lists.push_back(&list);
  }
  for (const ParamList& list : own) lists.push_back(&list);
  std::vector<size_t> sizes;
  for (const ParamList* list : lists) sizes.push_back(list->values.size());
  if (Status s = CheckCaseCount(CartesianCount(sizes), "target '" + target.value().text + "' with its params");
      !s.ok()) {
    return yaml.At(entry, s.message());
  }
  std::vector<Target> expanded;
  ForEachCombination(sizes, [&](const std::vector<size_t>& index) {  // the last list varies fastest
    Target combination = target.value();
    for (size_t i = 0; i < lists.size(); ++i) {
      combination.options[lists[i]->key] = lists[i]->values[index[i]].value;
    }
    combination.text = combination.Canonical();
    expanded.push_back(std::move(combination));
  });
  return expanded;
}

}  // namespace edgebench
