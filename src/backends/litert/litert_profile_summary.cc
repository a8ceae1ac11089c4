#include "backends/litert/litert_profile_summary.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace edgebench {

std::map<std::string, int> BuiltinNodesInProfile(const std::string& summary) {
  std::map<std::string, int> builtin;
  std::istringstream in(summary);
  bool in_run_order = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find("=====") != std::string::npos) {
      in_run_order = line.find("Run Order") != std::string::npos;
      continue;
    }
    if (!in_run_order || line.find("[Builtin]") == std::string::npos) continue;
    std::istringstream fields(line);
    std::string op;
    fields >> op;
    builtin[op] += 1;
  }
  return builtin;
}

Result<OperatorProfile> OperatorProfileFromLiteRtSummary(const std::string& summary, int64_t runs,
                                                         const std::string& device) {
  // TensorFlow Lite's profile summarizer: "[node type] [start] [first] [avg ms] [%] [cdf%]
  // [mem KB] [times called] [Name]", one row per node in "Run Order"; XNNPACK's own operators
  // are rows "Delegate/<xnnpack operator>" named "[Delegate]:<i>", builtin kernels "[Builtin]:<i>".
  OperatorProfile profile;
  profile.source = "LiteRT's profiler (LiteRtGetProfileSummary: XNNPACK's operators and builtin kernels)";
  profile.runs = runs;
  std::istringstream in(summary);
  bool in_run_order = false, seen_table = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find("=====") != std::string::npos) {
      in_run_order = line.find("Run Order") != std::string::npos;
      seen_table = seen_table || in_run_order;
      continue;
    }
    if (!in_run_order || line.find("[node type]") != std::string::npos) continue;
    std::vector<std::string> tokens;
    std::istringstream fields(line);
    for (std::string t; fields >> t;) tokens.push_back(t);
    if (tokens.size() < 9) continue;
    const std::string name = tokens.back();
    const bool delegated = name.rfind("[Delegate]:", 0) == 0;
    if (!delegated && name.rfind("[Builtin]:", 0) != 0) continue;
    const size_t n = tokens.size();
    char* end = nullptr;
    const double avg_ms = std::strtod(tokens[n - 6].c_str(), &end);
    if (end == tokens[n - 6].c_str()) return Status::Error("no average time in row '" + line + "'");
    const long long calls = std::strtoll(tokens[n - 2].c_str(), &end, 10);
    if (end == tokens[n - 2].c_str()) return Status::Error("no call count in row '" + line + "'");
    std::string type;
    for (size_t i = 0; i + 8 < n; ++i) type += (type.empty() ? "" : " ") + tokens[i];
    if (delegated && type.rfind("Delegate/", 0) == 0) type = type.substr(9);
    const std::string index = name.substr(name.find(':') + 1);
    profile.operators.push_back({(delegated ? device + " operator " : "node ") + index, type,
                                 delegated ? device : "cpu", calls,
                                 static_cast<int64_t>(std::llround(avg_ms * 1e6 * static_cast<double>(calls)))});
  }
  if (!seen_table) return Status::Error("it has no \"Run Order\" table");
  profile.notes.push_back("LiteRT's summary gives each operator's average in steps of 1 us, not each execution: "
                          "no operators on the trace's timeline");
  return profile;
}

}  // namespace edgebench
