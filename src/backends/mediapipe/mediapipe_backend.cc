#include "backends/mediapipe/mediapipe_backend.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "backends/mediapipe/mediapipe_c_api.h"
#include "core/log.h"
#include "core/stderr_filter.h"
#include "flatbuffers/flatbuffers.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace edgebench {
namespace {

constexpr const char* kTaskNames = "face_detector, image_classifier, object_detector";

enum class TaskKind { kFaceDetector, kObjectDetector, kImageClassifier };

// MediaPipe logs through absl; MpSetLoggingCallback hands every entry to one process-wide sink.
// The messages go to edgebench's debug log (-vv) as they come, and are kept for the session's
// notes under --verbose, so a record says what MediaPipe reported while loading.
class LogCapture {
 public:
  static LogCapture& Get() {
    static LogCapture capture;
    return capture;
  }
  void Install() {
    std::call_once(installed_, [] { MpSetLoggingCallback(&LogCapture::OnLog, nullptr); });
  }
  std::vector<std::string> Take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(messages_, {});
  }

 private:
  static void OnLog(int severity, const char* message, void*) {
    static constexpr const char* kSeverity[] = {"info", "warning", "error", "fatal"};
    std::string text = std::string(kSeverity[std::clamp(severity, 0, 3)]) + ": " + (message ? message : "");
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    Log(LogLevel::kDebug, "mediapipe: " + text);
    LogCapture& self = Get();
    std::lock_guard<std::mutex> lock(self.mutex_);
    if (self.messages_.size() < 64) self.messages_.push_back(std::move(text));
  }

  std::once_flag installed_;
  std::mutex mutex_;
  std::vector<std::string> messages_;
};

// What libmediapipe writes to stderr itself, around absl's sink: LiteRT's "INFO: ..." lines, glog's
// "WARNING: Logging before InitGoogle()" and its prefixed "I0000 ..."/"W0000 ..." entries. Errors
// ("E...", "F...") pass through.
bool IsMediaPipeChatter(const std::string& line) {
  if (line.rfind("INFO: ", 0) == 0 || line.rfind("WARNING: Logging before InitGoogle()", 0) == 0) return true;
  return line.size() > 5 && (line[0] == 'I' || line[0] == 'W') && std::isdigit(static_cast<unsigned char>(line[1])) &&
         std::isdigit(static_cast<unsigned char>(line[4]));
}

// A status-returning call's error: "what: MediaPipe said: <message> (status N)"; frees the message.
Status MpError(const std::string& what, int32_t status, char* message) {
  std::string text = what + ": MediaPipe said: " + (message ? message : "(no message)") +
                     " (status " + std::to_string(status) + ")";
  if (message) MpErrorFree(message);
  return Status::Error(text);
}

// The model's input image size and the classifier's output width, from the .tflite's subgraph 0.
struct ModelShape {
  int64_t height = 0;
  int64_t width = 0;
  int64_t output_width = 0;  // the last dim of output 0 (the classes of a classifier)
  std::vector<std::vector<int64_t>> outputs;  // every output's shape, in order
};

// The Task a model's outputs are made for, when they say it unambiguously; empty otherwise.
// BlazeFace's raw SSD outputs (boxes with 6 keypoints, [1,N,16], and one score, [1,N,1]) are the
// face detector's; TFLite_Detection_PostProcess's four (boxes, classes, scores, count) an object
// detector's; one [1,C] a classifier's; one [1,H,W,C] a segmenter's. `why` says which rule held.
std::string TaskFromOutputs(const std::vector<std::vector<int64_t>>& outputs, std::string& why) {
  const auto text = [&] {
    std::string all;
    for (const auto& shape : outputs) all += (all.empty() ? "" : ", ") + ShapeToString(shape);
    return all;
  };
  if (outputs.size() == 2 && outputs[0].size() == 3 && outputs[1].size() == 3 && outputs[0][1] == outputs[1][1]) {
    const int64_t a = outputs[0][2], b = outputs[1][2];
    if ((a == 16 && b == 1) || (a == 1 && b == 16)) {
      why = "its outputs " + text() + " are BlazeFace's (a box and 6 keypoints, and one score, per anchor)";
      return "face_detector";
    }
  }
  if (outputs.size() == 4 && outputs[0].size() == 3 && outputs[0][2] == 4) {
    why = "its four outputs " + text() + " are TFLite_Detection_PostProcess's (boxes, classes, scores, count)";
    return "object_detector";
  }
  if (outputs.size() == 1 && outputs[0].size() == 2) {
    why = "its one output " + text() + " is a score per class";
    return "image_classifier";
  }
  if (outputs.size() == 1 && outputs[0].size() == 4) {
    why = "its one output " + text() + " is a per-pixel map";
    return "image_segmenter";
  }
  why = "its outputs " + text() + " fit no Task's layout";
  return "";
}

