#include "core/filler_values.h"

namespace edgebench {
namespace {

uint32_t NextFillerState(uint32_t state) { return state * 1664525u + 1013904223u; }

}  // namespace

void FillFloats(float* out, size_t count, uint32_t state) {
  for (size_t i = 0; i < count; ++i) {
    state = NextFillerState(state);
    out[i] = static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1.0f;
  }
}

void FillBytes(void* out, size_t count, uint32_t state) {
  auto* bytes = static_cast<unsigned char*>(out);
  for (size_t i = 0; i < count; ++i) {
    state = NextFillerState(state);
    bytes[i] = static_cast<unsigned char>(state >> 24);
  }
}

}  // namespace edgebench
