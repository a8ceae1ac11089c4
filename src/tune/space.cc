#include "tune/space.h"

#include <set>

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
  std::vector<TuneConfiguration> configurations(1);
  for (const SpaceDimension& dimension : space) {
    std::vector<TuneConfiguration> next;
    for (const TuneConfiguration& base : configurations) {
      for (const std::string& value : dimension.values) {
        TuneConfiguration c = base;
        c.values[dimension.key] = value;
        next.push_back(std::move(c));
      }
    }
    configurations = std::move(next);
  }
  constexpr size_t kMaxConfigurations = 4096;
  if (configurations.size() > kMaxConfigurations) {
    return Status::Error("--space expands to " + std::to_string(configurations.size()) +
                         " configurations; more than " + std::to_string(kMaxConfigurations) +
                         " is not a search but a typo; shorten a list");
  }
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
