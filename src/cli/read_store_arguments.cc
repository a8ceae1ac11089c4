#include "cli/read_store_arguments.h"

#include <iostream>

#include "report/store.h"

namespace edgebench {

Result<std::vector<Record>> ReadStoreArguments(const std::vector<std::string>& stores, const std::string& command) {
  std::vector<Record> records;
  for (const std::string& store : stores) {
    auto located = StoreResultsPath(store);
    if (!located.ok()) return located.status();
    const std::string path = located.take();
    auto contents = ReadStore(path);
    if (!contents.ok()) return Status::Error("store '" + store + "': " + contents.error());
    for (const std::string& w : contents.value().warnings) {
      std::cerr << "edgebench " << command << ": warning: " << path << ": " << w << "\n";
    }
    for (Record& r : contents.value().records) records.push_back(std::move(r));
  }
  return records;
}

}  // namespace edgebench
