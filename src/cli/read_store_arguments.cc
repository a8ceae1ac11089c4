#include "cli/read_store_arguments.h"

#include <iostream>
#include <set>

#include "report/store.h"

namespace edgebench {

Result<std::vector<Record>> ReadStoreArguments(const std::vector<std::string>& stores, const std::string& command) {
  std::vector<Record> records;
  std::set<std::string> ids;
  for (const std::string& store : stores) {
    auto located = StoreResultsPath(store);
    if (!located.ok()) return located.status();
    const std::string path = located.take();
    auto contents = ReadStore(path);
    if (!contents.ok()) return Status::Error("store '" + store + "': " + contents.error());
    for (const std::string& w : contents.value().warnings) {
      std::cerr << "edgebench " << command << ": warning: " << path << ": " << w << "\n";
    }
    // A store named twice, or a copy of one beside it, is read once: a record is one case's
    // measurement whatever path it was read through.
    int64_t duplicates = 0;
    for (Record& r : contents.value().records) {
      if (!r.id.empty() && !ids.insert(r.id).second) {
        ++duplicates;
        continue;
      }
      records.push_back(std::move(r));
    }
    if (duplicates > 0) {
      std::cerr << "edgebench " << command << ": warning: " << path << ": " << duplicates
                << " record(s) already read from an earlier store (same id) left out\n";
    }
  }
  return records;
}

}  // namespace edgebench
