// The record's registered sections, in one table (as llama-bench's get_fields() lists its fields
// once): the sections a case's mode answers (agreement from `edgebench agree`, accuracy, tensor
// drift, token drift), and sections beside any record (a load scenario's, the device monitor's, tune's on
// the cases of a race, a cold start's, ...). Each entry
// says its JSON key, how the section is written and read, what FinishRecord derives from it,
// and how it judges an ok record. The record's writer, reader and FinishRecord go through this
// table; a new section adds its entry here (and its field in Record) and nowhere else in the
// record's code.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/record.h"
#include "record/scenario_rules.h"

namespace edgebench {

struct RecordSection {
  std::string key;  // the JSON key, and the record's field
  std::function<bool(const Record&)> present;
  std::function<nlohmann::json(const Record&)> to_json;
  // Sets the record's field; an error names what is missing or inconsistent.
  std::function<Status(const nlohmann::json&, Record&)> from_json;
  // Derived figures; may be empty. `rules`: the record's scenario's (load/finish_record.h), or
  // nullopt. A mode's section: run when it is the record's mode. A section beside: run on every
  // record, present or not (it may make the section, as load does from the samples, or clear
  // what it derived), in table order, after the record's own summary, settling and rooflines.
  std::function<void(Record&, const std::optional<ScenarioRules>& rules)> finish;
  // The reasons an ok record is INVALID; may be empty (judged by the reader). A mode's section:
  // when it is the record's mode, as its verdict. A section beside: on every ok record, in table
  // order, after the record's own verdict.
  std::function<void(const Record&, const std::optional<ScenarioRules>& rules, std::vector<std::string>&)> judge;
  // A mode's section: the record is that mode's (at most one per record, and it replaces the
  // measured samples). false: a section beside whatever the record is (tune).
  bool mode = true;
};

// Every registered section, modes first.
const std::vector<RecordSection>& RecordSections();

// The mode section the record has, or null (a measured case).
const RecordSection* ModeSectionOf(const Record& r);

}  // namespace edgebench
