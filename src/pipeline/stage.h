// A stage of a pipeline: one step of a query, on the host (decode, resize, non-maximum
// suppression, crop) or a model on its own target. A query's items flow through the stages in
// order: the query's input is one item; a stage turns each item it is given into zero or more
// (a model maps one to one, a crop makes one per detection), so a stage after a fan-out runs
// once per item: a frame with three faces costs the feature model three calls.
//
// Beside its tensors an item carries the query's frame: the decoded image the decode stage made,
// shared by every item of the query, so that a stage long after it (a crop after the detector)
// can still cut from it. Stages that do not read it pass it on.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend.h"
#include "core/status.h"
#include "core/tensor.h"
#include "diagnose/output_mapping.h"

namespace edgebench {

// The query's decoded frame: uint8 [1,H,W,C] pixels; null before a decode stage ran.
using Frame = std::shared_ptr<const Tensor>;

struct StageItem {
  std::vector<Tensor> tensors;
  Frame frame;
};

enum class StageKind { kHost, kModel };

class Stage {
 public:
  virtual ~Stage() = default;
  virtual const std::string& name() const = 0;
  virtual StageKind kind() const = 0;
  // Appends what the item (its tensors `in` and the query's `frame`) becomes to `out` (zero or
  // more items); an error fails the query.
  virtual Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) = 0;
  // A stage in the pipeline's loop (a diffusion's denoising steps, pipeline_system.h) is told
  // which step it is at before each step's Run; the others never are.
  virtual void SetStep(int step) { (void)step; }
};

// A model stage: one item in, the session's outputs as one item out, renamed or concatenated
// as the artifact's manifest maps them (diagnose/output_mapping.h) when it does.
class ModelStage final : public Stage {
 public:
  ModelStage(std::string name, Session* session, std::vector<OutputMapping> outputs = {})
      : name_(std::move(name)), session_(session), outputs_(std::move(outputs)) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kModel; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    StageItem item;
    item.frame = frame;
    if (Status status = session_->Run(in, item.tensors); !status.ok()) return status;
    if (!outputs_.empty()) {
      auto mapped = ApplyOutputMapping(outputs_, std::move(item.tensors), name_);
      if (!mapped.ok()) return mapped.status();
      item.tensors = mapped.take();
    }
    out.push_back(std::move(item));
    return Status::Ok();
  }

 private:
  std::string name_;
  Session* session_;
  std::vector<OutputMapping> outputs_;
};

}  // namespace edgebench