Result<ModelShape> ReadModelShape(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("mediapipe: cannot open model '" + path + "': no such file or not readable");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  flatbuffers::Verifier verifier(data, bytes.size());
  if (bytes.size() < 8 || !tflite::VerifyModelBuffer(verifier)) {
    return Status::Error("mediapipe: '" + path + "' is not a TFLite flatbuffer (a Task runs a .tflite model)");
  }
  const tflite::Model* model = tflite::GetModel(data);
  if (!model->subgraphs() || model->subgraphs()->size() == 0) {
    return Status::Error("mediapipe: '" + path + "' has no subgraph");
  }
  const tflite::SubGraph* graph = model->subgraphs()->Get(0);
  auto shape_of = [&](int tensor_index) -> std::vector<int64_t> {
    std::vector<int64_t> shape;
    if (!graph->tensors() || tensor_index < 0 ||
        static_cast<flatbuffers::uoffset_t>(tensor_index) >= graph->tensors()->size()) {
      return shape;
    }
    const tflite::Tensor* tensor = graph->tensors()->Get(static_cast<flatbuffers::uoffset_t>(tensor_index));
    if (tensor->shape()) shape.assign(tensor->shape()->begin(), tensor->shape()->end());
    return shape;
  };
  ModelShape result;
  if (graph->inputs() && graph->inputs()->size() > 0) {
    const auto shape = shape_of(graph->inputs()->Get(0));
    if (shape.size() == 4) {  // NHWC
      result.height = shape[1];
      result.width = shape[2];
    }
  }
  if (graph->outputs()) {
    for (const int32_t index : *graph->outputs()) result.outputs.push_back(shape_of(index));
  }
  if (!result.outputs.empty() && !result.outputs[0].empty()) result.output_width = result.outputs[0].back();
  return result;
}

// "640x480" -> {width 640, height 480}.
Result<std::pair<int, int>> ParseImageSize(const std::string& text) {
  const size_t x = text.find('x');
  try {
    if (x != std::string::npos) {
      size_t used_w = 0, used_h = 0;
      const int w = std::stoi(text.substr(0, x), &used_w);
      const int h = std::stoi(text.substr(x + 1), &used_h);
      if (used_w == x && used_h == text.size() - x - 1 && w > 0 && h > 0 && w <= 16384 && h <= 16384) {
        return std::pair<int, int>{w, h};
      }
    }
  } catch (const std::exception&) {
  }
  return Status::Error("mediapipe: image='" + text + "' is not a size WIDTHxHEIGHT with each side from 1 to 16384 "
                       "pixels (e.g. image=640x480)");
}

class MediaPipeSession;

// Live-stream results come to a callback that carries no user data, only the input's timestamp:
// timestamps are therefore unique across the process (every live-stream session takes them from
// one clock, under one mutex), and a waiting run is found by its timestamp.
struct PendingRun {
  MediaPipeSession* session = nullptr;
  bool done = false;
  bool dropped = false;
  Status status;
  std::vector<Tensor> outputs;
};

struct LiveStreamBoard {
  std::mutex submit_mutex;  // timestamps taken and submitted in order
  int64_t last_timestamp_ms = 0;
  std::mutex mutex;  // guards `pending`
  std::condition_variable done;
  std::map<int64_t, PendingRun*> pending;

  static LiveStreamBoard& Get() {
    static LiveStreamBoard board;
    return board;
  }
};

