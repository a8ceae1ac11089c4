// A stage of a pipeline: one step of a query, on the host (decode, resize, non-maximum
// suppression, crop) or a model on its own target. A query's items flow through the stages in
// order: the query's input is one item; a stage turns each item it is given into zero or more
// (a model maps one to one, a crop makes one per detection), so a stage after a fan-out runs
// once per item: a frame with three faces costs the feature model three calls.
#pragma once

#include <string>
#include <vector>

#include "backends/backend.h"
#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

struct StageItem {
  std::vector<Tensor> tensors;
};

enum class StageKind { kHost, kModel };

class Stage {
 public:
  virtual ~Stage() = default;
  virtual const std::string& name() const = 0;
  virtual StageKind kind() const = 0;
  // Appends what the item `in` (its tensors) becomes to `out` (zero or more items); an error
  // fails the query.
  virtual Status Run(const std::vector<Tensor>& in, std::vector<StageItem>& out) = 0;
};

// A model stage: one item in, the session's outputs as one item out.
class ModelStage final : public Stage {
 public:
  ModelStage(std::string name, Session* session) : name_(std::move(name)), session_(session) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kModel; }
  Status Run(const std::vector<Tensor>& in, std::vector<StageItem>& out) override {
    StageItem item;
    Status status = session_->Run(in, item.tensors);
    if (status.ok()) out.push_back(std::move(item));
    return status;
  }

 private:
  std::string name_;
  Session* session_;
};

}  // namespace edgebench
