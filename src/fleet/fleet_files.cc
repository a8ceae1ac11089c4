#include "fleet/fleet_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace edgebench {

Result<std::vector<FleetFile>> FleetBuildFiles(const std::string& executable) {
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
  return files;
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
