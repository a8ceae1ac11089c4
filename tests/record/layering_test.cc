// The layers the architecture promises (docs/architecture.md): the record depends only on core/
// and stats/, stats/ only on core/, core/ on nothing of ours. Read from the sources, so a stray
// include fails here rather than years later.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace edgebench {
namespace {

// "folder/file.h: #include ..." for every include of one of our folders (src/*/) outside
// `allowed`; third-party includes ("flatbuffers/...") are not ours to judge.
std::vector<std::string> IncludesOutside(const std::string& folder, const std::set<std::string>& allowed) {
  std::vector<std::string> stray;
  const std::filesystem::path src = std::filesystem::path(EDGEBENCH_SOURCE_DIR) / "src";
  const std::filesystem::path root = src / folder;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      // #include "folder/file.h" (no std::regex here: this binary exports its template
      // instantiations, and a plugin's own would resolve to them).
      const std::string directive = "#include \"";
      const size_t start = line.find(directive);
      const size_t slash = start == std::string::npos ? start : line.find('/', start);
      const size_t end = start == std::string::npos ? start : line.find('"', start + directive.size());
      if (start != 0 || slash == std::string::npos || end == std::string::npos || slash > end) continue;
      const std::string folder = line.substr(directive.size(), slash - directive.size());
      const std::string included = line.substr(directive.size(), end - directive.size());
      if (allowed.count(folder) || allowed.count(included)) continue;
      if (std::filesystem::is_directory(src / folder)) {
        stray.push_back(std::filesystem::relative(entry.path(), root.parent_path()).string() + ": " + line);
      }
    }
  }
  return stray;
}

TEST(Layering, TheRecordDependsOnlyOnCoreAndStats) {
  EXPECT_EQ(IncludesOutside("record", {"core", "stats", "record"}), std::vector<std::string>{});
}

TEST(Layering, StatsDependOnlyOnCoreAndCoreOnNothingOfOurs) {
  EXPECT_EQ(IncludesOutside("stats", {"core", "stats"}), std::vector<std::string>{});
  // The generated build configuration says whether the TFLite schema is there to read.
  EXPECT_EQ(IncludesOutside("core", {"core", "backends/build_config.h"}), std::vector<std::string>{});
}

}  // namespace
}  // namespace edgebench
