#include "diagnose/conformance_cases.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/strings.h"

namespace edgebench {

namespace {

Result<DType> ConformanceDTypeOfName(const std::string& name) {
  for (DType d : {DType::kFloat32, DType::kFloat16, DType::kInt8, DType::kUInt8, DType::kInt32, DType::kInt64,
                  DType::kBool}) {
    if (DTypeName(d) == name) return d;
  }
  return Status::Error("type '" + name + "' is not one of edgebench's tensor types");
}

nlohmann::json ConformanceTensorToJson(const ConformanceTensor& t) {
  return {{"name", t.name}, {"dtype", DTypeName(t.dtype)}, {"shape", t.shape}, {"file", t.file}};
}

Result<ConformanceTensor> ConformanceTensorFromJson(const nlohmann::json& j) {
  ConformanceTensor t;
  try {
    t.name = j.at("name").get<std::string>();
    auto dtype = ConformanceDTypeOfName(j.at("dtype").get<std::string>());
    if (!dtype.ok()) return Status::Error("tensor '" + t.name + "': " + dtype.error());
    t.dtype = dtype.value();
    t.shape = j.at("shape").get<std::vector<int64_t>>();
    t.file = j.at("file").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("a tensor: ") + e.what());
  }
  for (int64_t d : t.shape) {
    if (d < 0) return Status::Error("tensor '" + t.name + "' has a negative dimension");
  }
  return t;
}

}  // namespace

nlohmann::json ConformanceCaseToJson(const ConformanceCase& c) {
  nlohmann::json sets = nlohmann::json::array();
  for (const ConformanceDataSet& set : c.data_sets) {
    nlohmann::json inputs = nlohmann::json::array();
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& t : set.inputs) inputs.push_back(ConformanceTensorToJson(t));
    for (const auto& t : set.outputs) outputs.push_back(ConformanceTensorToJson(t));
    sets.push_back({{"inputs", inputs}, {"outputs", outputs}});
  }
  nlohmann::json j = {{"name", c.name},     {"op", c.op},           {"domain", c.domain}, {"family", c.family},
                      {"opset", c.opset},   {"expanded", c.expanded}, {"nodes", c.nodes}, {"rtol", c.rtol},
                      {"atol", c.atol},     {"model", c.model},     {"data_sets", sets}};
  if (!c.untestable.empty()) j["untestable"] = c.untestable;
  return j;
}

Result<ConformanceCase> ConformanceCaseFromJson(const nlohmann::json& j) {
  ConformanceCase c;
  try {
    c.name = j.at("name").get<std::string>();
    c.op = j.at("op").get<std::string>();
    c.domain = j.at("domain").get<std::string>();
    c.family = j.at("family").get<std::string>();
    c.opset = j.at("opset").get<int>();
    c.expanded = j.at("expanded").get<bool>();
    c.nodes = j.value("nodes", 1);
    c.rtol = j.at("rtol").get<double>();
    c.atol = j.at("atol").get<double>();
    c.model = j.at("model").get<std::string>();
    c.untestable = j.value("untestable", "");
    for (const auto& set : j.at("data_sets")) {
      ConformanceDataSet data_set;
      if (c.untestable.empty()) {
        for (const auto& t : set.at("inputs")) {
          auto tensor = ConformanceTensorFromJson(t);
          if (!tensor.ok()) return Status::Error("case " + c.name + ": " + tensor.error());
          data_set.inputs.push_back(tensor.take());
        }
        for (const auto& t : set.at("outputs")) {
          auto tensor = ConformanceTensorFromJson(t);
          if (!tensor.ok()) return Status::Error("case " + c.name + ": " + tensor.error());
          data_set.outputs.push_back(tensor.take());
        }
      }
      c.data_sets.push_back(std::move(data_set));
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::Error("case " + (c.name.empty() ? std::string("?") : c.name) + ": " + e.what());
  }
  if (c.name.empty() || c.name.find('/') != std::string::npos || c.model.find("..") != std::string::npos) {
    return Status::Error("case '" + c.name + "': a bad name or model path");
  }
  return c;
}

Result<ConformanceCases> ReadConformanceCases(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "manifest.json").string();
  std::ifstream in(path);
  if (!in) {
    return Status::Error("'" + dir + "' holds no manifest.json of ONNX node tests: make them with "
                         "scripts/models/onnx-node-tests (it prints their directory) and give that to --cases");
  }
  const auto json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object() || json.value("kind", "") != "onnx-node-tests") {
    return Status::Error("'" + path + "' is not a manifest of ONNX node tests (scripts/models/onnx-node-tests)");
  }
  ConformanceCases cases;
  cases.dir = dir;
  cases.onnx_version = json.value("onnx_version", "");
  if (!json.contains("cases") || !json.at("cases").is_array()) {
    return Status::Error("'" + path + "' lists no cases");
  }
  std::set<std::string> names;
  for (const auto& entry : json.at("cases")) {
    auto c = ConformanceCaseFromJson(entry);
    if (!c.ok()) return Status::Error(path + ": " + c.error());
    if (!names.insert(c.value().name).second) return Status::Error(path + ": case " + c.value().name + " is listed twice");
    cases.cases.push_back(c.take());
  }
  return cases;
}

