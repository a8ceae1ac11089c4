// The results store: JSON Lines, one record per line, appended and fsynced per record so a
// crash or kill loses nothing already measured.
#pragma once

#include <string>
#include <vector>

#include "report/record.h"

namespace edgebench {

class ResultStore {
 public:
  // Creates DIR if needed; records go to DIR/results.jsonl.
  static Result<ResultStore> Open(const std::string& directory);
  Status Append(const Record& record);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Appends one JSON value as a line to `path`, then fsyncs: nothing written is lost to a crash.
Status AppendJsonLine(const std::string& path, const nlohmann::json& value);

// Reads every record of a results.jsonl; an error names the line that is not a record.
Result<std::vector<Record>> ReadRecords(const std::string& path);

}  // namespace edgebench
