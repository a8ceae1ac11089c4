#include "monitor/heaptrack_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <unordered_map>
#include <vector>

#include "record/monitor_derive.h"

namespace edgebench {
namespace {

struct Frame {
  size_t module = 0;    // string index, 0: none
  size_t function = 0;  // string index, 0: not symbolized
  uint64_t ip = 0;
};

struct TraceNode {
  size_t frame = 0;   // index into frames (1-based in the file)
  size_t parent = 0;  // trace index, 0: the root
};

struct Allocation {
  int64_t size = 0;
  size_t trace = 0;
};

struct SiteSums {
  long double sy = 0, sxy = 0, syy = 0;
  int64_t live = 0;
  int64_t allocations = 0;
};

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Allocation plumbing: the frames between a caller and the allocator, skipped to find the site.
bool IsAllocatorFunction(const std::string& f) {
  static const char* const kPrefixes[] = {
      "operator new", "malloc", "calloc", "realloc", "reallocarray", "posix_memalign", "aligned_alloc",
      "memalign", "valloc", "pvalloc", "__libc_", "strdup", "strndup", "__strdup", "__strndup", "std::",
      "__gnu_cxx::", "void std::", "__cxa_allocate"};
  for (const char* p : kPrefixes) {
    if (StartsWith(f, p)) return true;
  }
  return false;
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool IsRuntimeLibrary(const std::string& library) {
  return StartsWith(library, "libc.so") || StartsWith(library, "libstdc++.so") ||
         StartsWith(library, "libc++.so") || StartsWith(library, "ld-linux");
}

uint64_t Hex(const char*& p) {
  while (*p == ' ') ++p;
  char* end = nullptr;
  const uint64_t v = std::strtoull(p, &end, 16);
  if (end == p) throw std::runtime_error("expected a hexadecimal number");
  p = end;
  return v;
}

bool More(const char* p) {
  while (*p == ' ') ++p;
  return *p != '\0';
}

class Reader {
 public:
  Reader(std::string start_function, const std::vector<std::pair<int64_t, double>>& progress)
      : start_function_(std::move(start_function)), progress_(progress) {
    strings_.emplace_back();  // 1-based
    frames_.emplace_back();
    traces_.emplace_back();
  }

  void Line(const std::string& line) {
    if (line.size() < 2 || line[1] != ' ') return;  // "#" comments, "v", "X", "I" headers
    const char* p = line.c_str() + 2;
    switch (line[0]) {
      case 's': {
        // "s LENGTH TEXT": the text may hold spaces.
        const char* text = p;
        Hex(text);
        if (*text == ' ') ++text;
        strings_.emplace_back(text);
        break;
      }
      case 'i': {
        Frame f;
        f.ip = Hex(p);
        f.module = static_cast<size_t>(Hex(p));
        if (More(p)) f.function = static_cast<size_t>(Hex(p));
        frames_.push_back(f);
        break;
      }
      case 't': {
        TraceNode t;
        t.frame = static_cast<size_t>(Hex(p));
        t.parent = static_cast<size_t>(Hex(p));
        traces_.push_back(t);
        break;
      }
      case 'a': {
        Allocation a;
        a.size = static_cast<int64_t>(Hex(p));
        a.trace = static_cast<size_t>(Hex(p));
        allocations_.push_back(a);
        break;
      }
      case '+':
      case '-': {
        const size_t index = static_cast<size_t>(Hex(p));
        if (index >= allocations_.size()) throw std::runtime_error("an allocation refers to an unknown site");
        const Allocation& a = allocations_[index];
        if (!started_) {
          if (line[0] == '+' && LeafFunction(a.trace) == start_function_) {
            started_ = true;
            start_tick_ms_ = last_tick_ms_;
            mark_ = index;
          }
          return;
        }
        if (index == mark_) return;  // the mark's own free
        const size_t site = SiteOf(a.trace);
        SiteSums& s = sums_[site];
        if (line[0] == '+') {
          s.live += a.size;
          ++s.allocations;
          ++result_.allocations;
        } else {
          s.live -= a.size;
          --s.allocations;
          ++result_.frees;
        }
        touched_[site] = true;
        break;
      }
      case 'c': {
        last_tick_ms_ = static_cast<int64_t>(Hex(p));
        if (started_) {
          const int64_t since_ms = last_tick_ms_ - start_tick_ms_;
          last_s_ = static_cast<double>(since_ms) / 1000.0;
          Tick(progress_.empty() ? last_s_ : CompletedAt(progress_, since_ms * 1'000'000));
        }
        break;
      }
      default:
        break;
    }
  }

  Result<LeakSites> Finish() {
    if (!started_) {
      return Status::Error("the measured phase's start was not in heaptrack's trace (no allocation from " +
                           start_function_ + "): the worker ended before its measured phase, or ran without "
                           "heaptrack's pause and resume");
    }
    result_.window_s = last_s_;
    result_.axis = progress_.empty() ? "seconds" : "queries";
    if (!progress_.empty()) {
      const int64_t end_ns = (last_tick_ms_ - start_tick_ms_) * 1'000'000;
      result_.window_queries = CompletedAt(progress_, end_ns) - CompletedAt(progress_, 0);
    }
    result_.ticks = static_cast<int>(n_);
    std::map<std::string, int64_t> by_library;
    std::vector<LeakSite> grown;
    for (size_t site = 0; site < sites_.size(); ++site) {
      if (!touched_[site]) continue;
      ++result_.sites_seen;
      const SiteSums& s = sums_[site];
      by_library[sites_[site].library] += s.live;
      if (s.live <= 0) continue;
      LeakSite out = sites_[site];
      out.grown_bytes = s.live;
      out.grown_allocations = s.allocations;
      Fit(s, out);
      grown.push_back(std::move(out));
    }
    std::sort(grown.begin(), grown.end(), [](const LeakSite& a, const LeakSite& b) {
      return a.grown_bytes != b.grown_bytes ? a.grown_bytes > b.grown_bytes : a.function < b.function;
    });
    if (grown.size() > static_cast<size_t>(kLeakSitesKept)) grown.resize(kLeakSitesKept);
    result_.sites = std::move(grown);
    for (const auto& [library, bytes] : by_library) {
      if (bytes > 0) result_.libraries.push_back({library, bytes});
    }
    std::sort(result_.libraries.begin(), result_.libraries.end(),
              [](const LeakLibrary& a, const LeakLibrary& b) { return a.grown_bytes > b.grown_bytes; });
    return result_;
  }

 private:
  const std::string& Text(size_t index) const {
    static const std::string kEmpty;
    return index < strings_.size() ? strings_[index] : kEmpty;
  }

  std::string LeafFunction(size_t trace) const {
    if (trace == 0 || trace >= traces_.size()) return "";
    const size_t frame = traces_[trace].frame;
    return frame < frames_.size() ? FrameFunctionName(Text(frames_[frame].function)) : "";
  }

  std::string Describe(const Frame& f) const {
    std::string function = FrameFunctionName(Text(f.function));
    if (function.empty()) {
      char buffer[24];
      std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(f.ip));
      function = buffer;
    }
    return function;
  }

  size_t SiteOf(size_t trace) {
    auto found = site_of_trace_.find(trace);
    if (found != site_of_trace_.end()) return found->second;
    // From the leaf outwards: the first frame that is not allocation plumbing.
    std::vector<const Frame*> stack;
    for (size_t t = trace, guard = 0; t != 0 && t < traces_.size() && guard < 4096; t = traces_[t].parent, ++guard) {
      const size_t frame = traces_[t].frame;
      if (frame < frames_.size()) stack.push_back(&frames_[frame]);
    }
    size_t first = 0;
    while (first < stack.size()) {
      const Frame& f = *stack[first];
      const std::string function = FrameFunctionName(Text(f.function));
      const std::string library = BaseName(Text(f.module));
      if (!(function.empty() ? IsRuntimeLibrary(library) : IsAllocatorFunction(function))) break;
      ++first;
    }
    if (first == stack.size()) first = 0;  // nothing but plumbing: the leaf itself
    LeakSite site;
    if (!stack.empty()) {
      site.function = Describe(*stack[first]);
      site.library = BaseName(Text(stack[first]->module));
      for (size_t i = first; i < stack.size() && site.stack.size() < 8; ++i) {
        site.stack.push_back(Describe(*stack[i]) + " (" + BaseName(Text(stack[i]->module)) + ")");
      }
    } else {
      site.function = "(no stack)";
    }
    const std::string key = site.function + '\n' + site.library;
    auto [it, inserted] = site_of_key_.emplace(key, sites_.size());
    if (inserted) {
      sites_.push_back(std::move(site));
      sums_.emplace_back();
      touched_.push_back(false);
    }
    site_of_trace_.emplace(trace, it->second);
    return it->second;
  }

  void Tick(double x) {
    n_ += 1;
    sx_ += x;
    sxx_ += static_cast<long double>(x) * x;
    for (SiteSums& s : sums_) {
      if (s.live == 0) continue;
      const long double y = static_cast<long double>(s.live);
      s.sy += y;
      s.sxy += x * y;
      s.syy += y * y;
    }
  }

  void Fit(const SiteSums& s, LeakSite& out) const {
    if (n_ < 3) return;
    const long double n = n_;
    const long double sxx = sxx_ - sx_ * sx_ / n;
    const long double sxy = s.sxy - sx_ * s.sy / n;
    const long double syy = s.syy - s.sy * s.sy / n;
    if (sxx <= 0) return;
    const long double slope = sxy / sxx;
    out.slope = static_cast<double>(slope);
    const long double residual = std::max<long double>(0, syy - slope * sxy);
    out.slope_stderr = static_cast<double>(std::sqrt(residual / (n - 2) / sxx));
    out.fit_r2 = syy > 0 ? static_cast<double>(std::min<long double>(1, sxy * sxy / (sxx * syy))) : 0;
  }

  std::string start_function_;
  std::vector<std::string> strings_;
  std::vector<Frame> frames_;
  std::vector<TraceNode> traces_;
  std::vector<Allocation> allocations_;
  bool started_ = false;
  size_t mark_ = static_cast<size_t>(-1);  // the marking allocation's site
  int64_t last_tick_ms_ = 0, start_tick_ms_ = 0;
  long double n_ = 0, sx_ = 0, sxx_ = 0;
  double last_s_ = 0;
  const std::vector<std::pair<int64_t, double>>& progress_;
  std::vector<LeakSite> sites_;
  std::vector<SiteSums> sums_;
  std::vector<bool> touched_;
  std::unordered_map<size_t, size_t> site_of_trace_;
  std::map<std::string, size_t> site_of_key_;
  LeakSites result_;
};

}  // namespace

std::string FrameFunctionName(const std::string& symbol) {
  std::string name = symbol;
  for (const char* suffix : {" [clone .localalias]", ".localalias"}) {
    const std::string s = suffix;
    if (name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      name.resize(name.size() - s.size());
    }
  }
  const size_t clone = name.find(" [clone ");
  if (clone != std::string::npos) name.resize(clone);
  return name;
}

Result<LeakSites> ReadHeaptrackSites(std::istream& in, const std::string& start_function,
                                     const std::vector<std::pair<int64_t, double>>& progress) {
  Reader reader(start_function, progress);
  std::string line;
  int64_t number = 0;
  try {
    while (std::getline(in, line)) {
      ++number;
      reader.Line(line);
    }
  } catch (const std::exception& e) {
    return Status::Error("heaptrack's trace, line " + std::to_string(number) + ": " + e.what() + " in '" +
                         line.substr(0, 80) + "'");
  }
  return reader.Finish();
}

}  // namespace edgebench
