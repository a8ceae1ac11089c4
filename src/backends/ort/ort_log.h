// Receives ONNX Runtime's log messages. While a session is being created, the "Node
// placements" messages are parsed into that session's placement; warnings and errors are
// kept as notes for its record and shown on stderr; everything else only with --verbose.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <onnxruntime_cxx_api.h>

namespace edgebench {

// "Node(s) placed on [XnnpackExecutionProvider]. Number of nodes: 12" -> {provider, 12}.
std::optional<std::pair<std::string, int>> ParseOrtPlacementLine(const std::string& message);

// "   Softmax (softmax_31)", a line ORT logs under a "Node(s) placed on" line for each node it
// placed there -> {op type, node name}. A fused node's op type is its fused name
// ("DNNL_7901984721631076720_0").
std::optional<std::pair<std::string, std::string>> ParseOrtPlacedNodeLine(
    const std::string& message);

// A provider's target device: its name without "ExecutionProvider", in lower case
// ("XnnpackExecutionProvider" -> "xnnpack", "CUDAExecutionProvider" -> "cuda").
std::string OrtProviderToDevice(const std::string& provider);

class OrtLogCapture {
 public:
  struct Captured {
    std::map<std::string, int> nodes_by_provider;
    // provider -> op type -> nodes, from the node lines ORT logs when more than one provider
    // has nodes ("All nodes placed on" lists none).
    std::map<std::string, std::map<std::string, int>> op_types_by_provider;
    // provider -> nodes that are subgraphs it fused (ORT names them after the provider:
    // "DnnlExecutionProvider_DNNL_7901984721631076720_0_0"), among the listed ones.
    std::map<std::string, int> fused_nodes_by_provider;
    std::vector<std::string> notes;
  };

  // Begin/End bracket one session creation. Not reentrant: the backend serialises them.
  void Begin();
  Captured End();

  // The callback ORT calls (OrtLoggingFunction); `param` is the OrtLogCapture.
  static void OnMessage(void* param, OrtLoggingLevel severity, const char* category,
                        const char* logid, const char* code_location, const char* message);

 private:
  std::mutex mutex_;
  bool capturing_ = false;
  std::string listing_provider_;  // the provider whose node lines are being logged, if any
  Captured captured_;
};

}  // namespace edgebench
