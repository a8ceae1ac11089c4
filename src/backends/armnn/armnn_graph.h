// Arm NN's optimized network as text: the layers IOptimizedNetwork::SerializeToDot writes (each
// with the backend armnn::Optimize assigned it), and the placement and per-workload profile
// edgebench reads from them. Arm NN 23.08 gives no public getter for a layer's backend
// (IConnectableLayer has SetBackendId only); the dot text carries "BackendID" for every layer.
// Kept apart from Arm NN's types so the reading is testable without the library.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/operator_profile.h"
#include "core/placement.h"
#include "core/status.h"

namespace edgebench {

// One layer of the optimized network, as SerializeToDot labels it.
struct ArmNnLayer {
  std::string name;     // "Conv2D:0:2", "folded-Pad:0:1-into-Conv2D:0:2", "serving_default_x"
  std::string type;     // Arm NN's layer type: "Convolution2d", "Activation", "MemCopy"
  std::string backend;  // the backend Optimize assigned: "CpuRef", "CpuAcc", "GpuAcc"
  std::map<std::string, std::string> parameters;  // the label's other fields: "HalfPixelCenters" -> "0"
};

// The layers of SerializeToDot's text, in its order; an error where it holds none.
Result<std::vector<ArmNnLayer>> ParseArmNnDot(const std::string& dot);

// The TFLite operators (subgraph 0) a layer name of Arm NN's TFLite parser mentions: its names are
// "TYPE:SUBGRAPH:OPERATOR", optimizations join them ("folded-Pad:0:1-into-Conv2D:0:2") and fused
// activations add a suffix ("Conv2D:0:2:RELU6"). Empty for inputs, outputs and constants.
std::vector<int> TfliteOperatorsOfLayer(const std::string& layer_name);

// Inputs, outputs and constants: the graph's edges and data, not work a backend does.
bool IsArmNnDataLayer(const std::string& type);

// edgebench's device name for an Arm NN backend id: "CpuRef" -> "cpuref".
std::string ArmNnDeviceName(const std::string& backend);

// Where the layers ran. Executed nodes: every layer but inputs, outputs and constants, by the
// backend Optimize assigned (MemCopy/MemImport layers, which Arm NN inserts where the backend
// changes, count too: they are work). The model's own nodes, where `model_operators` is given:
// each TFLite operator counts on the backend of the first layer that names it. `notes` gets
// what the placement does not show on its own (layers that fell back, operators without a layer).
Placement ArmNnPlacement(const std::vector<ArmNnLayer>& layers, const std::string& requested_backend,
                         std::optional<int> model_operators, std::vector<std::string>& notes);

// Per-workload times from the JSON IProfiler::Print writes: every workload event directly under an
// "inference_measurements" event's "Execute" event, summed per layer over the runs it covers.
// `layers` names each event's layer (its event is "LAYERNAME_WORKLOAD_Execute"), giving its type
// and backend; an event that names no layer (CopyMemGeneric) counts as its own op type on
// `default_device`.
Result<OperatorProfile> ArmNnProfileFromJson(const std::string& json, const std::vector<ArmNnLayer>& layers,
                                             const std::string& default_device, int64_t runs);

}  // namespace edgebench
