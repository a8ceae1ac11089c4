#include "core/layout.h"

#include <array>
#include <cstring>

namespace edgebench {

std::string LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kNchw: return "nchw";
    case Layout::kNhwc: return "nhwc";
    case Layout::kAny: break;
  }
  return "any";
}

Result<Layout> ParseLayout(const std::string& text, const std::string& context) {
  if (text == "nchw" || text == "NCHW") return Layout::kNchw;
  if (text == "nhwc" || text == "NHWC") return Layout::kNhwc;
  if (text == "any" || text.empty()) return Layout::kAny;
  return Status::Error("bad layout '" + text + "' for " + context + ": use nchw or nhwc");
}

Tensor Transpose4D(const Tensor& in, bool to_nhwc) {
  if (in.shape.size() != 4) return in;
  // Output axis k is input axis perm[k]: NCHW->NHWC moves channels last, NHWC->NCHW first.
  const std::array<size_t, 4> perm = to_nhwc ? std::array<size_t, 4>{0, 2, 3, 1}
                                             : std::array<size_t, 4>{0, 3, 1, 2};
  std::array<int64_t, 4> in_stride{};
  in_stride[3] = 1;
  for (int k = 2; k >= 0; --k) in_stride[k] = in_stride[k + 1] * in.shape[k + 1];
  Tensor out = in;
  for (size_t k = 0; k < 4; ++k) out.shape[k] = in.shape[perm[k]];
  const size_t width = DTypeSize(in.dtype);
  int64_t dst = 0;
  for (int64_t i0 = 0; i0 < out.shape[0]; ++i0)
    for (int64_t i1 = 0; i1 < out.shape[1]; ++i1)
      for (int64_t i2 = 0; i2 < out.shape[2]; ++i2)
        for (int64_t i3 = 0; i3 < out.shape[3]; ++i3, ++dst) {
          const int64_t src = i0 * in_stride[perm[0]] + i1 * in_stride[perm[1]] +
                              i2 * in_stride[perm[2]] + i3 * in_stride[perm[3]];
          std::memcpy(out.data.data() + dst * width, in.data.data() + src * width, width);
        }
  return out;
}

}  // namespace edgebench
