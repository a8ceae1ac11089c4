#include "fleet/ssh_inventory.h"

#include <cctype>

namespace edgebench {

namespace {

bool OnlyNameCharacters(const std::string& text) {
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') return false;
  }
  return true;
}

}  // namespace

Result<SshDestination> ParseSshDestination(const std::string& text) {
  const std::string usage = " (--ssh [USER@]HOST[:PORT], e.g. --ssh bench@board.local or --ssh 10.0.0.21:2222)";
  SshDestination destination;
  std::string rest = text;
  if (const size_t at = rest.find('@'); at != std::string::npos) {
    destination.user = rest.substr(0, at);
    rest = rest.substr(at + 1);
    if (destination.user.empty() || !OnlyNameCharacters(destination.user)) {
      return Status::Error("--ssh '" + text + "': the user may hold letters, digits, '.', '-' and '_' only" + usage);
    }
  }
  if (const size_t colon = rest.find(':'); colon != std::string::npos) {
    const std::string port = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
    int value = 0;
    for (char c : port) {
      if (!std::isdigit(static_cast<unsigned char>(c)) || value > 65535) {
        value = -1;
        break;
      }
      value = value * 10 + (c - '0');
    }
    if (port.empty() || value < 1 || value > 65535) {
      return Status::Error("--ssh '" + text + "': the port must be a number from 1 to 65535" + usage);
    }
    destination.port = value;
  }
  if (rest.empty() || !OnlyNameCharacters(rest) || rest.front() == '-' || rest.front() == '.') {
    return Status::Error("--ssh '" + text +
                         "': the host must be a host name or an IPv4 address (letters, digits, '.', '-' and '_', "
                         "not starting with '-' or '.')" + usage);
  }
  destination.host = rest;
  return destination;
}

std::string SshShortcutInventory(const SshDestination& d) {
  std::string line = d.host + " ansible_host=" + d.host;
  if (!d.user.empty()) line += " ansible_user=" + d.user;
  if (d.port > 0) line += " ansible_port=" + std::to_string(d.port);
  return "# written by edgebench fleet --ssh\n[fleet]\n" + line + "\n";
}

}  // namespace edgebench
