// Small string helpers shared across the tree.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace edgebench {

// "a, b, c" from {"a", "b", "c"} with separator ", "; "" for none.
inline std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) joined += separator;
    joined += parts[i];
  }
  return joined;
}

}  // namespace edgebench
