// The record's `round` section (docs/rounds.md): which of a command's --rounds this case was,
// and in what order the round ran its cases, so that a summary across rounds and a replay of the
// order read it from the records alone.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace edgebench {

struct RoundTag {
  int round = 0;        // 1-based
  int rounds = 0;       // how many the command ran
  std::string order;    // "interleaved" or "shuffled"
  uint64_t seed = 0;    // the shuffle's seed (shuffled only)
  int position = 0;     // 1-based place of this case within its round
};

nlohmann::json RoundTagToJson(const RoundTag& tag);
// An error names the field that is missing or out of range.
Result<RoundTag> RoundTagFromJson(const nlohmann::json& json);

// What a resumed command looks a case up by: the case key, and its round when it has one.
std::string RoundKey(const std::string& case_key, int round);

}  // namespace edgebench
