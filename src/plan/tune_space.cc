#include "plan/tune_space.h"

#include <cstdio>
#include <set>

#include "core/cartesian.h"
#include "core/strings.h"

namespace edgebench {
namespace {

constexpr const char* kForm = "KEY=V1,V2;KEY=..., e.g. 'target=ort:cpu,ort:xnnpack;threads=1,2;batch=1,4'";

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts = SplitList(text, separator);
  for (std::string& part : parts) part = TrimBlanks(part);
  return parts;
}

}  // namespace

Result<std::vector<SpaceDimension>> ParseSpace(const std::string& text) {
  std::vector<SpaceDimension> space;
  std::set<std::string> keys;
  for (const std::string& part : Split(text, ';')) {
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::Error("--space: '" + part + "' is not KEY=VALUES; the form is " + kForm);
    }
    SpaceDimension dimension;
    dimension.key = TrimBlanks(part.substr(0, eq));
    if (!keys.insert(dimension.key).second) {
      return Status::Error("--space: key '" + dimension.key + "' is given twice; list all its values once, comma-separated");
    }
    std::set<std::string> seen;
    for (const std::string& value : Split(part.substr(eq + 1), ',')) {
      if (value.empty()) {
        return Status::Error("--space: '" + dimension.key + "' has an empty value in '" + part + "'");
      }
      if (!seen.insert(value).second) {
        return Status::Error("--space: '" + dimension.key + "' lists '" + value + "' twice");
      }
      dimension.values.push_back(value);
    }
    space.push_back(std::move(dimension));
  }
  if (!keys.count("target")) {
    return Status::Error("--space has no 'target' list; the form is " + std::string(kForm));
  }
  return space;
}

Result<std::vector<TuneConfiguration>> ExpandSpace(const std::vector<SpaceDimension>& space) {
  std::vector<size_t> sizes;
  for (const SpaceDimension& dimension : space) sizes.push_back(dimension.values.size());
  // Counted before anything is made: a space of ten lists of ten is refused, not allocated.
  constexpr double kMaxConfigurations = 4096;
  if (const double count = CartesianCount(sizes); count > kMaxConfigurations) {
    char text[32];
    std::snprintf(text, sizeof text, count < 1e15 ? "%.0f" : "%.3g", count);
    return Status::Error("--space expands to " + std::string(text) + " configurations; more than 4096 is not a "
                         "search but a typo; shorten a list");
  }
  std::vector<TuneConfiguration> configurations;
  ForEachCombination(sizes, [&](const std::vector<size_t>& index) {
    TuneConfiguration c;
    for (size_t d = 0; d < space.size(); ++d) c.values[space[d].key] = space[d].values[index[d]];
    configurations.push_back(std::move(c));
  });
  for (TuneConfiguration& c : configurations) {
    auto target = ParseTarget(c.values.at("target"));
    if (!target.ok()) return Status::Error("--space: " + target.error());
    c.target = target.take();
    c.label = c.values.at("target");
    for (const SpaceDimension& dimension : space) {
      const std::string& key = dimension.key;
      if (key == "target") continue;
      const std::string& value = c.values.at(key);
      c.label += " " + key + "=" + value;
      if (key == "batch") {
        int64_t batch = 0;
        try {
          size_t used = 0;
          batch = std::stoll(value, &used);
          if (used != value.size()) batch = 0;
        } catch (const std::exception&) {
          batch = 0;
        }
        if (batch <= 0 || batch > (int64_t{1} << 20)) {
          return Status::Error("--space: batch '" + value + "' is not a positive integer up to 1048576");
        }
        c.batch = batch;
        continue;
      }
      if (c.target.options.count(key)) {
        return Status::Error("--space: target '" + c.values.at("target") + "' sets " + key +
                             " itself and the space lists it too; give it in one place");
      }
      c.target.options[key] = value;
    }
    c.target.text = c.target.Canonical();
  }
  return configurations;
}

}  // namespace edgebench
