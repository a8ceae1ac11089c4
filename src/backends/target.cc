#include "backends/target.h"
#include "core/strings.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace edgebench {
namespace {

bool IsName(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

}  // namespace

std::string Target::Canonical() const {
  std::string out = backend + ":" + device;
  char sep = '?';
  for (const auto& [key, value] : options) {
    out += sep + key + "=" + value;
    sep = '&';
  }
  return out;
}

Result<Target> ParseTarget(const std::string& text) {
  Target target;
  target.text = text;
  std::string head = text;
  std::string query;
  if (const auto q = text.find('?'); q != std::string::npos) {
    head = text.substr(0, q);
    query = text.substr(q + 1);
  }
  if (const auto colon = head.find(':'); colon != std::string::npos) {
    target.backend = head.substr(0, colon);
    target.device = head.substr(colon + 1);
  } else {
    target.backend = head;
    target.device = "cpu";
  }
  if (!IsName(target.backend) || !IsName(target.device)) {
    return Status::Error("bad target '" + text +
                         "': expected BACKEND:DEVICE[?key=value&...], for example "
                         "ort:cpu?threads=2");
  }
  size_t pos = 0;
  while (!query.empty() && pos <= query.size()) {
    const auto amp = query.find('&', pos);
    const std::string item = query.substr(pos, amp == std::string::npos ? amp : amp - pos);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
      return Status::Error("bad option '" + item + "' in target '" + text +
                           "': expected key=value");
    }
    const std::string key = item.substr(0, eq);
    if (target.options.count(key)) {
      return Status::Error("option '" + key + "' given twice in target '" + text + "'");
    }
    target.options[key] = item.substr(eq + 1);
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return target;
}

Result<std::vector<Target>> ParseTargetList(const std::string& text) {
  std::vector<Target> targets;
  size_t pos = 0;
  while (pos <= text.size()) {
    const auto comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? comma : comma - pos);
    auto target = ParseTarget(item);
    if (!target.ok()) return target.status();
    targets.push_back(target.take());
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return targets;
}

Result<int> TargetOptions::Int(const std::string& key, int default_value, int min_value,
                               int max_value) {
  used_.push_back(key);
  const auto it = target_.options.find(key);
  if (it == target_.options.end()) return default_value;
  int value = 0;
  const std::string& s = it->second;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || value < min_value || value > max_value) {
    return Status::Error("target '" + target_.text + "': option " + key + "=" + s +
                         " must be an integer from " + std::to_string(min_value) + " to " +
                         std::to_string(max_value));
  }
  return value;
}

Result<std::string> TargetOptions::Choice(const std::string& key, const std::string& default_value,
                                          const std::vector<std::string>& choices) {
  used_.push_back(key);
  const auto it = target_.options.find(key);
  if (it == target_.options.end()) return default_value;
  if (std::find(choices.begin(), choices.end(), it->second) != choices.end()) return it->second;
  const std::string allowed = Join(choices, ", ");
  return Status::Error("target '" + target_.text + "': option " + key + "=" + it->second +
                       " is not one of: " + allowed);
}

Result<bool> TargetOptions::Bool(const std::string& key, bool default_value) {
  auto choice = Choice(key, default_value ? "on" : "off", {"on", "off", "1", "0", "true", "false"});
  if (!choice.ok()) return choice.status();
  const std::string& v = choice.value();
  return v == "on" || v == "1" || v == "true";
}

std::string TargetOptions::Text(const std::string& key, const std::string& default_value) {
  used_.push_back(key);
  const auto it = target_.options.find(key);
  return it == target_.options.end() ? default_value : it->second;
}

Status TargetOptions::CheckAllUsed() const {
  std::string unknown;
  for (const auto& [key, value] : target_.options) {
    if (std::find(used_.begin(), used_.end(), key) == used_.end()) {
      unknown += (unknown.empty() ? "" : ", ") + key;
    }
  }
  if (unknown.empty()) return Status::Ok();
  const std::string known = Join(used_, ", ");
  return Status::Error("target '" + target_.text + "': unknown option(s) " + unknown +
                       "; this backend accepts: " + known);
}

std::map<std::string, std::string> TargetOptions::TakeUnused() {
  std::map<std::string, std::string> unused;
  for (const auto& [key, value] : target_.options) {
    if (std::find(used_.begin(), used_.end(), key) == used_.end()) {
      unused[key] = value;
      used_.push_back(key);
    }
  }
  return unused;
}

}  // namespace edgebench
