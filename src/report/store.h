// The results store: JSON Lines, one record per line, appended and fsynced per record so a
// crash or kill loses nothing already measured. A record is written all or nothing: a write
// that fails (a full disk) is cut back to the last whole line, and a line torn by a kill in the
// middle of a write is dropped, with a warning, before the next record is appended, so it can
// never glue two records into one unreadable line. Writers hold an exclusive flock(2) on the
// store for the whole append (repair included) and readers a shared one, so several processes
// may append to and read one store at once (two suites, a suite and a run, a fleet fetch and a
// report) without losing a record or seeing another's write as torn.
#pragma once

#include <string>
#include <vector>

#include "record/record.h"

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

// Appends one JSON value as a line to `path`, then fsyncs. Before writing, a torn last line
// (no newline at the end of the file) is cut off and `*warning` says so; a failed write or fsync
// is cut back too, and the error says what happened.
Status AppendJsonLine(const std::string& path, const nlohmann::json& value, std::string* warning = nullptr);

struct StoreContents {
  std::vector<Record> records;
  std::vector<std::string> warnings;  // lines skipped and why (torn, not JSON, not a record)
};

// The results.jsonl a store argument names: a directory that `--out` wrote (its results.jsonl)
// or a .jsonl file. An error, for people, says which of the two is missing and what to give.
Result<std::string> StoreResultsPath(const std::string& store);

// Reads every readable record of a results.jsonl; a line that is not a record is skipped with
// a warning naming its line number rather than failing the whole store.
Result<StoreContents> ReadStore(const std::string& path);

// Reads every record; an error names the first line that is not one (for tests and tools that
// want a store to be whole).
Result<std::vector<Record>> ReadRecords(const std::string& path);

}  // namespace edgebench
