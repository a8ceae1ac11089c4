#include "core/layout.h"

#include <cstring>

namespace edgebench {

Tensor Transpose4D(const Tensor& in, bool to_nhwc) {
  if (in.shape.size() != 4) return in;
  const size_t width = DTypeSize(in.dtype);
  Tensor out = in;
  const int64_t n = in.shape[0];
  // Source dims as (a, b, c, d); NCHW->NHWC moves axis 1 to the end, NHWC->NCHW the reverse.
  const int64_t a = in.shape[0], b = in.shape[1], c = in.shape[2], d = in.shape[3];
  if (to_nhwc) {
    out.shape = {n, c, d, b};  // [n, h, w, c] from [n, c=b, h=c, w=d]
    for (int64_t i = 0; i < a; ++i)
      for (int64_t ch = 0; ch < b; ++ch)
        for (int64_t y = 0; y < c; ++y)
          for (int64_t x = 0; x < d; ++x) {
            const int64_t src = ((i * b + ch) * c + y) * d + x;
            const int64_t dst = ((i * c + y) * d + x) * b + ch;
            std::memcpy(out.data.data() + dst * width, in.data.data() + src * width, width);
          }
  } else {
    out.shape = {n, d, b, c};  // [n, c, h, w] from [n, h=b, w=c, c=d]
    for (int64_t i = 0; i < a; ++i)
      for (int64_t y = 0; y < b; ++y)
        for (int64_t x = 0; x < c; ++x)
          for (int64_t ch = 0; ch < d; ++ch) {
            const int64_t src = ((i * b + y) * c + x) * d + ch;
            const int64_t dst = ((i * d + ch) * b + y) * c + x;
            std::memcpy(out.data.data() + dst * width, in.data.data() + src * width, width);
          }
  }
  return out;
}

}  // namespace edgebench
