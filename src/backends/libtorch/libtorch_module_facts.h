// What edgebench reads from a TorchScript module besides running it: the inputs and outputs
// described by the export (TorchScript keeps no shapes), and the forward graph's operators.
#pragma once

#include <map>
#include <string>

#include <torch/script.h>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

// The extra file scripts/models/export_torch_models.py stores in every .pt it writes.
inline constexpr const char* kTorchScriptDescriptionFile = "edgebench.json";

// The signature from the description's JSON: {"inputs": [{"name", "dtype", "shape",
// "dynamic_dims": {"0": {"min", "max"}}}], "outputs": [...]}; a dynamic axis becomes the symbol
// "batch" (the name every export of tests/models/torch gives its batch). `path` is for errors.
Result<Signature> SignatureFromTorchScriptDescription(const std::string& json_text,
                                                      const std::string& path);

// The forward method's graph with every submodule call inlined (the module's own operators, as
// saved, before TorchScript's executor optimizes it).
struct TorchScriptGraphFacts {
  std::map<std::string, int> operators;  // aten op ("aten::conv2d") -> nodes
  int operator_nodes = 0;                // their sum
  int bookkeeping_nodes = 0;             // prim:: nodes (constants, attributes, lists, tuples)
  int forks = 0;                         // prim::fork: the only users of the inter-op pool
};
TorchScriptGraphFacts ReadTorchScriptGraph(const torch::jit::Module& module);

// Which BLAS this process maps (LibTorch's matrix products, aten::linear and aten::matmul, call
// the libblas.so.3 alternative on Debian): a note naming the file, and saying so when it is the
// reference (netlib) BLAS; empty when no libblas is mapped.
std::string MappedBlasNote();

// LibTorch's error text without its C++ backtrace, on one line.
std::string TorchErrorText(const std::exception& error);

// edgebench's dtype of an ATen scalar type; kUnknown where edgebench has none.
DType FromTorchScalarType(c10::ScalarType type);
Result<c10::ScalarType> ToTorchScalarType(DType dtype);

}  // namespace edgebench
