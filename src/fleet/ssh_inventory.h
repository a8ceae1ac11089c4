// `edgebench fleet --ssh [USER@]HOST[:PORT] SUITE`: one bench board without writing an Ansible
// inventory. The destination becomes a one-host INI inventory; the host's name (its directory
// under --out) is HOST. Only the characters a host name, a user name and a port can hold are
// taken, so a destination cannot add inventory variables of its own (`board ansible_ssh_common_args=...`).
#pragma once

#include <string>

#include "core/status.h"

namespace edgebench {

struct SshDestination {
  std::string user;  // empty: ssh's default (the caller's, or ~/.ssh/config's)
  std::string host;  // a name or an IPv4 address
  int port = 0;      // 0: ssh's default
};

// Parses "[USER@]HOST[:PORT]"; an error says which part is not allowed and why.
Result<SshDestination> ParseSshDestination(const std::string& text);

// The one-host inventory of `destination`, in Ansible's INI form.
std::string SshShortcutInventory(const SshDestination& destination);

}  // namespace edgebench
