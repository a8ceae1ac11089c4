// A file mapped read-only: its bytes as a view, only the pages a reader touches resident. The
// model-file readers (core/onnx_graph_reader.h, core/tflite_work.h) use it so that counting a
// model inside a measured process does not raise its peak memory by the model's size.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"

namespace edgebench {

class MappedFile {
 public:
  // Error naming `path` when it cannot be opened, is not a regular file, or cannot be mapped.
  static Result<MappedFile> Open(const std::string& path);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&&) = delete;
  MappedFile(const MappedFile&) = delete;
  ~MappedFile();

  std::string_view bytes() const { return {data_, size_}; }

 private:
  MappedFile(const char* data, size_t size) : data_(data), size_(size) {}
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace edgebench
