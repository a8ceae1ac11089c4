// Paths as people write them in files (suite files, inventories): `${VAR}` and a leading `~`
// expanded, a relative path resolved against the file's own directory.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/status.h"

namespace edgebench {

// Looks up an environment variable; nullopt when it is unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// `raw` with `${NAME}` and a leading `~` expanded through `getenv`, then, when relative, resolved
// against `base_dir` (empty: the working directory), lexically normalised. An unset variable is
// an error, except EDGEBENCH_CACHE, which defaults to $HOME/.cache/edgebench as in
// scripts/devroot. The error says what could not be expanded in `raw` (the caller adds where).
// The process's own environment (std::getenv).
std::optional<std::string> ProcessEnvironment(const std::string& name);

Result<std::string> ExpandPath(const std::string& raw, const EnvironmentLookup& getenv,
                               const std::string& base_dir);

}  // namespace edgebench
