// A suite's targets: each `targets:` entry (a target's text, or a mapping with its own
// `params:`) expanded with the suite's option lists and its own into the targets it stands for,
// every option given once and able to be written in a target's text.
#pragma once

#include <string>
#include <vector>

#include "backends/target.h"
#include "plan/suite_yaml.h"

namespace edgebench {

// One option list value with where it was written.
struct ParamValue {
  std::string value;
  YAML::Node node;
};
struct ParamList {
  std::string key;
  YAML::Node key_node;
  std::vector<ParamValue> values;
};

// A `params` mapping: option name -> list of values, each key and value able to survive a trip
// through the target syntax (so the expanded target's text means what it says).
Result<std::vector<ParamList>> ReadParamLists(const SuiteYaml& yaml, const YAML::Node& node, const std::string& what);

// One `targets` entry expanded with the suite's lists and its own (the last list varies
// fastest). `known_backends`: empty accepts any backend.
Result<std::vector<Target>> ExpandSuiteTarget(const SuiteYaml& yaml, const YAML::Node& entry,
                                              const std::vector<ParamList>& suite_params,
                                              const std::vector<std::string>& known_backends);

}  // namespace edgebench
