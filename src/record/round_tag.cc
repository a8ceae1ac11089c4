#include "record/round_tag.h"

namespace edgebench {

nlohmann::json RoundTagToJson(const RoundTag& tag) {
  nlohmann::json j = {{"round", tag.round}, {"rounds", tag.rounds}, {"order", tag.order}, {"position", tag.position}};
  if (tag.order == "shuffled") j["seed"] = tag.seed;
  return j;
}

Result<RoundTag> RoundTagFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::Error("round: expected an object");
  RoundTag tag;
  for (const char* key : {"round", "rounds", "position"}) {
    if (!j.contains(key) || !j.at(key).is_number_integer()) return Status::Error(std::string("round: no integer ") + key);
  }
  tag.round = j.at("round").get<int>();
  tag.rounds = j.at("rounds").get<int>();
  tag.position = j.at("position").get<int>();
  tag.order = j.value("order", "");
  if (j.contains("seed") && j.at("seed").is_number_unsigned()) tag.seed = j.at("seed").get<uint64_t>();
  if (tag.round < 1 || tag.round > tag.rounds) {
    return Status::Error("round: round " + std::to_string(tag.round) + " is outside 1 to " + std::to_string(tag.rounds));
  }
  return tag;
}

std::string RoundKey(const std::string& case_key, int round) {
  return round > 0 ? case_key + "/round" + std::to_string(round) : case_key;
}

}  // namespace edgebench
