// What the backends' tests on the tiny PyTorch exports kept in tests/models/torch share (made by
// scripts/models/export-torch-models: NETWORK.onnx, .tflite, .pte, .pt of the same weights, and
// eager PyTorch's input and output as NETWORK.input_0.npy and NETWORK.output_0.npy).
//
// Each backend's test is a binary of its own (tests/CMakeLists.txt, edgebench_add_backend_test)
// and defines, in namespace edgebench, the backend it tests:
//   std::unique_ptr<Backend> MakeBackendUnderTest() { return MakeOpenVinoBackend(); }
// EDGEBENCH_TORCH_MODELS_DIR is the exports' directory.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "inputs/npy_file.h"

namespace edgebench {

std::unique_ptr<Backend> MakeBackendUnderTest();

inline const std::string kTorchModels = EDGEBENCH_TORCH_MODELS_DIR;

// The model at `path` loaded by a new backend under test on `target_text`, with the runtime's
// per-operator profiler on when `profile`.
inline Result<std::unique_ptr<Session>> TryLoad(const std::string& path, const std::string& target_text,
                                                bool profile = false) {
  auto target = ParseTarget(target_text);
  if (!target.ok()) return target.status();
  target.value().profile_operators = profile;
  return MakeBackendUnderTest()->Load({path}, target.value());
}

// The same, failing the test (and answering nullptr) when the load fails.
inline std::unique_ptr<Session> LoadOrDie(const std::string& path, const std::string& target_text,
                                          bool profile = false) {
  auto session = TryLoad(path, target_text, profile);
  EXPECT_TRUE(session.ok()) << path << " on " << target_text << ": " << session.error();
  return session.ok() ? session.take() : nullptr;
}

// Eager PyTorch's `kind` ("input" or "output") of `network`.
inline Tensor Reference(const std::string& network, const std::string& kind) {
  auto t = ReadNpyFile(kTorchModels + "/" + network + "." + kind + "_0.npy");
  EXPECT_TRUE(t.ok()) << t.error();
  return t.ok() ? t.take() : Tensor{};
}

// The session prepared for `input`'s shape and run once on it; a failure fails the test.
inline std::vector<Tensor> RunOnce(Session& session, const Tensor& input) {
  const Status prepared = session.Prepare({input.shape});
  EXPECT_TRUE(prepared.ok()) << prepared.message();
  std::vector<Tensor> outputs;
  const Status ran = session.Run({input}, outputs);
  EXPECT_TRUE(ran.ok()) << ran.message();
  return outputs;
}

// The largest absolute difference between two float32 tensors of the same shape; 1e9 (and a
// failed test) when their shapes or types differ.
inline double MaxAbsDiff(const Tensor& a, const Tensor& b) {
  EXPECT_EQ(a.shape, b.shape);
  EXPECT_EQ(a.dtype, DType::kFloat32);
  if (a.shape != b.shape || a.dtype != DType::kFloat32 || b.dtype != DType::kFloat32) return 1e9;
  double worst = 0;
  for (int64_t i = 0; i < a.element_count(); ++i) {
    worst = std::max(worst, static_cast<double>(std::fabs(a.as<float>()[i] - b.as<float>()[i])));
  }
  return worst;
}

// A batch of `n` copies of a batch-1 input.
inline Tensor Repeat(const Tensor& one, int64_t n) {
  Tensor batch = one;
  batch.shape[0] = n;
  batch.data.clear();
  for (int64_t i = 0; i < n; ++i) batch.data.insert(batch.data.end(), one.data.begin(), one.data.end());
  return batch;
}

// The first `share` of the file at `from`, written to the test's temporary directory as `name`.
inline std::string WriteTruncatedCopy(const std::string& from, const std::string& name, double share) {
  const std::string path = ::testing::TempDir() + name;
  std::ifstream in(from, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_GT(bytes.size(), 100u);
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(static_cast<double>(bytes.size()) * share));
  return path;
}

}  // namespace edgebench
