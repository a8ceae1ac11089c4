// `edgebench tune`'s answer for people: the winner with its interval, the runner-up and the
// margin, every configuration dropped with its round and reason, every one pruned before
// running, and the time spent against the exhaustive sweep's at the same final precision.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tune/race_records.h"

namespace edgebench {

std::string RaceText(const RaceDescription& race, const RaceResult& result);
nlohmann::json RaceAnswerJson(const RaceDescription& race, const RaceResult& result);

}  // namespace edgebench
