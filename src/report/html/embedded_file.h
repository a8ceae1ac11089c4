// Files assembled into edgebench as read-only data (.incbin): the chart library, and the report
// page's own script and style sheet, which stay real files in the tree so that they can be
// edited and linted as JavaScript and CSS. A megabyte of JavaScript as a C++ literal or byte
// array would cost the compiler far more than the assembler's copy.
#pragma once

#include <cstddef>
#include <string_view>

// Defines symbol_begin and symbol_end around the bytes of `path` (a string literal the build
// passes in), with a NUL after them; declare them with EDGEBENCH_EMBEDDED_EXTERN.
#define EDGEBENCH_EMBED(symbol, path)                          \
  __asm__(".pushsection .rodata\n"                             \
          ".balign 16\n"                                       \
          ".hidden " #symbol "_begin\n"                        \
          ".hidden " #symbol "_end\n"                          \
          #symbol "_begin:\n"                                  \
          ".incbin \"" path "\"\n"                             \
          #symbol "_end:\n"                                    \
          ".byte 0\n"                                          \
          ".popsection\n")

#define EDGEBENCH_EMBEDDED_EXTERN(symbol)         \
  extern "C" const char symbol##_begin[];         \
  extern "C" const char symbol##_end[]

namespace edgebench {

inline std::string_view EmbeddedBytes(const char* begin, const char* end) {
  return {begin, static_cast<size_t>(end - begin)};
}

}  // namespace edgebench
