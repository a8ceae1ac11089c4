// STORE arguments of the commands that read results (export, recommend): a directory holding
// results.jsonl, or a .jsonl file.
#pragma once

#include <string>
#include <vector>

#include "record/record.h"

namespace edgebench {

// Every record of every store, in the order given, each once: a record whose id an earlier store
// (or the same one, named twice) already gave is left out with a warning. Lines that are not records are skipped and
// said on stderr as "edgebench COMMAND: warning: ...". An error names the store that could
// not be read (missing, not a store).
Result<std::vector<Record>> ReadStoreArguments(const std::vector<std::string>& stores, const std::string& command);

}  // namespace edgebench
