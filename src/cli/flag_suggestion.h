// What a user probably meant by a flag a command does not have ("--taget" -> "--target"), for the
// error that refuses it.
#pragma once

#include <string>
#include <vector>

namespace edgebench {

// Edit distance (insertions, deletions, substitutions, and swaps of two neighbours) between a
// and b.
size_t FlagDistance(const std::string& a, const std::string& b);

// The candidate nearest to `typed` ("--taget", "--limit=3"; the value after '=' is ignored), or
// "" when none is near: within 2 edits, or 3 for a name of 9 characters or more, or the one
// candidate `typed` is the start of.
std::string NearestFlag(const std::string& typed, const std::vector<std::string>& candidates);

}  // namespace edgebench
