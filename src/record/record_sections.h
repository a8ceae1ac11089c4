// The record's registered sections, in one table (as llama-bench's get_fields() lists its fields
// once): the sections a case's mode answers (agreement from `edgebench agree`, accuracy, tensor
// drift, token drift), and sections beside any record (tune, on the cases of a race). Each entry
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

namespace edgebench {

struct RecordSection {
  std::string key;  // the JSON key, and the record's field
  std::function<bool(const Record&)> present;
  std::function<nlohmann::json(const Record&)> to_json;
  // Sets the record's field; an error names what is missing or inconsistent.
  std::function<Status(const nlohmann::json&, Record&)> from_json;
  std::function<void(Record&)> finish;  // derived figures; may be empty
  // The reasons an ok record with this section is INVALID; may be empty (judged by the reader).
  std::function<void(const Record&, std::vector<std::string>&)> judge;
  // A mode's section: the record is that mode's (at most one per record, and it replaces the
  // measured samples). false: a section beside whatever the record is (tune).
  bool mode = true;
};

// Every registered section, modes first.
const std::vector<RecordSection>& RecordSections();

// The mode section the record has, or null (a measured case).
const RecordSection* ModeSectionOf(const Record& r);

}  // namespace edgebench
