// bench/mutants.tsv, the mutation check's list (bench/run_mutation_check): every mutant's original
// text must still be in its file. A mutant whose code moved is otherwise found only when someone
// runs the hour-long check, which then stops before scoring anything.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace edgebench {
namespace {

std::string ReadSource(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(MutantsFile, EveryMutantsOriginalIsInItsFile) {
  const std::filesystem::path root = EDGEBENCH_SOURCE_DIR;
  std::ifstream list(root / "bench" / "mutants.tsv");
  ASSERT_TRUE(list) << "no bench/mutants.tsv under " << root;
  int mutants = 0;
  std::string line;
  for (int number = 1; std::getline(list, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
    ASSERT_EQ(fields.size(), 4u) << "bench/mutants.tsv:" << number
                                 << ": wants FILE, ORIGINAL, REPLACEMENT and what it breaks, tab-separated";
    ++mutants;
    const std::filesystem::path file = root / fields[0];
    ASSERT_TRUE(std::filesystem::exists(file)) << "bench/mutants.tsv:" << number << ": no file " << fields[0];
    EXPECT_NE(ReadSource(file).find(fields[1]), std::string::npos)
        << "bench/mutants.tsv:" << number << " (" << fields[3] << "): " << fields[0]
        << " no longer contains its original text; make the mutant follow its code";
    EXPECT_NE(fields[1], fields[2]) << "bench/mutants.tsv:" << number << ": the mutant changes nothing";
  }
  EXPECT_GT(mutants, 0);
}

}  // namespace
}  // namespace edgebench
