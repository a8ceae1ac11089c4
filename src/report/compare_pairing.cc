#include "report/compare_pairing.h"

#include <algorithm>
#include <set>
#include <sstream>


namespace edgebench {

Result<std::vector<std::string>> ParseMatchFields(const std::string& text) {
  std::vector<std::string> fields;
  std::stringstream in(text);
  std::string field;
  while (std::getline(in, field, ',')) {
    if (field.empty()) continue;
    if (std::find(kCompareMatchFields.begin(), kCompareMatchFields.end(), field) == kCompareMatchFields.end()) {
      std::string known;
      for (const std::string& f : kCompareMatchFields) known += (known.empty() ? "" : ", ") + f;
      return Status::Error("--by: unknown field '" + field + "'; fields: " + known);
    }
    if (std::find(fields.begin(), fields.end(), field) == fields.end()) fields.push_back(field);
  }
  if (fields.empty()) return Status::Error("--by: no field given; e.g. --by model,backend,device,scenario");
  return fields;
}

std::string FieldValue(const Record& r, const std::string& field) {
  if (field == "model") return r.model;
  if (field == "variant") return r.variant;
  if (field == "artifact") return r.artifact_sha256.empty() ? r.artifact : r.artifact_sha256;
  if (field == "backend") return r.backend;
  if (field == "device") return r.device;
  if (field == "target") return r.effective_target;
  if (field == "scenario") return r.scenario;
  if (field == "host") return HostName(r.environment);
  return "";
}

std::string MatchKey(const Record& r, const std::vector<std::string>& by, bool by_host) {
  if (by.empty()) return by_host ? r.case_key + " on " + HostName(r.environment) : r.case_key;
  std::string key;
  for (const std::string& field : by) key += (key.empty() ? "" : ", ") + field + "=" + FieldValue(r, field);
  if (by_host && std::find(by.begin(), by.end(), "host") == by.end()) key += ", host=" + HostName(r.environment);
  return key;
}

CaseGroups GroupCases(const std::vector<Record>& records, const std::vector<std::string>& by, bool by_host) {
  CaseGroups grouped;
  for (const Record& r : records) {
    const std::string key = MatchKey(r, by, by_host);
    auto& group = grouped.records[key];
    if (group.empty()) grouped.order.push_back(key);
    group.push_back(&r);
  }
  return grouped;
}

const Record* PickCompared(const std::vector<const Record*>& group, const std::string& side,
                           std::vector<std::string>& notes, std::string& ambiguous) {
  std::vector<std::string> keys;
  for (const Record* r : group) {
    if (std::find(keys.begin(), keys.end(), r->case_key) == keys.end()) keys.push_back(r->case_key);
  }
  if (keys.size() > 1) {
    std::string targets;
    for (const Record* r : group) {
      if (targets.find(r->effective_target) == std::string::npos) {
        targets += (targets.empty() ? "" : ", ") + r->effective_target;
      }
    }
    ambiguous = side + " has " + std::to_string(keys.size()) + " different cases that match (targets " + targets +
                "): add fields to --by so that one case of each store matches";
  }
  const Record* picked = group.back();
  for (auto it = group.rbegin(); it != group.rend(); ++it) {
    if ((*it)->status == CaseStatus::kOk) {
      picked = *it;
      break;
    }
  }
  if (group.size() > 1) {
    notes.push_back(side + " has " + std::to_string(group.size()) + " records of this case: compared " +
                    (picked->status == CaseStatus::kOk ? "the last measured one" : "the last one") + " (" +
                    picked->id + ")");
  }
  return picked;
}

bool HoldsSeveralHosts(const std::vector<Record>& records) {
  std::set<std::string> hosts;
  for (const Record& r : records) {
    hosts.insert(HostName(r.environment));
    if (hosts.size() > 1) return true;
  }
  return false;
}

}  // namespace edgebench