Result<std::vector<ConformanceCase>> SelectConformanceCases(const std::vector<ConformanceCase>& cases,
                                                            const std::string& pattern) {
  if (pattern.empty()) return cases;
  const std::vector<std::string> globs = SplitList(pattern);
  std::vector<bool> used(globs.size(), false);
  std::vector<ConformanceCase> selected;
  for (const ConformanceCase& c : cases) {
    bool match = false;
    for (size_t g = 0; g < globs.size(); ++g) {
      if (fnmatch(globs[g].c_str(), c.op.c_str(), 0) == 0 || fnmatch(globs[g].c_str(), c.name.c_str(), 0) == 0) {
        used[g] = true;
        match = true;
      }
    }
    if (match) selected.push_back(c);
  }
  for (size_t g = 0; g < globs.size(); ++g) {
    if (used[g]) continue;
    std::set<std::string> ops;
    for (const ConformanceCase& c : cases) ops.insert(c.op);
    std::string like;
    for (const std::string& op : ops) {
      if (op.size() >= 2 && globs[g].size() >= 2 &&
          std::tolower(static_cast<unsigned char>(op[0])) == std::tolower(static_cast<unsigned char>(globs[g][0])) &&
          std::tolower(static_cast<unsigned char>(op[1])) == std::tolower(static_cast<unsigned char>(globs[g][1]))) {
        like += (like.empty() ? "" : ", ") + op;
      }
    }
    return Status::Error("--ops '" + globs[g] + "' matches no operator or case name (operators are written as ONNX "
                         "writes them, case-sensitive" +
                         (like.empty() ? std::string(")") : "; operators like it: " + like + ")"));
  }
  return selected;
}

Result<Tensor> ReadConformanceTensor(const std::string& dir, const ConformanceTensor& t) {
  const std::string path = (std::filesystem::path(dir) / t.file).string();
  auto size = CheckedSize(t.shape, t.dtype, INT64_MAX, "tensor '" + t.name + "'");
  if (!size.ok()) return size.status();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read '" + path + "'");
  Tensor tensor;
  tensor.name = t.name;
  tensor.dtype = t.dtype;
  tensor.shape = t.shape;
  tensor.data.resize(static_cast<size_t>(size.value().second));
  in.read(reinterpret_cast<char*>(tensor.data.data()), static_cast<std::streamsize>(tensor.data.size()));
  if (static_cast<size_t>(in.gcount()) != tensor.data.size() || in.peek() != std::char_traits<char>::eof()) {
    return Status::Error("'" + path + "' does not hold " + DTypeName(t.dtype) + " " + ShapeToString(t.shape) +
                         " (" + std::to_string(tensor.data.size()) + " bytes): regenerate the cases");
  }
  return tensor;
}

}  // namespace edgebench
