#include "plan/plan_file.h"

#include <fstream>

#include <nlohmann/json.hpp>

namespace edgebench {

Status WritePlanFile(const std::vector<PlannedCase>& plan, const std::string& path) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) return Status::Error("cannot write the plan to '" + path + "'");
  for (const PlannedCase& c : plan) {
    std::string not_a_scenario;
    if (c.find_peak) not_a_scenario = "a peak search (server:peak) runs a case per step";
    if (c.mode) not_a_scenario = "the case does not measure a scenario (an accuracy or outputs pass)";
    if (c.round) not_a_scenario = "--rounds makes a case per round";
    out << nlohmann::json{{"case", CaseSpecToJson(c.spec)}, {"skip_reason", c.skip_reason},
                          {"not_a_scenario", not_a_scenario}}
               .dump()
        << "\n";
  }
  out.flush();
  if (!out) return Status::Error("cannot write the plan to '" + path + "'");
  return Status::Ok();
}

Result<std::vector<PlanFileCase>> ReadPlanFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Error("cannot read the plan '" + path + "'");
  std::vector<PlanFileCase> cases;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const auto json = nlohmann::json::parse(line, nullptr, false);
    const auto where = path + ":" + std::to_string(number) + ": ";
    if (json.is_discarded() || !json.is_object() || !json.contains("case")) {
      return Status::Error(where + "not a planned case");
    }
    auto spec = CaseSpecFromJson(json.at("case"));
    if (!spec.ok()) return Status::Error(where + spec.error());
    PlanFileCase c;
    c.spec = spec.take();
    c.skip_reason = json.value("skip_reason", "");
    c.not_a_scenario = json.value("not_a_scenario", "");
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace edgebench