class MediaPipeSession : public Session {
 public:
  static Result<std::unique_ptr<Session>> Create(const Artifact& artifact, const Target& target) {
    // task= and image= are strings; the typed reader takes the rest.
    Target typed = target;
    std::string task_name, image_size;
    if (auto it = typed.options.find("task"); it != typed.options.end()) {
      task_name = it->second;
      typed.options.erase(it);
    }
    if (auto it = typed.options.find("image"); it != typed.options.end()) {
      image_size = it->second;
      typed.options.erase(it);
    }
    TargetOptions options(typed);
    // Unless mode= says otherwise: live_stream when several streams share the session, since
    // MediaPipe's graph takes concurrent submissions there, and image (one call at a time) else.
    const bool mode_given = typed.options.count("mode") > 0;
    const char* default_mode = target.concurrent_callers > 1 ? "live_stream" : "image";
    auto mode = options.Choice("mode", default_mode, {"image", "live_stream"});
    if (!mode.ok()) return mode.status();
    auto timeout_ms = options.Int("timeout_ms", 10000, 1, 3600 * 1000);
    if (!timeout_ms.ok()) return timeout_ms.status();
    auto drops = options.Choice("drops", "retry", {"retry", "fail"});
    if (!drops.ok()) return drops.status();
    auto max_results = options.Int("max_results", -1, -1, 1 << 20);
    if (!max_results.ok()) return max_results.status();
    if (Status s = options.CheckAllUsed(); !s.ok()) return s;

    auto session = std::unique_ptr<MediaPipeSession>(new MediaPipeSession());
    session->path_ = artifact.path;
    session->live_stream_ = mode.value() == "live_stream";
    if (!mode_given && session->live_stream_) {
      session->notes_.push_back("mediapipe: mode=live_stream (no mode= given): " +
                                std::to_string(target.concurrent_callers) +
                                " streams share this session, and MediaPipe's graph takes concurrent "
                                "submissions in live_stream; mode=image runs them one at a time");
    }
    session->timeout_ms_ = timeout_ms.value();
    session->retry_drops_ = drops.value() == "retry";
    session->max_results_ = max_results.value();
    auto shape = ReadModelShape(artifact.path);
    if (!shape.ok()) return shape.status();
    if (task_name.empty()) {
      std::string why;
      task_name = TaskFromOutputs(shape.value().outputs, why);
      if (task_name.empty()) {
        return Status::Error("mediapipe: no task given for " + artifact.path + ", and " + why +
                             ": name the MediaPipe Task to run with the target option task= (" + kTaskNames +
                             "), e.g. mediapipe:cpu?task=face_detector");
      }
      session->notes_.push_back("mediapipe: task=" + task_name + " (no task= given): " + why +
                                "; set task= to run another Task");
    }
    if (task_name == "face_detector") {
      session->kind_ = TaskKind::kFaceDetector;
    } else if (task_name == "object_detector") {
      session->kind_ = TaskKind::kObjectDetector;
    } else if (task_name == "image_classifier") {
      session->kind_ = TaskKind::kImageClassifier;
    } else if (task_name == "image_segmenter") {
      return Status::Error("mediapipe: task=image_segmenter is not supported yet (its masks are not "
                           "converted to tensors); tasks supported: " + std::string(kTaskNames));
    } else {
      return Status::Error("mediapipe: unknown task '" + task_name + "'; tasks supported: " + kTaskNames);
    }
    session->task_name_ = task_name;
    if (!image_size.empty()) {
      auto size = ParseImageSize(image_size);
      if (!size.ok()) return size.status();
      session->width_ = size.value().first;
      session->height_ = size.value().second;
    } else if (shape.value().height > 0 && shape.value().width > 0) {
      session->width_ = static_cast<int>(shape.value().width);
      session->height_ = static_cast<int>(shape.value().height);
    } else {
      return Status::Error("mediapipe: the input of " + artifact.path + " has no fixed NHWC shape to take "
                           "the image size from; give one with the target option image=WIDTHxHEIGHT");
    }
    session->classes_ = shape.value().output_width;
    if (Status s = session->Open(); !s.ok()) return s;
    return std::unique_ptr<Session>(std::move(session));
  }

