// The part of MediaPipe's Tasks C API (libmediapipe.so, mediapipe 1.2.3 wheel) that edgebench
// calls. The wheel ships no C headers: these declarations are written from the ABI its own ctypes
// modules declare (tasks/python/core/base_options_c.py, core/mediapipe_c_utils.py,
// vision/core/image.py, vision/core/image_processing_options_c.py, vision/face_detector.py,
// vision/image_classifier.py, vision/object_detector.py, components/containers/*_c.py,
// components/processors/classifier_options_c.py). Field order and types must match those
// exactly: the library reads these structs by layout. Every status-returning function takes a
// `char** error_msg` last, which the library fills (free it with MpErrorFree) on failure.
#pragma once

#include <cstdint>

extern "C" {

// MpStatus: absl's status codes (mediapipe_c_utils.MpStatus).
enum MpStatusCode : int32_t {
  kMpOk = 0,
  kMpInvalidArgument = 3,
  kMpNotFound = 5,
  kMpFailedPrecondition = 9,
  kMpUnimplemented = 12,
  kMpInternal = 13,
};

// BaseOptions.Delegate.
enum MpDelegate : int { kMpDelegateDefault = 0, kMpDelegateCpu = 1, kMpDelegateGpu = 2 };

// VisionTaskRunningMode's C values.
enum MpRunningMode : int { kMpRunningModeImage = 1, kMpRunningModeVideo = 2, kMpRunningModeLiveStream = 3 };

// ImageFormat: SRGB is interleaved R, G, B bytes.
enum MpImageFormat : int { kMpImageFormatSrgb = 1 };

struct MpBaseOptions {
  const char* model_asset_buffer;
  unsigned int model_asset_buffer_count;
  const char* model_asset_path;
  int file_descriptor;  // -1: none
  int delegate;         // MpDelegate
  int host_environment;
  int host_system;
  const char* host_version;
  const char* ca_bundle_path;
  const char* app_id;
  const char* app_version;
  const char* npu_dispatch_library_dir;
};

// Note MediaPipe's order: left, top, BOTTOM, right.
struct MpRect {
  int left;
  int top;
  int bottom;
  int right;
};

struct MpRectF {
  float left;
  float top;
  float bottom;
  float right;
};

struct MpCategory {
  int index;
  float score;
  const char* category_name;
  const char* display_name;
};

struct MpNormalizedKeypoint {
  float x;
  float y;
  const char* label;
  float score;
};

struct MpDetection {
  MpCategory* categories;
  uint32_t categories_count;
  MpRect bounding_box;
  MpNormalizedKeypoint* keypoints;
  uint32_t keypoints_count;
};

struct MpDetectionResult {
  MpDetection* detections;
  uint32_t detections_count;
};

struct MpClassifications {
  MpCategory* categories;
  uint32_t categories_count;
  int head_index;
  const char* head_name;
};

struct MpClassificationResult {
  MpClassifications* classifications;
  uint32_t classifications_count;
  int64_t timestamp_ms;
  bool has_timestamp_ms;
};

struct MpImageProcessingOptions {
  bool has_region_of_interest;
  MpRectF region_of_interest;
  int rotation_degrees;
};

struct MpClassifierOptions {
  const char* display_names_locale;
  int max_results;  // -1: all
  float score_threshold;
  const char** category_allowlist;
  uint32_t category_allowlist_count;
  const char** category_denylist;
  uint32_t category_denylist_count;
};

typedef void* MpImagePtr;
typedef void* MpTaskPtr;

// Live-stream result callbacks: (status, result, the image the task ran on, timestamp in ms). The
// result and the image belong to the library and are valid during the call only.
typedef void (*MpDetectionResultCallback)(int32_t status, const MpDetectionResult* result,
                                          MpImagePtr image, int64_t timestamp_ms);
typedef void (*MpClassificationResultCallback)(int32_t status, const MpClassificationResult* result,
                                               MpImagePtr image, int64_t timestamp_ms);

struct MpFaceDetectorOptions {
  MpBaseOptions base_options;
  int running_mode;
  float min_detection_confidence;
  float min_suppression_threshold;
  MpDetectionResultCallback result_callback;
};

struct MpObjectDetectorOptions {
  MpBaseOptions base_options;
  int running_mode;
  const char* display_names_locale;
  int max_results;  // -1: all
  float score_threshold;
  const char** category_allowlist;
  int category_allowlist_count;
  const char** category_denylist;
  int category_denylist_count;
  MpDetectionResultCallback result_callback;
};

struct MpImageClassifierOptions {
  MpBaseOptions base_options;
  int running_mode;
  MpClassifierOptions classifier_options;
  MpClassificationResultCallback result_callback;
};

void MpErrorFree(char* error_msg);

// Logging: absl's log entries (severity 0 INFO, 1 WARNING, 2 ERROR, 3 FATAL), one sink per process.
typedef void (*MpLogCallback)(int severity, const char* message, void* user_data);
void MpSetLoggingCallback(MpLogCallback callback, void* user_data);
void MpRemoveLoggingCallback(void);

// Images: the data is copied into the image.
int32_t MpImageCreateFromUint8Data(int format, int width, int height, const uint8_t* data,
                                   int data_size, MpImagePtr* image, char** error_msg);
void MpImageFree(MpImagePtr image);

int32_t MpFaceDetectorCreate(const MpFaceDetectorOptions* options, MpTaskPtr* detector,
                             char** error_msg);
int32_t MpFaceDetectorDetectImage(MpTaskPtr detector, MpImagePtr image,
                                  const MpImageProcessingOptions* options,
                                  MpDetectionResult* result, char** error_msg);
int32_t MpFaceDetectorDetectAsync(MpTaskPtr detector, MpImagePtr image,
                                  const MpImageProcessingOptions* options, int64_t timestamp_ms,
                                  char** error_msg);
void MpFaceDetectorCloseResult(MpDetectionResult* result);
int32_t MpFaceDetectorClose(MpTaskPtr detector, char** error_msg);

int32_t MpObjectDetectorCreate(const MpObjectDetectorOptions* options, MpTaskPtr* detector,
                               char** error_msg);
int32_t MpObjectDetectorDetectImage(MpTaskPtr detector, MpImagePtr image,
                                    const MpImageProcessingOptions* options,
                                    MpDetectionResult* result, char** error_msg);
int32_t MpObjectDetectorDetectAsync(MpTaskPtr detector, MpImagePtr image,
                                    const MpImageProcessingOptions* options, int64_t timestamp_ms,
                                    char** error_msg);
void MpObjectDetectorCloseResult(MpDetectionResult* result);
int32_t MpObjectDetectorClose(MpTaskPtr detector, char** error_msg);

int32_t MpImageClassifierCreate(const MpImageClassifierOptions* options, MpTaskPtr* classifier,
                                char** error_msg);
int32_t MpImageClassifierClassifyImage(MpTaskPtr classifier, MpImagePtr image,
                                       const MpImageProcessingOptions* options,
                                       MpClassificationResult* result, char** error_msg);
int32_t MpImageClassifierClassifyAsync(MpTaskPtr classifier, MpImagePtr image,
                                       const MpImageProcessingOptions* options,
                                       int64_t timestamp_ms, char** error_msg);
void MpImageClassifierCloseResult(MpClassificationResult* result);
int32_t MpImageClassifierClose(MpTaskPtr classifier, char** error_msg);

}  // extern "C"
