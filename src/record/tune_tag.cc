#include "record/tune_tag.h"

namespace edgebench {

nlohmann::json TuneTagToJson(const TuneTag& tag) {
  nlohmann::json entrants = nlohmann::json::array();
  for (const TuneEntrantTag& e : tag.entrants) {
    entrants.push_back({{"label", e.label}, {"inferences_per_query", e.inferences_per_query}});
  }
  nlohmann::json pruned = nlohmann::json::array();
  for (const TunePrunedTag& p : tag.pruned) pruned.push_back({{"label", p.label}, {"reason", p.reason}});
  return {{"race", tag.race},       {"model", tag.model},     {"scenario", tag.scenario},
          {"space", tag.space},     {"settings", tag.settings}, {"entrants", entrants},
          {"pruned", pruned},       {"entrant", tag.entrant}, {"configuration", tag.configuration},
          {"round", tag.round},     {"queries", tag.queries}};
}

Result<TuneTag> TuneTagFromJson(const nlohmann::json& j) {
  try {
    TuneTag tag;
    tag.race = j.at("race").get<std::string>();
    tag.model = j.at("model").get<std::string>();
    tag.scenario = j.at("scenario").get<std::string>();
    tag.space = j.at("space").get<std::string>();
    tag.settings = j.at("settings");
    if (!tag.settings.is_object()) return Status::Error("malformed tune tag: settings is not an object");
    for (const auto& e : j.at("entrants")) {
      tag.entrants.push_back({e.at("label").get<std::string>(), e.at("inferences_per_query").get<double>()});
    }
    for (const auto& p : j.at("pruned")) {
      tag.pruned.push_back({p.at("label").get<std::string>(), p.at("reason").get<std::string>()});
    }
    tag.entrant = j.at("entrant").get<size_t>();
    tag.configuration = j.value("configuration", std::string());
    tag.round = j.at("round").get<int>();
    tag.queries = j.value("queries", int64_t{0});
    if (tag.entrant >= tag.entrants.size()) {
      return Status::Error("tune tag names configuration " + std::to_string(tag.entrant) + " of " +
                           std::to_string(tag.entrants.size()));
    }
    return tag;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed tune tag: ") + e.what());
  }
}

}  // namespace edgebench
