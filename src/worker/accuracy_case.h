// One accuracy pass (`edgebench accuracy`) in a worker: load an artifact on a target, load the
// labelled data set in the worker itself (images never cross the pipe), run a few warmup
// inferences (excluded), then for every image preprocess it (timed), run it (timed) and keep the
// model's top-5 classes. The orchestrator computes accuracy from the per-image answers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/registry.h"
#include "core/placement.h"
#include "inputs/labelled_images.h"
#include "plan/model_spec.h"
#include "worker/case_record.h"

namespace edgebench {

struct AccuracyRequest {
  std::string model;
  // Its layout, when declared, is the layout images are given in (a .tflite beside an .onnx);
  // otherwise the preprocess's, else whichever fits the model's input.
  ArtifactSpec artifact;
  Target target;
  DataSetSpec data;
  std::string preprocess;            // --preprocess text (inputs/image_input.h)
  std::vector<std::string> labels;   // the manifest's class names; its count is checked
  int64_t warmup = 3;                // inferences on the first image before the timed pass
};

struct AccuracyResult {
  std::string status = "ok";  // as CaseStatusName
  std::string stage;
  std::string error;
  std::string effective_target;
  std::string artifact;
  Placement placement;
  std::vector<std::string> notes;  // the runtime's messages, and what the worker adapted
  // The data set as read.
  std::string data_description;
  int64_t data_total = 0;    // images in the split
  int32_t data_classes = 0;  // classes the data set has
  std::string input;         // the model input fed, e.g. "input [1x1x28x28] nchw"
  std::string output;        // the class-score output read, e.g. "logits [1x10]"
  int64_t classes = 0;       // the model's class count
  int64_t load_ns = 0;
  int64_t warmup = 0;        // warmup inferences run
  // Per image, in data set order.
  std::vector<int32_t> labels;
  std::vector<int32_t> top1;    // predicted class; -1 when the scores had a NaN
  std::vector<bool> in_top5;    // the label is among the 5 best (the best `classes` when fewer)
  std::vector<int64_t> preprocess_ns;
  std::vector<int64_t> inference_ns;
  int64_t nonfinite_outputs = 0;  // images whose scores had a NaN or infinity
};

nlohmann::json AccuracyRequestToJson(const AccuracyRequest& request);
Result<AccuracyRequest> AccuracyRequestFromJson(const nlohmann::json& json);
nlohmann::json AccuracyResultToJson(const AccuracyResult& result);
Result<AccuracyResult> AccuracyResultFromJson(const nlohmann::json& json);

AccuracyResult RunAccuracyCase(const AccuracyRequest& request, Registry& registry,
                               const StageCallback& on_stage = {});

}  // namespace edgebench
