// Reading the small text files of /proc and /sys: a number, a word, a directory's entries.
// Each failure says which file and why, for a reader's status or a channel's error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

// The file's whole text (/proc files report size 0, so this reads until EOF). Error: "PATH:
// No such file or directory" (strerror of the failing call).
Result<std::string> ReadSmallTextFile(const std::string& path);

// The file's text without surrounding whitespace ("x86_pkg_temp").
Result<std::string> ReadWordFile(const std::string& path);

// The file's integer ("45000\n"); an error naming the file when it holds no integer.
Result<int64_t> ReadIntegerFile(const std::string& path);
// The integer a file starts with, before a '@' ("23@300000000Hz": a Rockchip devfreq's load at
// its clock); an error naming the file when it starts with none.
Result<int64_t> ReadIntegerBeforeAt(const std::string& path);

// The names in a directory that start with `prefix`, sorted naturally (cpu2 before cpu10);
// empty when the directory does not exist or cannot be listed.
std::vector<std::string> ListDirectory(const std::string& path, const std::string& prefix = "");

// Whether `name` is `prefix` followed by one digit or more: "cpu12" for "cpu", "card0" for "card"
// (not "cpufreq", "card0-HDMI-A-1" or "renderD128").
bool IsNumberedName(const std::string& name, const std::string& prefix);

// Whether `path` exists (as anything).
bool PathExists(const std::string& path);

}  // namespace edgebench
