// What Arm NN's TFLite parser kept of an operator's options, checked against the file: Arm NN
// 23.08 builds RESIZE_BILINEAR layers with HalfPixelCenters off whatever the file asks, so a model
// whose resizes use half-pixel centers (the full-range BlazeFace) gives other outputs than TFLite.
// A note per operator whose layer differs, so the record says why, not only that, outputs differ.
#pragma once

#include <string>
#include <vector>

#include "backends/armnn/armnn_graph.h"

namespace edgebench {

// Notes for the Resize layers whose AlignCorners or HalfPixelCenters differ from the options of
// the TFLite operator they came from. Empty where none differ, or where edgebench was built
// without TensorFlow Lite's schema header (then nothing is checked, and one note says so).
std::vector<std::string> ArmNnResizeOptionNotes(const std::string& tflite_path, const std::vector<ArmNnLayer>& layers);

}  // namespace edgebench
