// A seeded mutation loop (the fuzzing edgebench runs in CI, bounded): byte flips, inserts,
// deletions, duplicated chunks and truncation of a valid seed input. Deterministic per seed,
// so a failure reproduces.
#pragma once

#include <random>
#include <string>

namespace edgebench::testing {

inline std::string Mutate(const std::string& seed, std::mt19937_64& rng) {
  std::string s = seed;
  std::uniform_int_distribution<int> op(0, 5);
  const int edits = 1 + static_cast<int>(rng() % 4);
  static const std::string kInteresting[] = {"", "0", "-1", "999999999999999999999", "\xff", "\"", "{", "]", ":",
                                             "?", "&", "=", ",", "nan", "inf", "${", "\n", "\t", "~"};
  for (int e = 0; e < edits; ++e) {
    const size_t at = s.empty() ? 0 : rng() % s.size();
    switch (op(rng)) {
      case 0:
        if (!s.empty()) s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8)));
        break;
      case 1: s.insert(at, 1, static_cast<char>(rng() % 256)); break;
      case 2:
        if (!s.empty()) s.erase(at, 1 + rng() % std::min<size_t>(8, s.size() - at));
        break;
      case 3:
        if (!s.empty()) s.insert(at, s.substr(rng() % s.size(), 1 + rng() % 16));
        break;
      case 4: s.insert(at, kInteresting[rng() % std::size(kInteresting)]); break;
      case 5: s.resize(at); break;
    }
  }
  return s;
}

}  // namespace edgebench::testing
