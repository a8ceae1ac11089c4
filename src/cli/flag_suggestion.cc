#include "cli/flag_suggestion.h"

#include <algorithm>

namespace edgebench {

size_t FlagDistance(const std::string& a, const std::string& b) {
  // Optimal string alignment distance (Damerau-Levenshtein without repeated edits of a substring).
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string NearestFlag(const std::string& typed, const std::vector<std::string>& candidates) {
  const std::string word = typed.substr(0, typed.find('='));
  if (word.size() < 2 || word[0] != '-') return "";
  std::string best;
  size_t best_distance = 0;
  std::vector<std::string> extending;
  for (const std::string& c : candidates) {
    if (c == word) return "";
    if (c.rfind(word, 0) == 0) extending.push_back(c);
    const size_t distance = FlagDistance(word, c);
    if (best.empty() || distance < best_distance) {
      best = c;
      best_distance = distance;
    }
  }
  const size_t limit = word.size() >= 9 ? 3 : 2;
  if (!best.empty() && best_distance <= limit) return best;
  return extending.size() == 1 ? extending.front() : "";
}

}  // namespace edgebench
