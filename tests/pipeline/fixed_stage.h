// A host stage of known cost for pipeline tests: each call advances an injected clock by `ns`
// (or, without a clock, sleeps 20 us: a real, bounded cost), makes `fanout` items of each one it
// is given, and fails its call number `fail_at` (1-based; 0: never).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "pipeline/stage.h"

namespace edgebench::testing {

class FixedStage final : public Stage {
 public:
  FixedStage(std::string name, int64_t ns, int fanout, std::atomic<int64_t>* clock, int64_t fail_at = 0)
      : name_(std::move(name)), ns_(ns), fanout_(fanout), clock_(clock), fail_at_(fail_at) {}
  const std::string& name() const override { return name_; }
  StageKind kind() const override { return StageKind::kHost; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    if (clock_) {
      *clock_ += ns_;
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    if (++calls_ == fail_at_) return Status::Error("a crop of zero size");
    for (int i = 0; i < fanout_; ++i) out.push_back({in, frame});
    return Status::Ok();
  }

 private:
  std::string name_;
  int64_t ns_;
  int fanout_;
  std::atomic<int64_t>* clock_;
  int64_t fail_at_;
  int64_t calls_ = 0;
};

}  // namespace edgebench::testing
