// A suite file's mode blocks: `accuracy:`, `agree:` and `drift:`, each a mapping of the command's
// own flags (KEY: VALUE for --KEY VALUE; a list for a repeatable flag such as dim or input), read
// into arguments that the command's own parser checks (cli/suite_modes.h), so a suite says what
// the command can say, checked as the command checks it.
#pragma once

#include <string>
#include <vector>

#include "plan/suite_yaml.h"

namespace edgebench {

// The scenarios of a suite that run a command's mode rather than a load scenario.
inline constexpr const char* kSuiteModeNames[] = {"accuracy", "agree", "drift"};
bool IsSuiteMode(const std::string& scenario);

struct SuiteModeBlock {
  std::vector<std::string> args;  // "--KEY", "VALUE", ... in file order
  int line = 0;                   // of the block's key; 0: the mode has no block (defaults)
};

// Reads `node` (a mapping) as flags; errors name FILE:LINE and the key. The flags' names and
// values are checked later, by the command's parser, which knows them.
Result<SuiteModeBlock> ReadSuiteModeBlock(const SuiteYaml& yaml, const YAML::Node& node, const std::string& mode);

}  // namespace edgebench