  ~MediaPipeSession() override {
    if (task_ == nullptr) return;
    StderrFilter quiet(IsMediaPipeChatter);  // LiteRT logs "DestroyAccelerator" at INFO
    char* error = nullptr;
    int32_t status = kMpOk;
    switch (kind()) {
      case TaskKind::kFaceDetector: status = MpFaceDetectorClose(task_, &error); break;
      case TaskKind::kObjectDetector: status = MpObjectDetectorClose(task_, &error); break;
      case TaskKind::kImageClassifier: status = MpImageClassifierClose(task_, &error); break;
    }
    if (status != kMpOk) Log(LogLevel::kWarning, MpError("mediapipe: closing the task failed", status, error).message());
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) override {
    const std::vector<int64_t> expected = {1, height_, width_, 3};
    if (input_shapes.size() != 1 || input_shapes[0] != expected) {
      return Status::Error("mediapipe: the Task's session takes one image of shape " +
                           ShapeToString(expected) + "; give another size with the target option "
                           "image=WIDTHxHEIGHT (MediaPipe resizes it to the model's input)");
    }
    return Status::Ok();
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    const int64_t bytes = int64_t{width_} * height_ * 3;
    if (inputs.size() != 1 || inputs[0].dtype != DType::kUInt8 ||
        static_cast<int64_t>(inputs[0].data.size()) != bytes) {
      return Status::Error("mediapipe: a run takes one uint8 image [1, " + std::to_string(height_) + ", " +
                           std::to_string(width_) + ", 3]");
    }
    MpImagePtr image = nullptr;
    char* error = nullptr;
    // MediaPipe copies the pixels into its own image.
    if (int32_t s = MpImageCreateFromUint8Data(kMpImageFormatSrgb, width_, height_,
                                               reinterpret_cast<const uint8_t*>(inputs[0].data.data()),
                                               static_cast<int>(bytes), &image, &error);
        s != kMpOk) {
      return MpError("mediapipe: creating an image of " + std::to_string(width_) + "x" +
                     std::to_string(height_) + " failed", s, error);
    }
    Status status = live_stream_ ? RunLiveStream(image, outputs) : RunImage(image, outputs);
    MpImageFree(image);
    return status;
  }

  std::vector<std::vector<int64_t>> PreparedInputShapes() const override {
    return {{1, height_, width_, 3}};
  }

  std::vector<std::string> notes() const override {
    std::vector<std::string> all = notes_;
    // Read again after the run (the harness does): how many frames MediaPipe's flow limiter
    // dropped is part of what live_stream measured.
    const int64_t submitted = frames_submitted_.load();
    if (live_stream_ && submitted > 0) {
      const int64_t dropped = frames_dropped_.load();
      char share[32];
      std::snprintf(share, sizeof share, "%.1f%%", 100.0 * static_cast<double>(dropped) / static_cast<double>(submitted));
      all.push_back("mediapipe: live_stream: MediaPipe dropped " + std::to_string(dropped) + " of the " +
                    std::to_string(submitted) + " frames submitted to this session, warmup included (" + share +
                    ")" + (retry_drops_ ? "; each was resubmitted, inside its run's latency" : ""));
    }
    return all;
  }

  std::map<std::string, std::string> effective_options() const override {
    std::map<std::string, std::string> options = {
        {"task", task_name_},
        {"image", std::to_string(width_) + "x" + std::to_string(height_)},
        {"mode", live_stream_ ? "live_stream" : "image"},
        {"threads", "MediaPipe's own (its C API has no thread option)"},
        {"delegate", "cpu"}};
    if (live_stream_) {
      options["timeout_ms"] = std::to_string(timeout_ms_);
      options["drops"] = retry_drops_ ? "retry" : "fail";
    }
    if (kind() != TaskKind::kFaceDetector) options["max_results"] = std::to_string(max_results_);
    return options;
  }

  // Called from MediaPipe's callback thread for a live-stream result.
  void ConvertDetectionsInto(const MpDetectionResult& result, std::vector<Tensor>& outputs) const {
    ConvertDetections(result, outputs);
  }
  void ConvertClassificationsInto(const MpClassificationResult& result, std::vector<Tensor>& outputs) const {
    ConvertClassifications(result, outputs);
  }

 private:
  MediaPipeSession() = default;

  TaskKind kind() const { return kind_; }

