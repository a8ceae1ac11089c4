// Reading a file a user, a record or a store names, without trusting it: only a regular file
// (a FIFO would block, a device such as /dev/zero never ends, a directory is no text), and only
// up to a size the caller bounds, checked before anything is read and again while reading (the
// file may grow). The errors say which of these the file is and what to do.
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"

namespace edgebench {

// The whole of `path`, at most `max_bytes` of it. `what` names the file in errors ("pipeline
// file", "suite file"): "cannot read pipeline file 'x': it is a FIFO, not a regular file".
Result<std::string> ReadBoundedTextFile(const std::string& path, uint64_t max_bytes, const std::string& what);

// "a directory", "a FIFO", "a character device", ...: what a path that is not a regular file
// is, for messages; empty for a regular file or a path that cannot be examined.
std::string NonRegularFileKind(const std::string& path);

// Why `path` cannot be read as a file, as the end of "model file 'x' ...": "does not exist",
// or "is a directory, not a file" (a FIFO, a device...).
std::string NotAFileText(const std::string& path);

}  // namespace edgebench
