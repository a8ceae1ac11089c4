#include "cli/read_store_arguments.h"

#include <filesystem>
#include <iostream>

#include "report/store.h"

namespace edgebench {

Result<std::vector<Record>> ReadStoreArguments(const std::vector<std::string>& stores, const std::string& command) {
  std::vector<Record> records;
  for (const std::string& store : stores) {
    std::error_code ec;
    std::string path = store;
    if (std::filesystem::is_directory(store, ec)) path = (std::filesystem::path(store) / "results.jsonl").string();
    if (!std::filesystem::is_regular_file(path, ec)) {
      return Status::Error("store '" + store + "' is neither a results.jsonl file nor a directory holding one (" +
                           path + " does not exist); give the --out directory of a run, or its results.jsonl");
    }
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