  Status Open() {
    LogCapture::Get().Install();
    LogCapture::Get().Take();
    MpBaseOptions base{};
    base.model_asset_path = path_.c_str();
    base.file_descriptor = -1;
    base.delegate = kMpDelegateCpu;
    const int running_mode = live_stream_ ? kMpRunningModeLiveStream : kMpRunningModeImage;
    char* error = nullptr;
    int32_t status = kMpOk;
    // MediaPipe's chatter while it builds the graph and runs it first, kept for --verbose notes.
    std::vector<std::string> chatter;
    std::mutex chatter_mutex;
    auto filter = std::make_unique<StderrFilter>([&](const std::string& line) {
      if (!IsMediaPipeChatter(line)) return false;
      std::lock_guard<std::mutex> lock(chatter_mutex);
      if (chatter.size() < 64) chatter.push_back(line);
      return true;
    });
    switch (kind_) {
      case TaskKind::kFaceDetector: {
        MpFaceDetectorOptions options{};
        options.base_options = base;
        options.running_mode = running_mode;
        options.min_detection_confidence = 0.5f;  // FaceDetectorOptions' defaults
        options.min_suppression_threshold = 0.3f;
        options.result_callback = live_stream_ ? &OnDetections : nullptr;
        status = MpFaceDetectorCreate(&options, &task_, &error);
        break;
      }
      case TaskKind::kObjectDetector: {
        MpObjectDetectorOptions options{};
        options.base_options = base;
        options.running_mode = running_mode;
        options.max_results = max_results_;
        options.score_threshold = 0.0f;
        options.result_callback = live_stream_ ? &OnDetections : nullptr;
        status = MpObjectDetectorCreate(&options, &task_, &error);
        break;
      }
      case TaskKind::kImageClassifier: {
        MpImageClassifierOptions options{};
        options.base_options = base;
        options.running_mode = running_mode;
        options.classifier_options.max_results = max_results_;
        options.classifier_options.score_threshold = 0.0f;
        options.result_callback = live_stream_ ? &OnClassifications : nullptr;
        status = MpImageClassifierCreate(&options, &task_, &error);
        break;
      }
    }
    if (status == kMpOk && !live_stream_) {
      // One run on a black image, inside the filter: MediaPipe logs its first run's warnings
      // (input reallocation) once, and the measured runs must not pay for a stderr pipe.
      std::vector<uint8_t> black(static_cast<size_t>(width_) * height_ * 3, 0);
      MpImagePtr image = nullptr;
      char* image_error = nullptr;
      if (MpImageCreateFromUint8Data(kMpImageFormatSrgb, width_, height_, black.data(),
                                     static_cast<int>(black.size()), &image, &image_error) == kMpOk) {
        std::vector<Tensor> ignored;
        (void)RunImage(image, ignored);
        MpImageFree(image);
      } else if (image_error) {
        MpErrorFree(image_error);
      }
    }
    filter.reset();
    std::vector<std::string> said = LogCapture::Get().Take();
    said.insert(said.end(), chatter.begin(), chatter.end());
    if (status != kMpOk) {
      task_ = nullptr;
      const std::string message = error ? error : "";
      Status failed = MpError("mediapipe: creating the " + task_name_ + " Task from " + path_ + " failed",
                              status, error);
      if (message.find("etadata") != std::string::npos ||
          message.find("NormalizationOptions") != std::string::npos) {
        return Status::Error(failed.message() +
                             ". A MediaPipe Task needs a model with Tasks metadata (normalization, "
                             "image properties); for the npm BlazeFace models, write it with "
                             "scripts/devroot scripts/models/add-mediapipe-metadata " + path_ + " OUTPUT.tflite and "
                             "run OUTPUT.tflite");
      }
      return failed;
    }
    BuildSignature();
    notes_.push_back("mediapipe: the latency of a run includes MediaPipe's own pre- and post-processing "
                     "(image conversion, resize and normalization to the model's input, and the " +
                     std::string(kind_ == TaskKind::kImageClassifier ? "score decoding"
                                                                     : "anchor decoding and non-max "
                                                                       "suppression") +
                     "), which is what a user of the " + task_name_ + " Task gets");
    if (live_stream_) {
      notes_.push_back("mediapipe: mode=live_stream: runs are submitted with the Task's Async call and "
                       "timed from submission to MediaPipe's result callback. MediaPipe drops frames "
                       "while its graph is busy (edgebench sees a drop when a later frame's result "
                       "arrives first); " + std::string(retry_drops_ ? "drops=retry resubmits a dropped frame, and the run's latency counts from its first submission" : "drops=fail fails the run") +
                       "; a run with no result within timeout_ms fails");
    }
    if (kind_ != TaskKind::kFaceDetector && max_results_ >= 0) {
      notes_.push_back("mediapipe: max_results=" + std::to_string(max_results_) +
                       ": only the top results are reported, the rest of the output is zero");
    }
    if (LogEnabled(LogLevel::kDebug)) {
      for (const std::string& line : said) notes_.push_back("MediaPipe: " + line);
    }
    return Status::Ok();
  }

