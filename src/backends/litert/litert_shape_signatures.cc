#include "backends/litert/litert_shape_signatures.h"

namespace edgebench {

ShapeSignatures ReadShapeSignatures(const tflite::Model& model) {
  ShapeSignatures result;
  const auto* subgraphs = model.subgraphs();
  if (!subgraphs || subgraphs->size() == 0) return result;
  auto shape_of = [&](const tflite::SubGraph* graph, int tensor_index) {
    std::vector<int64_t> dims;
    const auto* tensors = graph->tensors();
    if (!tensors || tensor_index < 0 || tensor_index >= static_cast<int>(tensors->size())) return dims;
    const tflite::Tensor* t = tensors->Get(static_cast<flatbuffers::uoffset_t>(tensor_index));
    const auto* sig = t->shape_signature() && t->shape_signature()->size() ? t->shape_signature() : t->shape();
    if (sig) dims.assign(sig->begin(), sig->end());
    return dims;
  };
  // LiteRT's C API reports no quantization parameters: the file's are read here.
  auto quantization_of = [&](const tflite::SubGraph* graph, int tensor_index) {
    TensorQuantization q;
    const auto* tensors = graph->tensors();
    if (!tensors || tensor_index < 0 || tensor_index >= static_cast<int>(tensors->size())) return q;
    const tflite::Tensor* t = tensors->Get(static_cast<flatbuffers::uoffset_t>(tensor_index));
    const auto* params = t->quantization();
    if ((t->type() != tflite::TensorType_INT8 && t->type() != tflite::TensorType_UINT8) || !params ||
        !params->scale() || !params->zero_point() || params->scale()->size() == 0) {
      return q;
    }
    q.scales.assign(params->scale()->begin(), params->scale()->end());
    q.zero_points.assign(params->zero_point()->begin(), params->zero_point()->end());
    q.axis = params->quantized_dimension();
    return q;
  };
  auto add = [&](const tflite::SubGraph* graph, int index, bool input) {
    (input ? result.inputs : result.outputs).push_back(shape_of(graph, index));
    (input ? result.input_quantization : result.output_quantization).push_back(quantization_of(graph, index));
  };
  const auto* defs = model.signature_defs();
  if (defs && defs->size() > 0) {
    const tflite::SignatureDef* def = defs->Get(0);
    const tflite::SubGraph* graph = subgraphs->Get(def->subgraph_index());
    if (def->inputs()) {
      for (const auto* in : *def->inputs()) add(graph, static_cast<int>(in->tensor_index()), true);
    }
    if (def->outputs()) {
      for (const auto* out : *def->outputs()) add(graph, static_cast<int>(out->tensor_index()), false);
    }
    return result;
  }
  const tflite::SubGraph* graph = subgraphs->Get(0);
  if (graph->inputs()) {
    for (int index : *graph->inputs()) add(graph, index, true);
  }
  if (graph->outputs()) {
    for (int index : *graph->outputs()) add(graph, index, false);
  }
  return result;
}

}  // namespace edgebench
