// An artifact's outputs as a model manifest says to compare them: renamed, or several outputs
// concatenated along an axis into one. Twins exported by different converters often split or
// name an output differently (the ONNX BlazeFace gives its 896 anchors' regressors as two
// outputs, 512 + 384, where the TFLite model has one); the mapping makes them comparable.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

struct OutputMapping {
  std::string name;                  // the output's name after mapping
  std::vector<std::string> sources;  // the artifact's outputs: one renames, several concatenate
  int axis = 0;                      // concatenation axis; negative counts from the last
};

// Replaces each mapping's sources with one output of the mapping's name (sources concatenated in
// the given order along `axis`); outputs no mapping names stay as they are, after the mapped ones.
// Errors, naming `artifact`: a source the outputs lack (listing those there are), a source used
// twice, sources whose types, ranks or sizes off the axis differ, an axis out of range.
Result<std::vector<Tensor>> ApplyOutputMapping(const std::vector<OutputMapping>& mapping,
                                               std::vector<Tensor> outputs, const std::string& artifact);

}  // namespace edgebench
