#include "plan/suite_modes.h"

#include <algorithm>
#include <iterator>

namespace edgebench {

bool IsSuiteMode(const std::string& scenario) {
  return std::find(std::begin(kSuiteModeNames), std::end(kSuiteModeNames), scenario) != std::end(kSuiteModeNames);
}

Result<SuiteModeBlock> ReadSuiteModeBlock(const SuiteYaml& yaml, const YAML::Node& node, const std::string& mode) {
  SuiteModeBlock block;
  block.line = SuiteYaml::Line(node);
  if (node.IsNull()) return block;
  if (!node.IsMap()) {
    return yaml.At(node, mode + ": expected a mapping of `edgebench " + mode + "` flags (for example data: "
                         "fashion-mnist); got " + TypeName(node));
  }
  for (const auto& item : node) {
    const YAML::Node& key = item.first;
    const YAML::Node& value = item.second;
    if (!key.IsScalar() || key.Scalar().empty() || key.Scalar().front() == '-') {
      return yaml.At(key, mode + ": a key is a flag's name without its dashes (data, not --data); got " +
                              TypeName(key));
    }
    // max_tokens, as the suite's settings spell their keys, or max-tokens, as the flag does.
    std::string flag = "--" + key.Scalar();
    std::replace(flag.begin(), flag.end(), '_', '-');
    const std::string what = mode + ": " + key.Scalar();
    if (value.IsSequence()) {
      // A repeatable flag (dim, input): once per item.
      if (Status s = yaml.List(value, what, "[batch=1, seq=128]"); !s.ok()) return s;
      for (const YAML::Node& v : value) {
        auto text = yaml.String(v, what);
        if (!text.ok()) return text.status();
        block.args.push_back(flag);
        block.args.push_back(text.value());
      }
      continue;
    }
    auto text = yaml.String(value, what);
    if (!text.ok()) return text.status();
    block.args.push_back(flag);
    block.args.push_back(text.value());
  }
  return block;
}

}  // namespace edgebench
