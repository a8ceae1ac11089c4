// A model's files out of the page cache, for a cold start (docs/cold-start.md):
// posix_fadvise(POSIX_FADV_DONTNEED) on each file, and mincore() on a mapping of it before and
// after, so the record proves how many of its pages were resident when the load began.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace edgebench {

struct PageCacheFile {
  std::string path;
  int64_t bytes = 0;
  int64_t pages = 0;
  int64_t resident_before = -1;  // pages in the page cache before the drop; -1: unknown
  int64_t resident_after = -1;   // and after it
  std::string error;             // why the file could not be dropped or counted
};

struct PageCacheDrop {
  std::vector<PageCacheFile> files;
  int64_t page_bytes = 0;
  bool dropped = false;  // every file counted, and none has a page left
  std::string detail;    // what stayed and why, when not dropped
};

// Pages of `path` in the page cache now: mincore() over a read-only mapping of the file.
// -1 with `error` set when the file cannot be opened or mapped.
int64_t ResidentPages(const std::string& path, int64_t* pages, std::string* error);

// Drops each file's pages and counts what stayed. A page stays when it is dirty (written and not
// yet on disk: the drop syncs the file first), mapped or locked by a process, or on a file system
// with no backing store (tmpfs, ramfs, an overlay's upper layer in memory): the detail says
// which files kept how much, and what to do.
PageCacheDrop DropFromPageCache(const std::vector<std::string>& paths);

}  // namespace edgebench