  void BuildSignature() {
    signature_.inputs.push_back({"image", DType::kUInt8, {Dim::Fixed(1), Dim::Fixed(height_),
                                                           Dim::Fixed(width_), Dim::Fixed(3)}});
    if (kind_ == TaskKind::kImageClassifier) {
      signature_.outputs.push_back({"scores", DType::kFloat32,
                                    {Dim::Fixed(1), classes_ > 0 ? Dim::Fixed(classes_) : Dim::Symbol("classes")}});
      return;
    }
    const Dim n = Dim::Symbol("detections");
    signature_.outputs.push_back({"detection_boxes", DType::kFloat32, {n, Dim::Fixed(4)}});
    signature_.outputs.push_back({"detection_scores", DType::kFloat32, {n}});
    signature_.outputs.push_back({"detection_keypoints", DType::kFloat32, {n, Dim::Symbol("keypoints"), Dim::Fixed(2)}});
    if (kind_ == TaskKind::kObjectDetector) {
      signature_.outputs.push_back({"detection_classes", DType::kInt32, {n}});
    }
  }

  Status RunImage(MpImagePtr image, std::vector<Tensor>& outputs) {
    // One call at a time on a Task in image mode (its graph runs one image to completion).
    std::lock_guard<std::mutex> lock(image_mutex_);
    char* error = nullptr;
    if (kind_ == TaskKind::kImageClassifier) {
      MpClassificationResult result{};
      if (int32_t s = MpImageClassifierClassifyImage(task_, image, nullptr, &result, &error); s != kMpOk) {
        return MpError("mediapipe: image_classifier failed on " + path_, s, error);
      }
      ConvertClassifications(result, outputs);
      MpImageClassifierCloseResult(&result);
      return Status::Ok();
    }
    MpDetectionResult result{};
    const bool face = kind_ == TaskKind::kFaceDetector;
    int32_t s = face ? MpFaceDetectorDetectImage(task_, image, nullptr, &result, &error)
                     : MpObjectDetectorDetectImage(task_, image, nullptr, &result, &error);
    if (s != kMpOk) return MpError("mediapipe: " + task_name_ + " failed on " + path_, s, error);
    ConvertDetections(result, outputs);
    if (face) {
      MpFaceDetectorCloseResult(&result);
    } else {
      MpObjectDetectorCloseResult(&result);
    }
    return Status::Ok();
  }

