// A reader for NumPy's .npy files (what `np.save` writes), written from the format's
// specification (numpy.lib.format, versions 1.0, 2.0 and 3.0):
//   "\x93NUMPY", major version byte, minor version byte,
//   header length: 2 bytes little-endian (1.0) or 4 bytes little-endian (2.0, 3.0),
//   header: a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//           (ASCII in 1.0/2.0, UTF-8 in 3.0) ending in '\n', padded with spaces,
//   data: the elements, C order, in the byte order descr names.
// Read: the dtypes an edgebench input can have, little-endian (`<f4 <f2 |i1 |u1 <i4 <i8 |b1`),
// C order. Everything else (big-endian, float64, structured dtypes, Fortran order, pickled
// objects) is refused with an error that names the file, what it holds and how to convert it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

struct NpyHeader {
  int major_version = 0;
  int minor_version = 0;
  std::string descr;            // as written, e.g. "<f4"
  DType dtype = DType::kUnknown;
  std::vector<int64_t> shape;   // () in the file is {} here: a scalar, one element
  uint64_t data_offset = 0;     // where the elements start in the file
  uint64_t data_bytes = 0;      // element count x element size (overflow-checked)
};

// Parses the header from the first bytes of a file (`bytes` must hold at least the magic,
// version, length and the whole header; more is fine). `label` names the file in errors.
Result<NpyHeader> ParseNpyHeader(std::string_view bytes, const std::string& label);

// Reads only the header of the file at `path` (cheap: for shapes before any data is read).
Result<NpyHeader> ReadNpyHeader(const std::string& path);

// Reads the whole file into a tensor named after nothing (the caller names it). The file's
// size must be exactly header + data: a truncated file or trailing bytes are errors.
Result<Tensor> ReadNpyFile(const std::string& path);

}  // namespace edgebench
