// The typed sections a case's mode answers in its record, registered in one table (as
// llama-bench's get_fields() lists its fields once): agreement (`edgebench agree`), accuracy
// (`edgebench accuracy`) and tensor drift (`edgebench drift`). Each entry says its JSON key, how
// the section is written and read, what FinishRecord derives from it, and how it judges an ok
// record. The record's writer, reader and FinishRecord go through this table; a new mode adds
// its section here (and its field in Record) and nowhere else in the record's code.
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
};

const std::vector<RecordSection>& ModeSections();

// The mode section the record has, or null (a measured case).
const RecordSection* ModeSectionOf(const Record& r);

}  // namespace edgebench
