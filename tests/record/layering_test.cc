// The layers the architecture promises (docs/architecture.md): the record depends only on core/
// and stats/, stats/ only on core/, core/ on nothing of ours. Read from the sources, so a stray
// include fails here rather than years later.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace edgebench {
namespace {

// The file an `#include "folder/file.h"` line names, or "" for any other line.
std::string IncludedFile(const std::string& line) {
  const std::string directive = "#include \"";
  if (line.rfind(directive, 0) != 0) return "";
  const size_t end = line.find('"', directive.size());
  return end == std::string::npos ? "" : line.substr(directive.size(), end - directive.size());
}

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

// A unit is a source and its header (src/worker/run_case.cc and .h: "worker/run_case"); a unit
// uses another when either of its files includes the other's header. The units that use each
// other, directly or through others: each set, sorted, as "a b c".
std::set<std::string> IncludeCircles() {
  const std::filesystem::path src = std::filesystem::path(EDGEBENCH_SOURCE_DIR) / "src";
  std::map<std::string, std::set<std::string>> uses;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(src)) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() || (extension != ".cc" && extension != ".h")) continue;
    std::string unit = std::filesystem::relative(entry.path(), src).replace_extension().string();
    uses[unit];
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      std::string included = IncludedFile(line);
      if (included.size() < 3 || included.substr(included.size() - 2) != ".h") continue;
      if (!std::filesystem::exists(src / included)) continue;  // a third party's header
      included.resize(included.size() - 2);
      if (included != unit) uses[unit].insert(included);
    }
  }
  // Tarjan's strongly connected components.
  std::map<std::string, int> index, low;
  std::vector<std::string> stack;
  std::set<std::string> on_stack, circles;
  int next = 0;
  std::function<void(const std::string&)> visit = [&](const std::string& unit) {
    index[unit] = low[unit] = next++;
    stack.push_back(unit);
    on_stack.insert(unit);
    for (const std::string& used : uses[unit]) {
      if (!index.count(used)) {
        visit(used);
        low[unit] = std::min(low[unit], low[used]);
      } else if (on_stack.count(used)) {
        low[unit] = std::min(low[unit], index[used]);
      }
    }
    if (low[unit] != index[unit]) return;
    std::vector<std::string> component;
    std::string member;
    do {
      member = stack.back();
      stack.pop_back();
      on_stack.erase(member);
      component.push_back(member);
    } while (member != unit);
    if (component.size() < 2) return;
    std::sort(component.begin(), component.end());
    std::string text;
    for (const std::string& m : component) text += (text.empty() ? "" : " ") + m;
    circles.insert(text);
  };
  for (const auto& [unit, used] : uses) {
    if (!index.count(unit)) visit(unit);
  }
  return circles;
}

// The layers of src/, lowest first (docs/architecture.md, "Layers"): a folder includes only
// its own files and the folders of the layers below it; the folders of one layer do not include
// each other. A new folder gets its place here.
const std::vector<std::vector<std::string>>& Layers() {
  static const std::vector<std::vector<std::string>> layers = {
      {"core"},
      {"stats"},
      {"record"},
      {"inputs", "postprocess"},
      {"backends"},
      {"monitor"},
      {"metrics"},
      {"load", "diagnose"},
      {"pipeline"},
      {"tune"},
      {"report"},
      {"plan"},
      {"worker"},
      {"runner", "fleet"},
      {"cli"},
  };
  return layers;
}

TEST(Layering, EveryFolderIncludesOnlyItselfAndTheLayersBelowIt) {
  for (size_t layer = 0; layer < Layers().size(); ++layer) {
    std::set<std::string> below;
    for (size_t l = 0; l < layer; ++l) below.insert(Layers()[l].begin(), Layers()[l].end());
    for (const std::string& folder : Layers()[layer]) {
      std::set<std::string> allowed = below;
      allowed.insert(folder);
      // The generated build configuration says whether the TFLite schema is there to read.
      if (folder == "core") allowed.insert("backends/build_config.h");
      EXPECT_EQ(IncludesOutside(folder, allowed), std::vector<std::string>{}) << folder << " climbs a layer";
    }
  }
}

TEST(Layering, EveryFolderOfTheSourcesHasALayer) {
  std::set<std::string> placed;
  for (const auto& layer : Layers()) placed.insert(layer.begin(), layer.end());
  const std::filesystem::path src = std::filesystem::path(EDGEBENCH_SOURCE_DIR) / "src";
  for (const auto& entry : std::filesystem::directory_iterator(src)) {
    if (!entry.is_directory()) continue;
    EXPECT_TRUE(placed.count(entry.path().filename().string()))
        << "src/" << entry.path().filename().string() << " has no layer in Layers(): give it its place";
  }
}

// The rule finds what it must: cli/ includes runner/, so with runner/ not among the folders cli/
// may use, those includes are reported.
TEST(Layering, AnIncludeThatClimbsIsFound) {
  std::set<std::string> allowed;
  for (const auto& layer : Layers()) allowed.insert(layer.begin(), layer.end());
  allowed.erase("runner");
  const std::vector<std::string> found = IncludesOutside("cli", allowed);
  ASSERT_FALSE(found.empty());
  EXPECT_NE(found.front().find("#include \"runner/"), std::string::npos) << found.front();
}

TEST(Layering, NoIncludeCircle) {
  // No two units of src/ use each other, directly or through others: the last circles (the
  // record's section table, the scenario registry and its settings, the HTML report's sections)
  // were taken apart in issue 49. A new one fails, naming its units.
  EXPECT_EQ(IncludeCircles(), std::set<std::string>{});
}

}  // namespace
}  // namespace edgebench
