// A suite file's mode blocks: `accuracy:`, `agree:` and `drift:`, each a mapping of the command's
// own options (KEY: VALUE for --KEY VALUE; a list for a repeatable one such as dim or input),
// read straight into the mode's typed options (plan/mode_fields.h), the struct the command's
// flags fill: a suite says what the command can say, and every mistake is FILE:LINE:COL.
#pragma once

#include <iterator>
#include <string>
#include <variant>

#include "plan/accuracy_plan.h"
#include "plan/agree_plan.h"
#include "plan/drift_plan.h"
#include "plan/suite_yaml.h"

namespace edgebench {

// The options of each mode a suite may list; each names its mode (kMode), the name a suite's
// scenarios list and its block's key use.
using SuiteModeOptions = std::variant<AccuracyOptions, AgreeOptions, DriftOptions>;

// The scenarios of a suite that run a command's mode rather than a load scenario, in the
// variant's order.
inline constexpr const char* kSuiteModeNames[] = {AccuracyOptions::kMode, AgreeOptions::kMode, DriftOptions::kMode};
static_assert(std::size(kSuiteModeNames) == std::variant_size_v<SuiteModeOptions>);
bool IsSuiteMode(const std::string& scenario);

struct SuiteModeBlock {
  SuiteModeOptions options;  // the command's defaults where the block is silent
  int line = 0;              // of the block's key; 0: the mode has no block (defaults)
};

// The block of `mode` with its defaults: what a suite that lists the mode without a block runs.
SuiteModeBlock DefaultSuiteModeBlock(const std::string& mode);

// Reads `node` (a mapping, or a null node when the suite lists the mode without a block) into
// `mode`'s options: an unknown key, a value of the wrong type and a required option left out are
// errors at FILE:LINE:COL (at `where`, the mode in the scenarios list, when there is no block).
Result<SuiteModeBlock> ReadSuiteModeBlock(const SuiteYaml& yaml, const YAML::Node& node, const YAML::Node& where,
                                          const std::string& mode);

}  // namespace edgebench
