// Names that come from files (a suite's name, an inventory's hosts) and become one component of
// a path edgebench writes (results/NAME, OUT/HOST): never a way out of the directory they are
// meant for.
#pragma once

#include <string>

#include "core/status.h"

namespace edgebench {

// OK when `name` is one plain path component: not empty, not "." or "..", no '/' or '\\', no
// control character, no leading '-' (an option to a tool that gets the path), at most 255
// bytes. Otherwise an error for people: "<what> '<name>' <why>; ...".
inline Status CheckPathComponent(const std::string& name, const std::string& what) {
  const auto bad = [&](const std::string& why) {
    std::string shown;
    for (char c : name) shown += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    return Status::Error(what + " '" + shown + "' " + why +
                         ": it names a directory, so it must be one plain file name (letters, digits, '.', '-', "
                         "'_'), not a path");
  };
  if (name.empty()) return bad("is empty");
  if (name == "." || name == "..") return bad("is a relative directory");
  if (name.size() > 255) return bad("is longer than a file name may be (255 bytes)");
  if (name[0] == '-') return bad("starts with '-'");
  for (char c : name) {
    if (c == '/' || c == '\\') return bad("holds a path separator");
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return bad("holds a control character");
  }
  return Status::Ok();
}

}  // namespace edgebench
