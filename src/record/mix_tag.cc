#include "record/mix_tag.h"

namespace edgebench {

nlohmann::json MixTagToJson(const MixTag& tag) {
  return {{"mix", tag.mix}, {"workload", tag.workload}, {"phase", tag.phase}, {"beside", tag.beside}};
}

Result<MixTag> MixTagFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::Error("mix: expected an object");
  MixTag tag;
  for (const char* key : {"mix", "workload", "phase"}) {
    if (!j.contains(key) || !j.at(key).is_string()) return Status::Error(std::string("mix: no text ") + key);
  }
  tag.mix = j.at("mix").get<std::string>();
  tag.workload = j.at("workload").get<std::string>();
  tag.phase = j.at("phase").get<std::string>();
  if (tag.phase != "alone" && tag.phase != "mixed") {
    return Status::Error("mix: phase is '" + tag.phase + "', not alone or mixed");
  }
  if (j.contains("beside") && j.at("beside").is_array()) {
    for (const auto& name : j.at("beside")) {
      if (name.is_string()) tag.beside.push_back(name.get<std::string>());
    }
  }
  return tag;
}

}  // namespace edgebench
