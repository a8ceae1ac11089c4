# The compiler cache (ccache) for the builds of scripts/build, scripts/test-sanitizers and
# scripts/test-arm64; sourced inside the devroot, which binds the cache directory ($CCACHE_DIR,
# see scripts/devroot) and sets its size bound and sloppiness.
#   compiler_cache_cmake_args   CMake's compiler launchers, when ccache is there and not turned
#                               off with EDGEBENCH_CCACHE=0 (then nothing: plain compiles)
#   compiler_cache_mark         remembers the cache's counters
#   compiler_cache_report WHO   "WHO: compiler cache: H of N compiles from the cache (P%)" since
#                               the mark; counters are the machine's, so a build running beside
#                               this one counts too
#   to_build_path PATH          PATH under the repository or the edgebench cache, at the fixed
#                               place the devroot also binds it (EDGEBENCH_BUILD_REPO/CACHE), so
#                               that what reaches the compiler is the same in every clone

compiler_cache_enabled() {
  [ "${EDGEBENCH_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null
}

compiler_cache_cmake_args() {
  if compiler_cache_enabled; then
    echo "-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  else
    # A build directory configured with the cache before must not keep using it.
    echo "-DCMAKE_C_COMPILER_LAUNCHER= -DCMAKE_CXX_COMPILER_LAUNCHER="
  fi
}

# "hits misses uncacheable": sums of ccache's machine-readable counters (ccache --print-stats);
# uncacheable: compiles ccache passed to the compiler unexamined (a precompiled header it could
# not use, an option or directive it does not handle).
compiler_cache_counters() {
  ccache --print-stats 2>/dev/null | awk -F'\t' '
    $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { hits += $2 }
    $1 == "cache_miss" { misses += $2 }
    $1 == "could_not_use_precompiled_header" || $1 ~ /^unsupported_/ { other += $2 }
    END { printf "%d %d %d\n", hits, misses, other }'
}

compiler_cache_mark() {
  compiler_cache_enabled || return 0
  read -r _compiler_cache_hits _compiler_cache_misses _compiler_cache_other < <(compiler_cache_counters)
}

compiler_cache_report() {
  local who=$1 hits misses other total
  if ! compiler_cache_enabled; then
    echo "$who: compiler cache: off (EDGEBENCH_CCACHE=0, or no ccache in the root)" >&2
    return 0
  fi
  read -r hits misses other < <(compiler_cache_counters)
  hits=$(( hits - ${_compiler_cache_hits:-0} ))
  misses=$(( misses - ${_compiler_cache_misses:-0} ))
  other=$(( other - ${_compiler_cache_other:-0} ))
  total=$(( hits + misses ))
  if [ "$total" -eq 0 ]; then
    echo "$who: compiler cache: nothing compiled" >&2
  else
    echo "$who: compiler cache: $hits of $total compiles from the cache ($(( 100 * hits / total ))%)$([ "$other" -eq 0 ] || echo ", $other not cacheable")," \
      "$(ccache --print-stats 2>/dev/null | awk -F'\t' '$1 == "cache_size_kibibyte" { if ($2 < 1048576) printf "%d MiB", $2 / 1024; else printf "%.1f GiB", $2 / 1048576 }') of ${CCACHE_MAXSIZE:-"ccache's default"} in ${CCACHE_DIR:-~/.cache/ccache}" >&2
  fi
}

to_build_path() {
  local path=$1
  if [ -n "${EDGEBENCH_BUILD_CACHE:-}" ] && [ -n "${EDGEBENCH_CACHE:-}" ]; then
    case "$path" in "$EDGEBENCH_CACHE"|"$EDGEBENCH_CACHE"/*) path=$EDGEBENCH_BUILD_CACHE${path#"$EDGEBENCH_CACHE"} ;; esac
  fi
  if [ -n "${EDGEBENCH_BUILD_REPO:-}" ] && [ -n "${EDGEBENCH_HOST_REPO:-}" ]; then
    case "$path" in "$EDGEBENCH_HOST_REPO"|"$EDGEBENCH_HOST_REPO"/*) path=$EDGEBENCH_BUILD_REPO${path#"$EDGEBENCH_HOST_REPO"} ;; esac
  fi
  printf '%s' "$path"
}

# forget_other_source BUILD_DIR: a build directory configured from another path (the tree's own
# path, before builds moved to the fixed one) keeps its objects but not its CMake cache, which
# CMake would refuse.
forget_other_source() {
  local cache_file=$1/CMakeCache.txt home
  [ -f "$cache_file" ] || return 0
  home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache_file")
  if [ -n "$home" ] && [ "$home" != "$PWD" ]; then
    echo "build: $1 was configured from $home; configuring it again from $PWD" >&2
    rm -f "$cache_file"
  fi
}
