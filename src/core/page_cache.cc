#include "core/page_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <linux/magic.h>

namespace edgebench {
namespace {

int64_t PageSize() { return static_cast<int64_t>(::sysconf(_SC_PAGESIZE)); }

// The file system kind when it keeps pages in memory only, else empty.
std::string MemoryOnlyFileSystem(int fd) {
  struct statfs fs {};
  if (::fstatfs(fd, &fs) != 0) return "";
  if (fs.f_type == TMPFS_MAGIC) return "tmpfs";
  if (fs.f_type == RAMFS_MAGIC) return "ramfs";
  return "";
}

}  // namespace

int64_t ResidentPages(const std::string& path, int64_t* pages, std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    *error = path + ": cannot stat: " + std::strerror(errno);
    ::close(fd);
    return -1;
  }
  const int64_t page = PageSize();
  const int64_t bytes = static_cast<int64_t>(st.st_size);
  *pages = (bytes + page - 1) / page;
  if (bytes == 0) {
    ::close(fd);
    return 0;
  }
  // Mapping does not read the file: only mincore() looks at the mapping, and it reports the
  // page cache's state without faulting anything in.
  void* map = ::mmap(nullptr, static_cast<size_t>(bytes), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) {
    *error = path + ": cannot map it to count its resident pages: " + std::strerror(errno);
    return -1;
  }
  std::vector<unsigned char> resident(static_cast<size_t>(*pages));
  const int rc = ::mincore(map, static_cast<size_t>(bytes), resident.data());
  const int saved = errno;
  ::munmap(map, static_cast<size_t>(bytes));
  if (rc != 0) {
    *error = path + ": mincore failed: " + std::strerror(saved);
    return -1;
  }
  int64_t count = 0;
  for (unsigned char r : resident) count += (r & 1) ? 1 : 0;
  return count;
}

PageCacheDrop DropFromPageCache(const std::vector<std::string>& paths) {
  PageCacheDrop drop;
  drop.page_bytes = PageSize();
  drop.dropped = true;
  for (const std::string& path : paths) {
    PageCacheFile file;
    file.path = path;
    std::string error;
    file.resident_before = ResidentPages(path, &file.pages, &error);
    file.bytes = file.pages * drop.page_bytes;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    std::string memory_only;
    if (fd < 0) {
      file.error = path + ": cannot open: " + std::strerror(errno);
    } else {
      struct stat st {};
      if (::fstat(fd, &st) == 0) file.bytes = static_cast<int64_t>(st.st_size);
      memory_only = MemoryOnlyFileSystem(fd);
      ::fdatasync(fd);  // dirty pages are not dropped; on a read-only file this does nothing
      const int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
      if (rc != 0) file.error = path + ": posix_fadvise(DONTNEED) failed: " + std::strerror(rc);
      ::close(fd);
    }
    if (file.error.empty()) {
      file.resident_after = ResidentPages(path, &file.pages, &error);
      if (file.resident_after < 0) file.error = error;
    }
    if (!file.error.empty()) {
      drop.dropped = false;
      drop.detail += (drop.detail.empty() ? "" : "; ") + file.error;
    } else if (file.resident_after > 0) {
      drop.dropped = false;
      drop.detail += (drop.detail.empty() ? "" : "; ") + path + ": " + std::to_string(file.resident_after) + " of " +
                     std::to_string(file.pages) + " pages stayed in the page cache" +
                     (memory_only.empty()
                          ? " (mapped or locked by a process, or dirty): close what holds the file, or "
                            "drop every cache as root (echo 1 > /proc/sys/vm/drop_caches)"
                          : " (the file is on " + memory_only + ", which has no disk to read it back from: put the "
                            "model on a disk-backed file system to measure a cold start)");
    }
    drop.files.push_back(std::move(file));
  }
  return drop;
}

}  // namespace edgebench
