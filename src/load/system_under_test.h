// What a scenario issues its queries to (MLPerf LoadGen's SystemUnderTest and IssueQuery): the
// scenario owns the schedule and the clock, the system only answers queries. One model session
// (or one per stream) is one system; a pipeline of several models and host stages per query is
// another, and every scenario runs on either without change.
#pragma once

#include <vector>

#include "backends/backend.h"
#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

class SystemUnderTest {
 public:
  virtual ~SystemUnderTest() = default;
  // Lanes the system offers: 1 (every stream or worker shares it) or one per stream or worker,
  // each used by one thread at a time.
  virtual int lanes() const = 0;
  // Answers one query on `lane` (0 when the system has one lane): `outputs` are written; a
  // failure is the query's, and the scenario stops with it.
  virtual Status IssueQuery(int lane, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) = 0;
};

// One model: lane i runs on sessions[i], or every lane on sessions[0] when there is one.
class SessionSystem final : public SystemUnderTest {
 public:
  explicit SessionSystem(std::vector<Session*> sessions) : sessions_(std::move(sessions)) {}
  int lanes() const override { return static_cast<int>(sessions_.size()); }
  Status IssueQuery(int lane, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    return sessions_[sessions_.size() == 1 ? 0 : static_cast<size_t>(lane)]->Run(inputs, outputs);
  }

 private:
  std::vector<Session*> sessions_;
};

}  // namespace edgebench
