#include "load/batch_binding.h"

namespace edgebench {

Result<ShapeBindings> BindBatch(const Signature& signature, int64_t batch, ShapeBindings bindings) {
  bool any = false;
  for (const TensorSpec& input : signature.inputs) {
    if (input.shape.empty()) continue;
    any = true;
    const Dim& first = input.shape[0];
    if (first.fixed()) {
      if (first.size == batch) continue;
      return Status::Error("--batch " + std::to_string(batch) + ": input '" + input.name + "' has a fixed first axis of " +
                           std::to_string(first.size) + " (shape " + ShapeToString(input.shape) +
                           "), so the model cannot take another batch; export it with a dynamic batch "
                           "dimension, or leave --batch unset");
    }
    const std::string by_axis = input.name + ".0";
    for (const std::string& key : {by_axis, first.symbol}) {
      auto it = bindings.find(key);
      if (it != bindings.end() && it->second != batch) {
        return Status::Error("--batch " + std::to_string(batch) + " and --dim " + key + "=" +
                             std::to_string(it->second) + " disagree on the batch of input '" + input.name +
                             "'; give one of them");
      }
    }
    bindings[by_axis] = batch;
  }
  if (!any) {
    return Status::Error("--batch " + std::to_string(batch) + ": the model's inputs have no axis to batch (all are scalars)");
  }
  return bindings;
}

}  // namespace edgebench
