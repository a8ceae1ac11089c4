#include "fleet/fleet_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace edgebench {

namespace {

// The files under `here` (each regular file, or a link to one, copied as a file), to go under
// `on_host` relative to bin/.
Status AddRuntimeFiles(const std::string& backend, const std::filesystem::path& here, const std::string& on_host,
                       std::vector<FleetFile>& files) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(here, ec)) {
    return Status::Error("the " + backend + " runtime this build was linked with is not at " + here.string() +
                         " any more, so no host could run " + backend + ": run scripts/fixtures, or leave " + backend +
                         " targets out of the suite");
  }
  std::vector<std::pair<std::string, std::string>> found;
  for (fs::recursive_directory_iterator it(here, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;  // follows links: a versioned library's link is copied as a file
    found.emplace_back(it->path().string(), "bin/" + on_host + "/" + it->path().lexically_relative(here).string());
  }
  if (ec) return Status::Error("cannot read the " + backend + " runtime at " + here.string() + ": " + ec.message());
  std::sort(found.begin(), found.end());
  for (auto& [src, dest] : found) files.push_back({src, dest, "0755"});
  return Status::Ok();
}

}  // namespace

Result<std::vector<FleetFile>> FleetBuildFiles(const std::string& executable, const std::set<std::string>& backends) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::canonical(executable, ec);
  if (ec) return Status::Error("cannot find the running edgebench executable '" + executable + "': " + ec.message());
  const fs::path dir = exe.parent_path();
  std::vector<FleetFile> files = {{exe.string(), "bin/edgebench", "0755"}};
  const fs::path core = dir / "libedgebench_core.so";
  if (!fs::is_regular_file(core, ec)) {
    return Status::Error("the edgebench build in " + dir.string() + " has no libedgebench_core.so beside its "
                         "executable: fleet copies a build directory as scripts/build makes it");
  }
  files.push_back({core.string(), "bin/libedgebench_core.so", "0755"});
  std::vector<std::string> plugins;
  for (fs::directory_iterator it(dir / "backends", ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".so") plugins.push_back(it->path().string());
  }
  std::sort(plugins.begin(), plugins.end());
  for (const std::string& p : plugins) {
    files.push_back({p, "bin/backends/" + fs::path(p).filename().string(), "0755"});
  }
  // BACKEND<TAB>DIRECTORY HERE<TAB>DIRECTORY ON A HOST, a line per wheel runtime (CMakeLists.txt).
  std::ifstream listed(dir / "fleet-runtimes.txt");
  for (std::string line; std::getline(listed, line);) {
    const size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos) continue;
    const std::string backend = line.substr(0, a);
    if (!backends.count(backend)) continue;
    const std::string on_host = line.substr(b + 1);
    if (on_host.empty() || on_host.find("..") != std::string::npos || on_host.front() == '/') continue;
    if (Status s = AddRuntimeFiles(backend, line.substr(a + 1, b - a - 1), on_host, files); !s.ok()) return s;
  }
  return files;
}

Result<std::string> ExecutableArchitecture(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read '" + path + "': " + std::strerror(errno));
  unsigned char header[20] = {};
  in.read(reinterpret_cast<char*>(header), sizeof header);
  if (in.gcount() != sizeof header || header[0] != 0x7f || header[1] != 'E' || header[2] != 'L' || header[3] != 'F') {
    return Status::Error("'" + path + "' is not an ELF executable (a build's bin/edgebench, as scripts/build makes it)");
  }
  // e_machine, in the file's own byte order (EI_DATA: 1 little-endian, 2 big-endian).
  const int machine = header[5] == 2 ? (header[18] << 8) | header[19] : header[18] | (header[19] << 8);
  switch (machine) {
    case 62: return std::string("x86_64");
    case 183: return std::string("aarch64");
    case 243: return std::string("riscv64");
    case 40: return std::string("armv7l");
    case 3: return std::string("i386");
    default:
      return Status::Error("'" + path + "' is an ELF executable for machine " + std::to_string(machine) +
                           ", which edgebench does not know (x86_64, aarch64, riscv64, armv7l, i386)");
  }
}

std::string CanonicalArchitecture(const std::string& name) {
  if (name == "x86_64" || name == "amd64" || name == "x86-64") return "x86_64";
  if (name == "aarch64" || name == "arm64") return "aarch64";
  if (name == "riscv64" || name == "armv7l" || name == "i386") return name;
  return "";
}

std::string FleetHostModelPath(const std::string& resolved) {
  const std::filesystem::path absolute = std::filesystem::absolute(resolved).lexically_normal();
  return "files" + absolute.string();
}

std::vector<FleetFile> FleetModelFiles(const std::vector<std::string>& resolved_files) {
  std::vector<FleetFile> files;
  for (const std::string& f : resolved_files) {
    files.push_back({std::filesystem::absolute(f).lexically_normal().string(), FleetHostModelPath(f), "0644"});
  }
  return files;
}

}  // namespace edgebench
