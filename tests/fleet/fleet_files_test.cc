// What `edgebench fleet` ships to a host (fleet/fleet_files.h): the build, and the wheel runtimes
// of the backends the suite uses, where the host's copy of a plugin finds them without this
// machine's runtimes cache.
#include "fleet/fleet_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

namespace fs = std::filesystem;

// The runtime directory this build lists for `backend` in fleet-runtimes.txt, or "" (not built).
std::string ListedRuntime(const std::string& backend) {
  std::ifstream listed(fs::path(testing::Executable()).parent_path() / "fleet-runtimes.txt");
  for (std::string line; std::getline(listed, line);) {
    if (line.rfind(backend + "\t", 0) == 0) return line.substr(backend.size() + 1, line.find('\t', backend.size() + 1) - backend.size() - 1);
  }
  return "";
}

TEST(FleetFiles, OnlyTheSuitesBackendsBringTheirWheelRuntimes) {
  const std::string openvino = ListedRuntime("openvino");
  if (openvino.empty()) GTEST_SKIP() << "this build has no openvino backend";
  auto with = FleetBuildFiles(testing::Executable(), {"openvino", "ort"});
  ASSERT_TRUE(with.ok()) << with.error();
  bool library = false;
  for (const FleetFile& f : with.value()) {
    if (f.dest.rfind("bin/runtimes/", 0) == 0) {
      EXPECT_EQ(f.dest.find("bin/runtimes/openvino-"), 0u) << f.dest;  // not another runtime's
      EXPECT_TRUE(fs::is_regular_file(f.src)) << f.src;
    }
    library = library || (f.src.find(openvino) == 0 && f.dest.find("/openvino/libs/libopenvino.so.") != std::string::npos);
  }
  EXPECT_TRUE(library) << "libopenvino is not shipped";
  auto without = FleetBuildFiles(testing::Executable(), {"ort", "null"});
  ASSERT_TRUE(without.ok()) << without.error();
  for (const FleetFile& f : without.value()) EXPECT_NE(f.dest.rfind("bin/runtimes/", 0), 0u) << f.dest;
}

// An executable's architecture from its ELF header, named as Ansible names a host's.
TEST(FleetFiles, AnExecutablesArchitectureIsReadFromItsElfHeader) {
  auto header = [](int machine, bool big_endian) {
    std::string h = std::string("\x7f" "ELF", 4) + std::string(16, '\0');
    h[4] = 2;  // 64-bit
    h[5] = big_endian ? 2 : 1;
    h[big_endian ? 19 : 18] = static_cast<char>(machine & 0xff);
    h[big_endian ? 18 : 19] = static_cast<char>(machine >> 8);
    return testing::WriteTempFile("elf_", std::to_string(machine) + (big_endian ? "be" : "le"), h);
  };
  EXPECT_EQ(ExecutableArchitecture(header(62, false)).value(), "x86_64");
  EXPECT_EQ(ExecutableArchitecture(header(183, false)).value(), "aarch64");
  EXPECT_EQ(ExecutableArchitecture(header(243, true)).value(), "riscv64");
  auto unknown = ExecutableArchitecture(header(8, false));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("machine 8"), std::string::npos) << unknown.error();
  auto text = ExecutableArchitecture(testing::WriteTempFile("elf_", "text", "#!/bin/sh\n"));
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.error().find("not an ELF executable"), std::string::npos) << text.error();
  EXPECT_FALSE(ExecutableArchitecture("/nonexistent/edgebench").ok());
#if defined(__x86_64__)
  EXPECT_EQ(ExecutableArchitecture(testing::Executable()).value(), "x86_64");
#elif defined(__aarch64__)
  EXPECT_EQ(ExecutableArchitecture(testing::Executable()).value(), "aarch64");
#endif
  EXPECT_EQ(CanonicalArchitecture("arm64"), "aarch64");
  EXPECT_EQ(CanonicalArchitecture("amd64"), "x86_64");
  EXPECT_EQ(CanonicalArchitecture("mips"), "");
}

// A host without this machine's runtimes cache: the shipped files alone, the cache hidden under an
// empty tmpfs in a mount namespace of its own, and OpenVINO still runs a model.
TEST(FleetFiles, AHostWithoutTheCacheRunsOpenVinoFromTheShippedCopy) {
  const std::string openvino = ListedRuntime("openvino");
  if (openvino.empty()) GTEST_SKIP() << "this build has no openvino backend";
  const std::string host = testing::TempFilePath("fleet_files", "host");
  fs::remove_all(host);
  auto files = FleetBuildFiles(testing::Executable(), {"openvino"});
  ASSERT_TRUE(files.ok()) << files.error();
  for (const FleetFile& f : files.value()) {
    fs::create_directories(fs::path(host + "/" + f.dest).parent_path());
    fs::copy_file(f.src, host + "/" + f.dest, fs::copy_options::overwrite_existing);
    fs::permissions(host + "/" + f.dest, fs::perms::owner_all, fs::perm_options::add);
  }
  // The cache's runtimes directory: what the plugin's absolute RPATH names.
  const std::string runtimes = fs::path(openvino).parent_path().parent_path().parent_path().string();
  const std::string model = testing::TestModel("drift_mlp_other.onnx");
  const auto r = testing::RunCommand(
      "unshare -m --map-root-user sh -c 'mount -t tmpfs none " + runtimes + " && ls " + runtimes + " | wc -l && " +
      host + "/bin/edgebench run " + model + " -t openvino:cpu --no-store --min-queries 5 --format json' 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("0\n", 0), 0u) << "the cache was not hidden: " << r.output;
  EXPECT_NE(r.output.find("\"status\": \"ok\""), std::string::npos) << r.output;
  fs::remove_all(host);
}

}  // namespace
}  // namespace edgebench
