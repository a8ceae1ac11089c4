# Cross-compiling edgebench for arm64 (aarch64) Linux with Debian's cross compiler, against the
# arm64 devroot as the sysroot: scripts/test-arm64 configures with this file inside the cross
# root (scripts/devroot --cross arm64) and runs the tests inside the arm64 root under qemu-user
# (scripts/devroot --arch arm64); docs/development.md says why (a native build under emulation
# takes many times longer).
#
# The sysroot is EDGEBENCH_ARM64_SYSROOT (a CMake variable, or the environment's), the
# directory `scripts/devroot --arch arm64 --path` prints. Both roots are made from the same
# package list, so a program path found here (python3, llama-quantize) is the same path there,
# and the tests' helper programs run natively here while the build's own run on arm64 there.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

if(NOT EDGEBENCH_ARM64_SYSROOT)
  set(EDGEBENCH_ARM64_SYSROOT "$ENV{EDGEBENCH_ARM64_SYSROOT}")
endif()
if(NOT EDGEBENCH_ARM64_SYSROOT OR NOT EXISTS "${EDGEBENCH_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu")
  message(FATAL_ERROR "cmake/aarch64-linux-gnu.cmake: EDGEBENCH_ARM64_SYSROOT is "
    "'${EDGEBENCH_ARM64_SYSROOT}', not an arm64 root: pass -DEDGEBENCH_ARM64_SYSROOT=\"$(scripts/devroot "
    "--arch arm64 --path)\" (scripts/test-arm64 does)")
endif()
# try_compile() projects read this file again: they get the sysroot too.
set(ENV{EDGEBENCH_ARM64_SYSROOT} "${EDGEBENCH_ARM64_SYSROOT}")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EDGEBENCH_ARM64_SYSROOT)

set(CMAKE_SYSROOT "${EDGEBENCH_ARM64_SYSROOT}")
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# Libraries, headers and CMake packages from the sysroot only; programs (python3, the model
# tools the build runs) from the cross root.
set(CMAKE_FIND_ROOT_PATH "${EDGEBENCH_ARM64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads the arm64 root's .pc files and puts the sysroot before their paths.
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${EDGEBENCH_ARM64_SYSROOT}")
set(ENV{PKG_CONFIG_LIBDIR}
    "${EDGEBENCH_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${EDGEBENCH_ARM64_SYSROOT}/usr/lib/pkgconfig:${EDGEBENCH_ARM64_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# The linker follows the arm64 libraries' own dependencies (libonnxruntime's, libtorch's) in
# the sysroot. BLAS and LAPACK (libtorch's) are reached through /etc/alternatives, an absolute
# link that would resolve outside the sysroot: their directories are named here.
foreach(_dir lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu/blas
             usr/lib/aarch64-linux-gnu/lapack)
  string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -Wl,-rpath-link,${EDGEBENCH_ARM64_SYSROOT}/${_dir}")
  string(APPEND CMAKE_SHARED_LINKER_FLAGS_INIT " -Wl,-rpath-link,${EDGEBENCH_ARM64_SYSROOT}/${_dir}")
  string(APPEND CMAKE_MODULE_LINKER_FLAGS_INIT " -Wl,-rpath-link,${EDGEBENCH_ARM64_SYSROOT}/${_dir}")
endforeach()

# GoogleTest lists a test binary's tests by running it: at ctest time, in the arm64 root, not
# after each link here (where no arm64 program runs).
set(CMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE PRE_TEST)
