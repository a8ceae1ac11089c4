// The contract between edgebench and a backend built as a plugin (a shared object under
// <edgebench's directory>/backends, opened by the Registry when a case needs it: see
// docs/backends.md for why backends are plugins).
//
// A plugin exports one C symbol, kBackendPluginEntrySymbol, a function returning a pointer to a
// static EdgebenchBackendPlugin. Its first field is the ABI version the plugin was built with;
// the loader reads it before anything else and refuses a plugin whose version differs from its
// own, saying so (a plugin left over from an older build, or built against other headers). Then
// it asks the plugin to describe itself (name, runtime, files it reads, whether it can run on
// this machine: ggml's backend registry does the same) and keeps the answer; the backend itself
// is created only when a case needs it.
//
// The plugin links edgebench's shared core (libedgebench_core.so), so Status, Tensor, logging
// and the rest exist once in the process whichever way the plugin is opened.
//
// Do not write the entry by hand: edgebench_add_backend_plugin() (cmake/backend_plugin.cmake)
// generates it from the backend's factory with EDGEBENCH_BACKEND_PLUGIN below.
#pragma once

#include <cstdint>
#include <exception>
#include <string>

#include "backends/backend.h"

namespace edgebench {

// Bump whenever the layout of what crosses the boundary changes: this struct, or the classes
// and structs of backends/backend.h and backends/llm_session.h (a virtual added, a field added
// to BackendInfo, DeviceInfo, Tensor, Status...).
inline constexpr uint32_t kBackendPluginAbiVersion = 7;
inline constexpr const char kBackendPluginEntrySymbol[] = "edgebench_backend_plugin";

}  // namespace edgebench

extern "C" {

struct EdgebenchBackendPlugin {
  uint32_t abi_version;  // kBackendPluginAbiVersion of the plugin's build; stays the first field
  const char* name;      // the backend's name in the registry ("ort"): must match the file's
  // What the backend says of itself (backends/backend.h), without creating it; its name is
  // `name`. It must not throw.
  edgebench::BackendDescription (*describe)();
  // A new backend, owned by the caller (deleted through its virtual destructor). nullptr when
  // the backend cannot be created; it must not throw.
  edgebench::Backend* (*create)();
};

using EdgebenchBackendPluginEntry = const EdgebenchBackendPlugin* (*)();

}  // extern "C"

// Defines the plugin's entry for `factory`, a function returning std::unique_ptr<Backend>, and
// `describe`, a function returning the backend's BackendDescription.
#define EDGEBENCH_BACKEND_PLUGIN(backend_name, factory, describe)                              \
  extern "C" __attribute__((visibility("default"))) const EdgebenchBackendPlugin*             \
  edgebench_backend_plugin() {                                                                \
    static const EdgebenchBackendPlugin plugin{                                               \
        edgebench::kBackendPluginAbiVersion, backend_name,                                    \
        []() -> edgebench::BackendDescription {                                               \
          try {                                                                               \
            return describe();                                                                \
          } catch (const std::exception& e) {                                                 \
            return {backend_name, "", {}, std::string("it could not describe itself: ") + e.what(), ""}; \
          } catch (...) {                                                                     \
            return {backend_name, "", {}, "it could not describe itself", ""};                \
          }                                                                                   \
        },                                                                                    \
        []() -> edgebench::Backend* {                                                         \
          try {                                                                               \
            return factory().release();                                                       \
          } catch (...) {                                                                     \
            return nullptr;                                                                   \
          }                                                                                   \
        }};                                                                                   \
    return &plugin;                                                                           \
  }
