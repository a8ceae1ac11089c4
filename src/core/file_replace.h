// Writing a file whole or not at all: the bytes go to a temporary file beside it (named with this
// process's id, so two processes at once never share one), which is renamed over the path once
// complete. A reader sees the old file or the new one, never a part; a failed write (disk full,
// read-only directory) leaves the old file and no temporary behind.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"

namespace edgebench {

// Errors name `path` and say what failed: creating the temporary, writing it, or renaming it.
Status ReplaceFileContents(const std::string& path, std::string_view bytes);

}  // namespace edgebench
