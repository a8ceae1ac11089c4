#include "backends/armnn/armnn_graph.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace edgebench {
namespace {

// "Wall clock time_#12" -> "Wall clock time"; Arm NN numbers every event and measurement.
std::string WithoutEventNumber(const std::string& key) {
  const size_t mark = key.rfind("_#");
  return mark == std::string::npos ? key : key.substr(0, mark);
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// The event's own wall-clock times: Arm NN merges repeated inferences into one event whose
// "Wall clock time" measurement holds one value (us) per run. Total ns and the number of values.
struct ArmNnEventTime {
  int64_t total_ns = 0;
  int64_t calls = 0;
};
std::optional<ArmNnEventTime> ArmNnEventNs(const nlohmann::ordered_json& event) {
  for (const auto& [key, value] : event.items()) {
    if (WithoutEventNumber(key) != "Wall clock time" || !value.is_object()) continue;
    const auto raw = value.find("raw");
    if (raw == value.end() || !raw->is_array()) continue;
    double us = 0;
    ArmNnEventTime time;
    for (const auto& sample : *raw) {
      if (!sample.is_number()) continue;
      us += sample.get<double>();
      ++time.calls;
    }
    time.total_ns = static_cast<int64_t>(us * 1000.0 + 0.5);
    return time;
  }
  return std::nullopt;
}

}  // namespace

Result<std::vector<ArmNnLayer>> ParseArmNnDot(const std::string& dot) {
  std::vector<ArmNnLayer> layers;
  size_t at = 0;
  while ((at = dot.find("[label=\"{", at)) != std::string::npos) {
    at += 9;
    const size_t end = dot.find("}\"]", at);
    if (end == std::string::npos) break;
    const std::string label = dot.substr(at, end - at);
    at = end;
    // "Type|Key : value\lKey : value\l": fields split by the dot escape "\l".
    ArmNnLayer layer;
    const size_t bar = label.find('|');
    layer.type = label.substr(0, bar);
    std::string fields = bar == std::string::npos ? "" : label.substr(bar + 1);
    size_t start = 0;
    while (start < fields.size()) {
      size_t stop = fields.find("\\l", start);
      if (stop == std::string::npos) stop = fields.size();
      const std::string field = fields.substr(start, stop - start);
      start = stop + 2;
      const size_t colon = field.find(" : ");
      if (colon == std::string::npos) continue;
      const std::string key = field.substr(0, colon);
      const std::string value = field.substr(colon + 3);
      if (key == "LayerName") layer.name = value;
      if (key == "LayerType") layer.type = value;
      if (key == "BackendID") layer.backend = value;
      if (key != "LayerName" && key != "LayerType" && key != "BackendID") layer.parameters[key] = value;
    }
    layers.push_back(std::move(layer));
  }
  if (layers.empty()) return Status::Error("Arm NN's dot text of the optimized network holds no layers");
  return layers;
}

std::vector<int> TfliteOperatorsOfLayer(const std::string& layer_name) {
  std::vector<int> operators;
  // Every ":0:N" in the name (subgraph 0, operator N), N ending at a non-digit.
  size_t at = 0;
  while ((at = layer_name.find(":0:", at)) != std::string::npos) {
    size_t digit = at + 3;
    int index = 0;
    bool any = false;
    while (digit < layer_name.size() && std::isdigit(static_cast<unsigned char>(layer_name[digit]))) {
      index = index * 10 + (layer_name[digit] - '0');
      any = true;
      ++digit;
      if (index > 100'000'000) break;
    }
    if (any && at > 0 && std::find(operators.begin(), operators.end(), index) == operators.end()) {
      operators.push_back(index);
    }
    at = digit;
  }
  return operators;
}

bool IsArmNnDataLayer(const std::string& type) {
  return type == "Input" || type == "Output" || type == "Constant";
}

std::string ArmNnDeviceName(const std::string& backend) {
  return ToLowerAscii(backend);
}

Placement ArmNnPlacement(const std::vector<ArmNnLayer>& layers, const std::string& requested_backend,
                         std::optional<int> model_operators, std::vector<std::string>& notes) {
  Placement placement;
  std::map<int, std::string> operator_device;  // TFLite operator -> the device of its first layer
  std::map<std::string, int> fell_back;         // op types assigned to another backend
  int executed = 0;
  std::string previous_device;
  for (const ArmNnLayer& layer : layers) {
    if (IsArmNnDataLayer(layer.type)) continue;
    const std::string device = ArmNnDeviceName(layer.backend.empty() ? "unassigned" : layer.backend);
    ++executed;
    ++placement.nodes_by_device[device];
    ++placement.ops_by_device[device][layer.type];
    if (std::find(placement.devices_used.begin(), placement.devices_used.end(), device) ==
        placement.devices_used.end()) {
      placement.devices_used.push_back(device);
    }
    // Runs of layers on one backend, in the dot's (topological) order.
    if (device != previous_device) ++placement.partitions_by_device[device];
    previous_device = device;
    if (layer.backend != requested_backend) ++fell_back[layer.type];
    // A MemCopy's name joins the two layers it links; it is no operator's own layer.
    if (layer.type == "MemCopy" || layer.type == "MemImport") continue;
    for (int op : TfliteOperatorsOfLayer(layer.name)) operator_device.emplace(op, device);
  }
  placement.known = executed > 0;
  if (!fell_back.empty()) {
    int count = 0;
    for (const auto& [type, n] : fell_back) count += n;
    notes.push_back("Arm NN fell back for " + std::to_string(count) + " of " + std::to_string(executed) +
                    " layers: not on " + requested_backend + " (" + OpTypeCountsText(fell_back) +
                    "); see placement for where they ran");
  }
  if (model_operators && !operator_device.empty()) {
    placement.model_nodes = *model_operators;
    int named = 0;
    for (const auto& [op, device] : operator_device) {
      if (op < *model_operators) {
        ++placement.original_nodes_by_device[device];
        ++named;
      }
    }
    if (named < *model_operators) {
      std::string note = std::to_string(*model_operators - named) + " of the model's " +
                         std::to_string(*model_operators) +
                         " TFLite operators name no layer of Arm NN's optimized network (folded into "
                         "constants, as DEQUANTIZE of fp16 weights, or merged under another name)";
      // With one backend, whatever they became ran there; with several, it cannot be told.
      if (placement.devices_used.size() == 1) {
        placement.original_nodes_by_device[placement.devices_used.front()] = *model_operators;
        note += "; every layer ran on " + placement.devices_used.front() + ", so they count there";
      } else {
        note += "; they are left out of the per-backend counts";
      }
      notes.push_back(note);
    }
  }
  return placement;
}

Result<OperatorProfile> ArmNnProfileFromJson(const std::string& json, const std::vector<ArmNnLayer>& layers,
                                             const std::string& default_device, int64_t runs) {
  const size_t open = json.find('{');
  if (open == std::string::npos) return Status::Error("Arm NN's profiler wrote no JSON");
  nlohmann::ordered_json root = nlohmann::ordered_json::parse(json.begin() + static_cast<std::ptrdiff_t>(open), json.end(),
                                              nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) {
    return Status::Error("Arm NN's profiler output is not the JSON edgebench reads (IProfiler::Print)");
  }
  const auto armnn = root.find("ArmNN");
  if (armnn == root.end() || !armnn->is_object()) {
    return Status::Error("Arm NN's profiler output has no \"ArmNN\" object");
  }
  // Longest names first, so "Conv2D:0:2:RELU6" wins over "Conv2D:0:2" for its own events.
  std::vector<const ArmNnLayer*> by_length;
  for (const ArmNnLayer& layer : layers) {
    if (!layer.name.empty()) by_length.push_back(&layer);
  }
  std::sort(by_length.begin(), by_length.end(),
            [](const ArmNnLayer* a, const ArmNnLayer* b) { return a->name.size() > b->name.size(); });
  OperatorProfile profile;
  profile.source = "Arm NN's profiler (IProfiler, per-workload wall-clock times)";
  profile.runs = runs;
  std::map<std::pair<std::string, std::string>, size_t> index;  // (node, device) -> operators
  int64_t inferences = 0;
  for (const auto& [key, inference] : armnn->items()) {
    if (!StartsWith(key, "inference_measurements") || !inference.is_object()) continue;
    if (const auto whole = ArmNnEventNs(inference)) inferences += whole->calls;
    for (const auto& [execute_key, execute] : inference.items()) {
      if (WithoutEventNumber(execute_key) != "Execute" || !execute.is_object()) continue;
      for (const auto& [event_key, event] : execute.items()) {
        if (!event.is_object() || event.value("type", "") != "Event") continue;
        const std::string event_name = WithoutEventNumber(event_key);
        if (event_name == "Working Memory Allocation") continue;  // Arm NN's own bookkeeping
        const auto ns = ArmNnEventNs(event);
        if (!ns) continue;
        OperatorTime time;
        time.device = default_device;
        time.op_type = event_name;
        for (const ArmNnLayer* layer : by_length) {
          if (event_name.size() > layer->name.size() && StartsWith(event_name, layer->name + "_")) {
            time.node = layer->name;
            time.op_type = layer->type;
            time.device = ArmNnDeviceName(layer->backend);
            break;
          }
        }
        if (time.node.empty()) time.op_type = event_name.substr(0, event_name.rfind("_Execute"));
        const auto slot = index.try_emplace({time.node + "\n" + time.op_type, time.device},
                                            profile.operators.size());
        if (slot.second) profile.operators.push_back(time);
        OperatorTime& into = profile.operators[slot.first->second];
        into.calls += ns->calls;
        into.total_ns += ns->total_ns;
      }
    }
  }
  if (inferences != runs) {
    profile.notes.push_back("Arm NN's profiler holds " + std::to_string(inferences) + " inferences for " +
                            std::to_string(runs) + " profiled runs");
  }
  profile.notes.push_back("Arm NN's profiler gives each workload's wall-clock time; its start times are "
                          "on Arm NN's clock, not the harness's, so there are no trace spans");
  return profile;
}

}  // namespace edgebench
