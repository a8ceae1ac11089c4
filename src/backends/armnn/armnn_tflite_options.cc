#include "backends/armnn/armnn_tflite_options.h"

#include <fstream>
#include <iterator>

#if __has_include(<tensorflow/lite/schema/schema_generated.h>)
#include <tensorflow/lite/schema/schema_generated.h>
#define EDGEBENCH_ARMNN_HAS_TFLITE_SCHEMA 1
#else
#define EDGEBENCH_ARMNN_HAS_TFLITE_SCHEMA 0
#endif

namespace edgebench {

std::vector<std::string> ArmNnResizeOptionNotes(const std::string& tflite_path, const std::vector<ArmNnLayer>& layers) {
  bool any_resize = false;
  for (const ArmNnLayer& layer : layers) any_resize = any_resize || layer.type == "Resize";
  if (!any_resize) return {};
#if EDGEBENCH_ARMNN_HAS_TFLITE_SCHEMA
  std::ifstream in(tflite_path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!tflite::VerifyModelBuffer(verifier)) return {};
  const tflite::Model* model = tflite::GetModel(bytes.data());
  if (!model->subgraphs() || model->subgraphs()->size() == 0 || !model->operator_codes()) return {};
  const auto* operators = model->subgraphs()->Get(0)->operators();
  if (!operators) return {};
  std::vector<std::string> notes;
  for (const ArmNnLayer& layer : layers) {
    if (layer.type != "Resize") continue;
    for (int index : TfliteOperatorsOfLayer(layer.name)) {
      if (index < 0 || static_cast<size_t>(index) >= operators->size()) continue;
      const tflite::Operator* op = operators->Get(static_cast<flatbuffers::uoffset_t>(index));
      bool align_corners = false, half_pixel = false;
      std::string op_name;
      if (const auto* bilinear = op->builtin_options_as_ResizeBilinearOptions()) {
        align_corners = bilinear->align_corners();
        half_pixel = bilinear->half_pixel_centers();
        op_name = "RESIZE_BILINEAR";
      } else if (const auto* nearest = op->builtin_options_as_ResizeNearestNeighborOptions()) {
        align_corners = nearest->align_corners();
        half_pixel = nearest->half_pixel_centers();
        op_name = "RESIZE_NEAREST_NEIGHBOR";
      } else {
        continue;
      }
      const auto field = [&](const char* key) {
        const auto it = layer.parameters.find(key);
        return it == layer.parameters.end() ? std::string("?") : it->second;
      };
      const std::string layer_align = field("AlignCorners"), layer_half = field("HalfPixelCenters");
      if (layer_align == (align_corners ? "1" : "0") && layer_half == (half_pixel ? "1" : "0")) continue;
      notes.push_back("Arm NN's TFLite parser built " + op_name + " operator #" + std::to_string(index) +
                      " as a Resize layer with AlignCorners " + layer_align + ", HalfPixelCenters " + layer_half +
                      "; the file asks align_corners=" + (align_corners ? "1" : "0") +
                      ", half_pixel_centers=" + (half_pixel ? "1" : "0") +
                      ": its outputs will differ from TensorFlow Lite's");
    }
  }
  return notes;
#else
  (void)tflite_path;
  return {"the Resize layers' options were not checked against the file (edgebench was built without "
          "TensorFlow Lite's schema header)"};
#endif
}

}  // namespace edgebench
