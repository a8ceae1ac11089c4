// The host stages of a pipeline (pipeline/stage.h), each timed on the harness clock like a
// model stage, with the lane thread's CPU time beside its wall time:
//   decode_image    the query's input, an encoded image's bytes (uint8 [N], a PNG or JPEG file
//                   as read), decoded to RGB: the query's frame. Its item carries no tensors:
//                   the stages after it read the frame.
//   preprocess      the frame resized (bilinear), scaled, normalized and laid out as a model
//                   takes it, in --preprocess's vocabulary (inputs/image_input.h): one float32
//                   tensor.
//   ssd_detections  a detector's raw outputs (BlazeFace's regressors and classificators)
//                   decoded against its SSD anchors and merged by non-maximum suppression, as
//                   `agree` decodes them (postprocess/ssd_detections.h), with the boxes in
//                   pixels of the frame: detection_boxes [N,4], detection_scores [N],
//                   detection_keypoints [N,K,2].
//   crop            each detection's box cut from the frame (clamped to it) and preprocessed:
//                   one item per detection, the best-scoring first, at most `max_detections`:
//                   the stages after it run once per detection.
//   top_k           the k largest values of the item's first tensor (flattened) by value
//                   descending, ties by index: indices int64 [k] and values float32 [k].
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "inputs/image_input.h"
#include "pipeline/stage.h"
#include "postprocess/ssd_detections.h"

namespace edgebench {

std::unique_ptr<Stage> MakeDecodeImageStage(std::string name);
std::unique_ptr<Stage> MakePreprocessStage(std::string name, ImagePreprocess preprocess);
// The anchors are generated here; an error names the option that gives none.
Result<std::unique_ptr<Stage>> MakeSsdDetectionsStage(std::string name, SsdDetectionsOptions options);
// max_detections < 0: every detection.
std::unique_ptr<Stage> MakeCropStage(std::string name, ImagePreprocess preprocess, int max_detections);
std::unique_ptr<Stage> MakeTopKStage(std::string name, int k);

// The region of the frame a box (left, top, right, bottom in frame pixels) covers: rounded
// outward to whole pixels and clamped to the width x height frame. Empty (w or h 0) when the
// box lies outside the frame, has no area or a coordinate that is not a number.
struct PixelRegion {
  int x = 0, y = 0, w = 0, h = 0;
};
PixelRegion BoxRegion(double left, double top, double right, double bottom, int width, int height);

}  // namespace edgebench
