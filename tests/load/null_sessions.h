// Prepared null-backend sessions and one input sample, for the load loops' tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/null/null_backend.h"
#include "inputs/input_generator.h"

namespace edgebench::testing {

struct NullSessions {
  NullBackend backend;
  std::vector<std::unique_ptr<Session>> owned;
  std::vector<Session*> raw;
  std::vector<std::vector<Tensor>> pool;
};

// `count` sessions of `target` (e.g. "null:sleep?us=200"), prepared at [1 x 16].
inline std::unique_ptr<NullSessions> MakeNullSessions(const std::string& target, int count) {
  auto s = std::make_unique<NullSessions>();
  for (int i = 0; i < count; ++i) {
    s->owned.push_back(s->backend.Load({"unused"}, ParseTarget(target).take()).take());
    EXPECT_TRUE(s->owned.back()->Prepare({{1, 16}}).ok());
    s->raw.push_back(s->owned.back().get());
  }
  s->pool.push_back(GenerateInputs(s->owned[0]->signature(), {{1, 16}}, 0).take());
  return s;
}

}  // namespace edgebench::testing
