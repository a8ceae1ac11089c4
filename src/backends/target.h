// A target: backend + device + options, written "ort:xnnpack" or "ort:cpu?threads=2&opt=all".
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

struct Target {
  std::string text;     // as the user wrote it
  std::string backend;  // "ort"
  std::string device;   // "cpu"; defaults to "cpu" when omitted
  std::map<std::string, std::string> options;
  // --profile: the session records per-operator times (Session::TakeOperatorProfile). Set by
  // the harness, not written in the target's text.
  bool profile_operators = false;
  // How many streams will call Run on each session at once (--sessions shared under a
  // multi-stream or server scenario: more than 1). Set by the harness, so a runtime with a mode
  // made for concurrent submission (MediaPipe's live stream) can choose it.
  int concurrent_callers = 1;
  // `edgebench drift`: the session keeps every intermediate tensor of its last Run for
  // Session::Intermediates(). Set by the harness. It may change what runs (ONNX Runtime cannot
  // fuse nodes whose inner values are graph outputs): never set for measured runs.
  bool expose_intermediates = false;

  // The canonical spelling: backend:device?k=v&k=v with options sorted.
  std::string Canonical() const;
};

Result<Target> ParseTarget(const std::string& text);
// Splits "a,b,c" into targets; an error names the bad one.
Result<std::vector<Target>> ParseTargetList(const std::string& text);

// Reads typed options and remembers which keys were used, so unknown keys are reported.
class TargetOptions {
 public:
  explicit TargetOptions(const Target& target) : target_(target) {}
  Result<int> Int(const std::string& key, int default_value, int min_value, int max_value);
  Result<std::string> Choice(const std::string& key, const std::string& default_value,
                             const std::vector<std::string>& choices);
  Result<bool> Bool(const std::string& key, bool default_value);
  // The option's text as written, or the default.
  std::string Text(const std::string& key, const std::string& default_value);
  // Error naming every option that no reader asked for.
  Status CheckAllUsed() const;
  // The options no reader asked for, now counted as used: a runtime's own options, passed on
  // as written for the runtime to apply or refuse (ONNX Runtime's provider options).
  std::map<std::string, std::string> TakeUnused();

 private:
  const Target& target_;
  std::vector<std::string> used_;
};

}  // namespace edgebench
