// A memory map of a process at one moment of a case: its /proc/PID/smaps grouped into classes
// (monitor/memory_map.h reads it; docs/monitoring.md, "Memory map"). Plain data, kept in the
// record's monitor section.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace edgebench {

struct MemoryClassUse {
  std::string kind;  // "file", "heap", "anon", "anon:NAME", "stack", "shm", "device", "kernel"
  std::string name;  // file, shm and device: the path; else empty
  int64_t rss_kb = 0;
  int64_t pss_kb = 0;
  int64_t private_dirty_kb = 0;
  int64_t swap_kb = 0;
  int mappings = 0;
};

struct MemorySnapshot {
  std::string moment;  // "load start", "warmup end", "measure end", ...
  int64_t t_ns = 0;    // on the monitor series' axis (set when the series' origin is known)
  std::vector<MemoryClassUse> classes;  // files by Rss, largest first; then the rest by kind
  int64_t rss_kb = 0;  // all mappings
  // What glibc's malloc holds (mallinfo2): in use by the program (small blocks and mmap'd large
  // ones), and free but kept in its arenas, not given back to the system. -1: not read.
  int64_t malloc_in_use_kb = -1;
  int64_t malloc_free_kb = -1;
};

}  // namespace edgebench
