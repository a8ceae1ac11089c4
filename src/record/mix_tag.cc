#include "record/mix_tag.h"

#include <exception>

#include "record/monitor_json.h"

namespace edgebench {

nlohmann::json MixTagToJson(const MixTag& tag) {
  nlohmann::json objectives = nlohmann::json::array();
  for (const MixObjective& o : tag.objectives) {
    objectives.push_back({{"text", o.text}, {"metric", o.metric}, {"at_most", o.at_most}, {"bound", o.bound}});
  }
  nlohmann::json j = {{"mix", tag.mix},
                      {"run", tag.run},
                      {"workload", tag.workload},
                      {"phase", tag.phase},
                      {"round", tag.round},
                      {"beside", tag.beside},
                      {"objectives", objectives},
                      {"phase_start_ns", tag.phase_start_ns},
                      {"process_start_ns", tag.process_start_ns},
                      {"process_end_ns", tag.process_end_ns},
                      {"isolation", tag.isolation}};
  if (tag.exit_code) j["exit_code"] = *tag.exit_code;
  if (tag.machine) j["machine"] = MonitorRecordToJson(*tag.machine);
  return j;
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
  if (j.contains("run") && j.at("run").is_string()) tag.run = j.at("run").get<std::string>();
  if (j.contains("isolation") && j.at("isolation").is_string()) tag.isolation = j.at("isolation").get<std::string>();
  if (j.contains("round") && j.at("round").is_number_integer()) tag.round = j.at("round").get<int>();
  if (j.contains("beside") && j.at("beside").is_array()) {
    for (const auto& name : j.at("beside")) {
      if (name.is_string()) tag.beside.push_back(name.get<std::string>());
    }
  }
  if (j.contains("objectives") && j.at("objectives").is_array()) {
    for (const auto& o : j.at("objectives")) {
      if (!o.is_object() || !o.contains("metric") || !o.at("metric").is_string() || !o.contains("bound") ||
          !o.at("bound").is_number()) {
        return Status::Error("mix: an objective without a metric and a numeric bound: " + o.dump());
      }
      tag.objectives.push_back({o.value("text", ""), o.at("metric").get<std::string>(), o.value("at_most", true),
                                o.at("bound").get<double>()});
    }
  }
  for (auto [key, field] : {std::pair{"phase_start_ns", &tag.phase_start_ns},
                            std::pair{"process_start_ns", &tag.process_start_ns},
                            std::pair{"process_end_ns", &tag.process_end_ns}}) {
    if (j.contains(key) && j.at(key).is_number_integer()) *field = j.at(key).get<int64_t>();
  }
  if (j.contains("exit_code") && j.at("exit_code").is_number_integer()) tag.exit_code = j.at("exit_code").get<int>();
  if (j.contains("machine")) {
    try {
      tag.machine = MonitorRecordFromJson(j.at("machine"));
    } catch (const std::exception& e) {
      return Status::Error(std::string("mix: machine: ") + e.what());
    }
  }
  return tag;
}

}  // namespace edgebench