  // A frame MediaPipe drops (its flow limiter keeps one frame in flight and one queued) is
  // resubmitted under drops=retry, so each run still ends with a result and its latency counts
  // from the first submission; drops=fail fails the run instead.
  Status RunLiveStream(MpImagePtr image, std::vector<Tensor>& outputs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_);
    for (int attempt = 1;; ++attempt) {
      bool dropped = false;
      Status status = SubmitAndWait(image, deadline, outputs, dropped);
      frames_submitted_.fetch_add(1);
      if (dropped) frames_dropped_.fetch_add(1);
      if (!dropped || !retry_drops_) return status;
      if (std::chrono::steady_clock::now() >= deadline) {
        return Status::Error("mediapipe: MediaPipe dropped the frame " + std::to_string(attempt) +
                             " times within timeout_ms=" + std::to_string(timeout_ms_) +
                             " (live_stream: its flow limiter drops frames while the graph is busy)");
      }
    }
  }

  Status SubmitAndWait(MpImagePtr image, std::chrono::steady_clock::time_point deadline,
                       std::vector<Tensor>& outputs, bool& dropped) {
    LiveStreamBoard& board = LiveStreamBoard::Get();
    PendingRun run;
    run.session = this;
    int64_t timestamp = 0;
    {
      // Taken and submitted under one lock, so the Task sees strictly increasing timestamps
      // whichever thread submits.
      std::lock_guard<std::mutex> submit(board.submit_mutex);
      const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count();
      timestamp = std::max(now_ms, board.last_timestamp_ms + 1);
      board.last_timestamp_ms = timestamp;
      {
        std::lock_guard<std::mutex> lock(board.mutex);
        board.pending[timestamp] = &run;
      }
      char* error = nullptr;
      int32_t s = kMpOk;
      switch (kind_) {
        case TaskKind::kFaceDetector: s = MpFaceDetectorDetectAsync(task_, image, nullptr, timestamp, &error); break;
        case TaskKind::kObjectDetector: s = MpObjectDetectorDetectAsync(task_, image, nullptr, timestamp, &error); break;
        case TaskKind::kImageClassifier: s = MpImageClassifierClassifyAsync(task_, image, nullptr, timestamp, &error); break;
      }
      if (s != kMpOk) {
        std::lock_guard<std::mutex> lock(board.mutex);
        board.pending.erase(timestamp);
        return MpError("mediapipe: submitting a frame to the " + task_name_ + " Task (live_stream) failed", s, error);
      }
    }
    std::unique_lock<std::mutex> lock(board.mutex);
    const bool finished = board.done.wait_until(lock, deadline, [&] { return run.done; });
    board.pending.erase(timestamp);
    if (!finished) {
      return Status::Error("mediapipe: no result for the frame at timestamp " + std::to_string(timestamp) +
                           " ms within timeout_ms=" + std::to_string(timeout_ms_) +
                           " (live_stream): MediaPipe dropped it or is stalled");
    }
    if (run.dropped) {
      dropped = true;
      return Status::Error("mediapipe: MediaPipe dropped the frame at timestamp " + std::to_string(timestamp) +
                           " ms (live_stream: its flow limiter drops frames while the graph is busy; a "
                           "later frame's result came first); drops=retry resubmits such frames");
    }
    if (!run.status.ok()) return run.status;
    outputs = std::move(run.outputs);
    return Status::Ok();
  }

  // Settles the run waiting for `timestamp` with the converted result, and every earlier run of
  // the same session still waiting: results come in timestamp order, so those were dropped.
  template <typename Convert>
  static void Settle(int32_t status, int64_t timestamp, Convert convert) {
    LiveStreamBoard& board = LiveStreamBoard::Get();
    {
      std::lock_guard<std::mutex> lock(board.mutex);
      auto it = board.pending.find(timestamp);
      if (it == board.pending.end()) return;  // its run timed out and left
      PendingRun* run = it->second;
      if (status == kMpOk) {
        convert(*run);
      } else {
        run->status = Status::Error("mediapipe: the live-stream result callback reported status " +
                                    std::to_string(status) + " for the frame at " + std::to_string(timestamp) + " ms");
      }
      run->done = true;
      for (auto earlier = board.pending.begin(); earlier != it; ++earlier) {
        if (earlier->second->session == run->session && !earlier->second->done) {
          earlier->second->dropped = true;
          earlier->second->done = true;
        }
      }
    }
    board.done.notify_all();
  }

  static void OnDetections(int32_t status, const MpDetectionResult* result, MpImagePtr, int64_t timestamp) {
    Settle(status, timestamp, [&](PendingRun& run) {
      if (result) run.session->ConvertDetectionsInto(*result, run.outputs);
    });
  }

  static void OnClassifications(int32_t status, const MpClassificationResult* result, MpImagePtr,
                                int64_t timestamp) {
    Settle(status, timestamp, [&](PendingRun& run) {
      if (result) run.session->ConvertClassificationsInto(*result, run.outputs);
    });
  }

  static Tensor MakeTensor(const std::string& name, DType dtype, std::vector<int64_t> shape, size_t bytes) {
    Tensor t{name, dtype, std::move(shape), {}};
    t.data.assign(bytes, std::byte{0});
    return t;
  }

  void ConvertDetections(const MpDetectionResult& result, std::vector<Tensor>& outputs) const {
    const uint32_t n = result.detections_count;
    auto score_of = [&](uint32_t i) {
      const MpDetection& d = result.detections[i];
      return d.categories_count > 0 ? d.categories[0].score : 0.0f;
    };
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return score_of(a) > score_of(b); });
    uint32_t keypoints = 0;
    for (uint32_t i = 0; i < n; ++i) keypoints = std::max(keypoints, result.detections[i].keypoints_count);

    const auto n64 = static_cast<int64_t>(n);
    outputs.resize(kind_ == TaskKind::kObjectDetector ? 4 : 3);
    outputs[0] = MakeTensor("detection_boxes", DType::kFloat32, {n64, 4}, n * 4 * sizeof(float));
    outputs[1] = MakeTensor("detection_scores", DType::kFloat32, {n64}, n * sizeof(float));
    outputs[2] = MakeTensor("detection_keypoints", DType::kFloat32, {n64, keypoints, 2},
                            size_t{n} * keypoints * 2 * sizeof(float));
    float* boxes = outputs[0].as<float>();
    float* scores = outputs[1].as<float>();
    float* points = outputs[2].as<float>();
    int32_t* classes = nullptr;
    if (kind_ == TaskKind::kObjectDetector) {
      outputs[3] = MakeTensor("detection_classes", DType::kInt32, {n64}, n * sizeof(int32_t));
      classes = outputs[3].as<int32_t>();
    }
    for (uint32_t row = 0; row < n; ++row) {
      const MpDetection& d = result.detections[order[row]];
      boxes[row * 4 + 0] = static_cast<float>(d.bounding_box.left);
      boxes[row * 4 + 1] = static_cast<float>(d.bounding_box.top);
      boxes[row * 4 + 2] = static_cast<float>(d.bounding_box.right);
      boxes[row * 4 + 3] = static_cast<float>(d.bounding_box.bottom);
      scores[row] = score_of(order[row]);
      for (uint32_t k = 0; k < d.keypoints_count; ++k) {
        points[(row * keypoints + k) * 2 + 0] = d.keypoints[k].x;
        points[(row * keypoints + k) * 2 + 1] = d.keypoints[k].y;
      }
      if (classes) classes[row] = d.categories_count > 0 ? d.categories[0].index : -1;
    }
  }

  void ConvertClassifications(const MpClassificationResult& result, std::vector<Tensor>& outputs) const {
    int64_t width = classes_;
    const MpClassifications* head = result.classifications_count > 0 ? &result.classifications[0] : nullptr;
    if (head) {
      for (uint32_t i = 0; i < head->categories_count; ++i) {
        width = std::max<int64_t>(width, int64_t{head->categories[i].index} + 1);
      }
    }
    outputs.resize(1);
    outputs[0] = MakeTensor("scores", DType::kFloat32, {1, width}, static_cast<size_t>(width) * sizeof(float));
    float* scores = outputs[0].as<float>();
    if (!head) return;
    for (uint32_t i = 0; i < head->categories_count; ++i) {
      const int index = head->categories[i].index;
      if (index >= 0 && index < width) scores[index] = head->categories[i].score;
    }
  }

  std::string path_;
  std::string task_name_;
  TaskKind kind_ = TaskKind::kFaceDetector;
  bool live_stream_ = false;
  int timeout_ms_ = 10000;
  bool retry_drops_ = true;
  int max_results_ = -1;
  int width_ = 0;
  int height_ = 0;
  int64_t classes_ = 0;
  MpTaskPtr task_ = nullptr;
  std::mutex image_mutex_;
  Signature signature_;
  std::vector<std::string> notes_;
  std::atomic<int64_t> frames_submitted_{0};  // live_stream, warmup included
  std::atomic<int64_t> frames_dropped_{0};
};

