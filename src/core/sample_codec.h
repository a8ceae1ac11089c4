// Compact storage of per-query integer series (latencies, issue times, stream ids) in records:
// a 1 s run of a sub-microsecond null query makes millions of samples, which as JSON numbers
// took hundreds of megabytes. Each value is stored as the zigzag-encoded difference from the
// previous one, as an LEB128 varint, and the bytes as base64 (RFC 4648): latencies of similar
// size and increasing issue times then cost one to three bytes each. Lossless.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

inline constexpr const char* kSampleEncoding = "delta-zigzag-varint-base64";

std::string EncodeSamples(const std::vector<int64_t>& values);
// The error says what is wrong with the text (not base64, a truncated varint).
Result<std::vector<int64_t>> DecodeSamples(const std::string& text);

}  // namespace edgebench
