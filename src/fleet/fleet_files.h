// What `edgebench fleet` puts on every host, and where it goes there: the edgebench build (the
// executable, its core library, the backend plugins, found beside the running executable) and
// every file the suite's models read, under files/ at its own absolute path (so a manifest's
// relative paths to its artifacts still hold on the host). Destinations are relative to the
// host's working directory (ansible/fleet.yml's remote_root).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

struct FleetFile {
  std::string src;   // on this machine, absolute
  std::string dest;  // on the host, relative to its working directory
  std::string mode;  // "0755" for programs and libraries, "0644" for data
};

// The build beside `executable`: bin/edgebench, bin/libedgebench_core.so, bin/backends/*.so,
// and under bin/runtimes/ the wheel runtimes (OpenVINO's, MediaPipe's, ExecuTorch's libraries,
// LiteRT's libLiteRt.so) of the `backends` the suite uses, as the build's fleet-runtimes.txt
// lists them: a host has no scripts/fixtures cache, and a plugin finds its runtime there through
// its $ORIGIN-relative RPATH. The build must find its library and plugins relative to itself
// (its RUNPATH is $ORIGIN-based, as CMakeLists.txt sets); an error names what is missing.
Result<std::vector<FleetFile>> FleetBuildFiles(const std::string& executable, const std::set<std::string>& backends);

// The architecture an ELF executable runs on, named as Ansible names a host's
// (`ansible_facts['architecture']`, uname -m): "x86_64", "aarch64", "riscv64", "armv7l" (32-bit Arm),
// "i386"; an error for a file that is not an ELF executable or for another machine.
Result<std::string> ExecutableArchitecture(const std::string& path);

// An architecture as a user may write it (arm64, amd64, x86-64) in Ansible's name (aarch64,
// x86_64); "" for one edgebench does not know.
std::string CanonicalArchitecture(const std::string& name);

// The host's path, relative to its working directory, of a model file at `resolved` here.
std::string FleetHostModelPath(const std::string& resolved);

std::vector<FleetFile> FleetModelFiles(const std::vector<std::string>& resolved_files);

}  // namespace edgebench