class MediaPipeBackend : public Backend {
 public:
  BackendInfo Info() const override {
    BackendInfo info = InfoFromDescription(DescribeMediaPipeBackend());
    info.version = EDGEBENCH_MEDIAPIPE_VERSION;
    DeviceInfo cpu;
    cpu.name = "cpu";
    cpu.description = "MediaPipe Tasks on the CPU (TFLite with XNNPACK inside libmediapipe)";
    cpu.available = true;
    // Image mode serializes a session's runs; live_stream queues them into MediaPipe's graph.
    cpu.capabilities.thread_safe_run = true;
    cpu.capabilities.bare_tensor_models = false;  // vision tasks on images only
    DeviceInfo gpu;
    gpu.name = "gpu";
    gpu.description = "MediaPipe Tasks with the GPU delegate (BaseOptions delegate GPU)";
    gpu.available = false;
    gpu.capabilities.bare_tensor_models = false;
    gpu.reason = "not supported by edgebench yet: the C API's base options offer delegate=GPU, which "
                 "needs an OpenGL ES 3.1 context from EGL (a GPU and its driver); edgebench has not "
                 "tested it, and machines without a GPU have none";
    info.devices = {cpu, gpu};
    return info;
  }

  Result<std::unique_ptr<Session>> Load(const Artifact& artifact, const Target& target) override {
    if (target.device == "gpu") {
      return Status::Error("mediapipe:gpu is not available: MediaPipe's GPU delegate is not supported "
                           "by edgebench yet; use mediapipe:cpu");
    }
    if (target.device != "cpu") {
      return Status::Error("backend 'mediapipe' has devices cpu and gpu, not '" + target.device + "'");
    }
    return MediaPipeSession::Create(artifact, target);
  }
};

}  // namespace

BackendDescription DescribeMediaPipeBackend() {
  return {"mediapipe", "MediaPipe Tasks", {".tflite"}, "", ""};
}

std::unique_ptr<Backend> MakeMediaPipeBackend() { return std::make_unique<MediaPipeBackend>(); }

}  // namespace edgebench
