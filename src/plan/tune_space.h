// `edgebench tune --space`: the configurations to race, as lists whose cartesian product is the
// space (llama-bench-style lists):
//   target=ort:cpu,ort:xnnpack,litert:xnnpack;threads=1,2,4;batch=1,4
// `target` is required; `batch` binds the first axis of every model input (as offline's
// --batch); every other key is a target option (threads, opt, hint, ...) given to every target,
// so a target may not also set it in its own text.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "backends/target.h"
#include "core/status.h"

namespace edgebench {

struct SpaceDimension {
  std::string key;
  std::vector<std::string> values;
};

struct TuneConfiguration {
  std::string label;   // "ort:cpu threads=2 batch=4": the target as listed, then the other keys
  Target target;       // with the space's options applied; text is the canonical spelling
  int64_t batch = 0;   // 0: the model's own
  std::map<std::string, std::string> values;  // key -> value, every key of the space
};

// An error says which part of the text is wrong and what the form is.
Result<std::vector<SpaceDimension>> ParseSpace(const std::string& text);

// The cartesian product, the first key varying slowest. An error names a target that does not
// parse, an option it already sets, or a batch that is not a positive integer.
Result<std::vector<TuneConfiguration>> ExpandSpace(const std::vector<SpaceDimension>& space);

}  // namespace edgebench
