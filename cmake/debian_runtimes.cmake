# The runtimes Debian packages whole, besides ONNX Runtime, TensorFlow Lite and llama.cpp (found
# in CMakeLists.txt): OpenCV's DNN module, LibTorch and Arm NN. Each sets
# EDGEBENCH_WITH_<NAME> (1 or 0) and EDGEBENCH_<NAME>_REASON (why not built), which
# src/backends/build_config.h.in carries into the registry, and the targets its plugin links.

# OpenCV DNN (libopencv-dnn-dev): no pkg-config file or CMake package comes with the dnn module
# alone (they are in libopencv-dev, with every other module), so its header and the two
# libraries it needs are found directly.
find_path(OPENCV_DNN_INCLUDE_DIR opencv2/dnn.hpp PATH_SUFFIXES opencv4)
find_library(OPENCV_DNN_LIBRARY opencv_dnn)
find_library(OPENCV_CORE_LIBRARY opencv_core)
if(OPENCV_DNN_INCLUDE_DIR AND OPENCV_DNN_LIBRARY AND OPENCV_CORE_LIBRARY)
  file(STRINGS "${OPENCV_DNN_INCLUDE_DIR}/opencv2/core/version.hpp" _opencv_version_lines
       REGEX "#define CV_VERSION_(MAJOR|MINOR|REVISION) ")
  set(EDGEBENCH_OPENCV_VERSION "")
  foreach(_line ${_opencv_version_lines})
    string(REGEX MATCH "[0-9]+$" _part "${_line}")
    string(APPEND EDGEBENCH_OPENCV_VERSION "${_part}.")
  endforeach()
  string(REGEX REPLACE "\\.$" "" EDGEBENCH_OPENCV_VERSION "${EDGEBENCH_OPENCV_VERSION}")
  set(EDGEBENCH_WITH_OPENCV 1)
  set(EDGEBENCH_OPENCV_REASON "")
  message(STATUS "edgebench: OpenCV ${EDGEBENCH_OPENCV_VERSION} DNN found (${OPENCV_DNN_LIBRARY}): backend 'opencv' is built")
else()
  set(EDGEBENCH_WITH_OPENCV 0)
  set(EDGEBENCH_OPENCV_REASON "OpenCV's DNN module (opencv2/dnn.hpp, libopencv_dnn, libopencv_core) was not found at configure time (install libopencv-dnn-dev)")
  message(STATUS "edgebench: ${EDGEBENCH_OPENCV_REASON}: backend 'opencv' is NOT built")
endif()

# LibTorch (libtorch-dev): its CMake package. Debian links kineto (the profiler's tracer) into
# libtorch_cpu and ships no libkineto, for which TorchConfig.cmake still looks and warns: a real
# libkineto is taken where there is one, else libtorch_cpu, which holds kineto's code.
find_library(kineto_LIBRARY NAMES kineto torch_cpu)
find_package(Torch CONFIG QUIET)
if(Torch_FOUND)
  set(EDGEBENCH_WITH_LIBTORCH 1)
  set(EDGEBENCH_LIBTORCH_REASON "")
  message(STATUS "edgebench: LibTorch ${Torch_VERSION} found: backend 'libtorch' is built")
else()
  set(EDGEBENCH_WITH_LIBTORCH 0)
  set(EDGEBENCH_LIBTORCH_REASON "LibTorch's CMake package (TorchConfig.cmake) was not found at configure time (install libtorch-dev)")
  message(STATUS "edgebench: ${EDGEBENCH_LIBTORCH_REASON}: backend 'libtorch' is NOT built")
endif()

# Arm NN (libarmnn-dev, libarmnntfliteparser-dev): the library and its TFLite parser. Its
# compute backends (CpuRef here; CpuAcc, GpuAcc on arm64) are dynamic backends Arm NN opens at
# run time from its backends directory.
find_path(ARMNN_INCLUDE_DIR armnn/ArmNN.hpp)
find_path(ARMNN_TFLITE_PARSER_INCLUDE_DIR armnnTfLiteParser/ITfLiteParser.hpp)
find_library(ARMNN_LIBRARY armnn)
find_library(ARMNN_TFLITE_PARSER_LIBRARY armnnTfLiteParser)
if(ARMNN_INCLUDE_DIR AND ARMNN_TFLITE_PARSER_INCLUDE_DIR AND ARMNN_LIBRARY AND ARMNN_TFLITE_PARSER_LIBRARY)
  set(EDGEBENCH_WITH_ARMNN 1)
  set(EDGEBENCH_ARMNN_REASON "")
  message(STATUS "edgebench: Arm NN found (${ARMNN_LIBRARY}): backend 'armnn' is built")
else()
  set(EDGEBENCH_WITH_ARMNN 0)
  set(EDGEBENCH_ARMNN_REASON "Arm NN and its TFLite parser (armnn/ArmNN.hpp, libarmnn, libarmnnTfLiteParser) were not found at configure time (install libarmnn-dev libarmnntfliteparser-dev)")
  message(STATUS "edgebench: ${EDGEBENCH_ARMNN_REASON}: backend 'armnn' is NOT built")
endif()
