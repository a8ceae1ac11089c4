// Where a process's memory is, from /proc/PID/smaps: each mapping's resident, proportional,
// private-dirty and swapped kilobytes, grouped into classes (docs/monitoring.md, "Memory map"):
//   file      a file mapped from disk, by path (a model file, a runtime library's code and data)
//   heap      [heap]: the brk heap
//   anon      anonymous memory without a name (malloc's arenas, mmap'd buffers, thread stacks)
//   anon:NAME anonymous memory a program named (prctl PR_SET_VMA_ANON_NAME: "[anon:...]")
//   stack     [stack]: the main thread's
//   shm       shared memory (/dev/shm, memfd:, SYSV)
//   device    a device's memory mapped through /dev (a GPU's or NPU's driver)
//   kernel    [vdso], [vvar], [vsyscall]
// A snapshot is taken at a moment of a case (a stage or a phase starting or ending), outside
// the timed queries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/memory_snapshot.h"
#include "core/status.h"

namespace edgebench {

// The classes of an smaps text. Files whose Rss is under `min_file_kb` are added up into one
// "file" class named "(other files)", unless their path is in `keep` (the case's model files).
Result<std::vector<MemoryClassUse>> ClassifySmaps(const std::string& smaps_text, const std::vector<std::string>& keep,
                                                  int64_t min_file_kb = 1024);

// A snapshot of this process now (`proc_root` + "proc/self/smaps"), labelled `moment`, with what
// glibc's malloc holds (mallinfo2) where the C library is glibc.
Result<MemorySnapshot> TakeMemorySnapshot(const std::string& proc_root, const std::string& moment,
                                          const std::vector<std::string>& keep);

}  // namespace edgebench
