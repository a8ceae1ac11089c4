#include "postprocess/ssd_detections.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "core/tensor_values.h"

namespace edgebench {
namespace {

const Tensor* Find(const std::vector<Tensor>& outputs, const std::string& name) {
  for (const Tensor& t : outputs) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::string Names(const std::vector<Tensor>& outputs) {
  std::string names;
  for (const Tensor& t : outputs) names += (names.empty() ? "'" : ", '") + t.name + "' " + ShapeToString(t.shape);
  return names.empty() ? "none" : names;
}

template <typename T>
Status Read(const nlohmann::json& json, const char* key, T& value) {
  if (!json.contains(key)) return Status::Ok();
  try {
    value = json.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    return Status::Error(std::string("postprocess option '") + key + "' has the wrong type: " + json.at(key).dump());
  }
  return Status::Ok();
}

}  // namespace

Result<SsdDetectionsOptions> SsdDetectionsPreset(const std::string& name) {
  SsdDetectionsOptions o;  // the defaults are the short-range model's
  o.preset = name;
  if (name == "blazeface_short_range") return o;
  if (name == "blazeface_full_range") {
    o.anchors.input_width = o.anchors.input_height = 192;
    o.anchors.num_layers = 1;
    o.anchors.strides = {4};
    o.anchors.interpolated_scale_aspect_ratio = 0.0;
    o.decode.x_scale = o.decode.y_scale = o.decode.w_scale = o.decode.h_scale = 192;
    o.decode.min_score_thresh = 0.6;
    return o;
  }
  return Status::Error("unknown postprocess preset '" + name +
                       "': the presets are blazeface_short_range and blazeface_full_range");
}

Result<SsdDetectionsOptions> ParseSsdDetectionsOptions(const nlohmann::json& json) {
  if (!json.is_object()) return Status::Error("postprocess must be an object, e.g. {\"kind\": \"ssd_detections\", ...}");
  const std::string kind = json.value("kind", "");
  if (kind != "ssd_detections") {
    return Status::Error("postprocess kind '" + kind + "' is not known: the kind is ssd_detections");
  }
  auto preset = SsdDetectionsPreset(json.value("preset", "blazeface_short_range"));
  if (!preset.ok()) return preset.status();
  SsdDetectionsOptions o = preset.take();
  SsdAnchorOptions& a = o.anchors;
  SsdDecodeOptions& d = o.decode;
  const std::vector<std::pair<const char*, std::function<Status()>>> readers = {
      {"kind", [] { return Status::Ok(); }},
      {"preset", [] { return Status::Ok(); }},
      {"regressors", [&] { return Read(json, "regressors", o.regressors); }},
      {"classificators", [&] { return Read(json, "classificators", o.classificators); }},
      {"input_size_width", [&] { return Read(json, "input_size_width", a.input_width); }},
      {"input_size_height", [&] { return Read(json, "input_size_height", a.input_height); }},
      {"num_layers", [&] { return Read(json, "num_layers", a.num_layers); }},
      {"strides", [&] { return Read(json, "strides", a.strides); }},
      {"min_scale", [&] { return Read(json, "min_scale", a.min_scale); }},
      {"max_scale", [&] { return Read(json, "max_scale", a.max_scale); }},
      {"anchor_offset_x", [&] { return Read(json, "anchor_offset_x", a.anchor_offset_x); }},
      {"anchor_offset_y", [&] { return Read(json, "anchor_offset_y", a.anchor_offset_y); }},
      {"aspect_ratios", [&] { return Read(json, "aspect_ratios", a.aspect_ratios); }},
      {"interpolated_scale_aspect_ratio", [&] { return Read(json, "interpolated_scale_aspect_ratio", a.interpolated_scale_aspect_ratio); }},
      {"reduce_boxes_in_lowest_layer", [&] { return Read(json, "reduce_boxes_in_lowest_layer", a.reduce_boxes_in_lowest_layer); }},
      {"fixed_anchor_size", [&] { return Read(json, "fixed_anchor_size", a.fixed_anchor_size); }},
      {"num_coords", [&] { return Read(json, "num_coords", d.num_coords); }},
      {"box_coord_offset", [&] { return Read(json, "box_coord_offset", d.box_coord_offset); }},
      {"keypoint_coord_offset", [&] { return Read(json, "keypoint_coord_offset", d.keypoint_coord_offset); }},
      {"num_keypoints", [&] { return Read(json, "num_keypoints", d.num_keypoints); }},
      {"num_values_per_keypoint", [&] { return Read(json, "num_values_per_keypoint", d.num_values_per_keypoint); }},
      {"x_scale", [&] { return Read(json, "x_scale", d.x_scale); }},
      {"y_scale", [&] { return Read(json, "y_scale", d.y_scale); }},
      {"w_scale", [&] { return Read(json, "w_scale", d.w_scale); }},
      {"h_scale", [&] { return Read(json, "h_scale", d.h_scale); }},
      {"reverse_output_order", [&] { return Read(json, "reverse_output_order", d.reverse_output_order); }},
      {"apply_exponential_on_box_size", [&] { return Read(json, "apply_exponential_on_box_size", d.apply_exponential_on_box_size); }},
      {"sigmoid_score", [&] { return Read(json, "sigmoid_score", d.sigmoid_score); }},
      {"score_clipping_thresh", [&] { return Read(json, "score_clipping_thresh", d.score_clipping_thresh); }},
      {"min_score_thresh", [&] { return Read(json, "min_score_thresh", d.min_score_thresh); }},
      {"min_suppression_threshold", [&] { return Read(json, "min_suppression_threshold", o.nms.min_suppression_threshold); }},
      {"max_num_detections", [&] { return Read(json, "max_num_detections", o.nms.max_detections); }},
      {"algorithm", [] { return Status::Ok(); }},  // read below: WEIGHTED or DEFAULT
  };
  for (const auto& [key, value] : json.items()) {
    (void)value;
    const auto it = std::find_if(readers.begin(), readers.end(), [&](const auto& r) { return key == r.first; });
    if (it == readers.end()) {
      std::string known;
      for (const auto& r : readers) known += (known.empty() ? "" : ", ") + std::string(r.first);
      return Status::Error("unknown postprocess option '" + key + "'; the options are " + known);
    }
    if (Status s = it->second(); !s.ok()) return s;
  }
  if (json.contains("algorithm")) {
    const std::string algorithm = json["algorithm"].is_string() ? json["algorithm"].get<std::string>() : "";
    if (algorithm != "WEIGHTED" && algorithm != "DEFAULT") {
      return Status::Error("postprocess algorithm '" + json["algorithm"].dump() + "': use WEIGHTED or DEFAULT");
    }
    o.nms.weighted = algorithm == "WEIGHTED";
  }
  if (d.num_coords <= 0 || d.box_coord_offset < 0 || d.box_coord_offset + 4 > d.num_coords ||
      d.num_keypoints < 0 || d.num_values_per_keypoint < 2 ||
      d.keypoint_coord_offset + d.num_keypoints * d.num_values_per_keypoint > d.num_coords) {
    return Status::Error("postprocess: the box (4 values at box_coord_offset) and the keypoints (num_keypoints x "
                         "num_values_per_keypoint at keypoint_coord_offset) must fit in num_coords");
  }
  // A pipeline after the detector runs once per detection: none allowed, and it never runs
  // while the record says ok. -1 (MediaPipe's default) keeps every detection.
  if (o.nms.max_detections == 0 || o.nms.max_detections < -1) {
    return Status::Error("postprocess: max_num_detections must be at least 1 (the most detections kept), or -1 "
                         "for no limit");
  }
  for (const auto& [name, value] : {std::pair<const char*, double>{"x_scale", d.x_scale}, {"y_scale", d.y_scale},
                                    {"w_scale", d.w_scale}, {"h_scale", d.h_scale}}) {
    if (!std::isfinite(value) || value == 0) {
      return Status::Error(std::string("postprocess: ") + name + " must be a finite number other than 0");
    }
  }
  if (!std::isfinite(d.min_score_thresh) || !(o.nms.min_suppression_threshold >= 0 &&
                                              o.nms.min_suppression_threshold <= 1)) {
    return Status::Error("postprocess: min_score_thresh must be finite and min_suppression_threshold from 0 to 1");
  }
  if (auto anchors = GenerateSsdAnchors(a); !anchors.ok()) return anchors.status();
  return o;
}

std::vector<Detection> DecodeSsdBoxes(const std::vector<double>& regressors, const std::vector<double>& scores,
                                      const std::vector<Anchor>& anchors, const SsdDecodeOptions& o) {
  std::vector<Detection> detections;
  for (size_t i = 0; i < anchors.size(); ++i) {
    double score = scores[i];
    if (o.sigmoid_score) {
      if (o.score_clipping_thresh > 0) score = std::clamp(score, -o.score_clipping_thresh, o.score_clipping_thresh);
      score = 1.0 / (1.0 + std::exp(-score));
    }
    if (!(score >= o.min_score_thresh)) continue;
    const double* raw = regressors.data() + i * static_cast<size_t>(o.num_coords);
    const Anchor& anchor = anchors[i];
    const double* box = raw + o.box_coord_offset;
    double x = box[1], y = box[0], w = box[3], h = box[2];
    if (o.reverse_output_order) {
      x = box[0];
      y = box[1];
      w = box[2];
      h = box[3];
    }
    x = x / o.x_scale * anchor.width + anchor.x_center;
    y = y / o.y_scale * anchor.height + anchor.y_center;
    if (o.apply_exponential_on_box_size) {
      w = std::exp(w / o.w_scale) * anchor.width;
      h = std::exp(h / o.h_scale) * anchor.height;
    } else {
      w = w / o.w_scale * anchor.width;
      h = h / o.h_scale * anchor.height;
    }
    // A negative size is no box (MediaPipe drops such detections too).
    if (!(w >= 0) || !(h >= 0)) continue;
    Detection d;
    d.left = x - w / 2;
    d.right = x + w / 2;
    d.top = y - h / 2;
    d.bottom = y + h / 2;
    d.score = score;
    for (int k = 0; k < o.num_keypoints; ++k) {
      const double* point = raw + o.keypoint_coord_offset + k * o.num_values_per_keypoint;
      const double kx = o.reverse_output_order ? point[0] : point[1];
      const double ky = o.reverse_output_order ? point[1] : point[0];
      d.keypoints.push_back(kx / o.x_scale * anchor.width + anchor.x_center);
      d.keypoints.push_back(ky / o.y_scale * anchor.height + anchor.y_center);
    }
    detections.push_back(std::move(d));
  }
  return detections;
}

std::vector<Tensor> DetectionTensors(const std::vector<Detection>& detections, int width, int height,
                                     int num_keypoints) {
  const int64_t n = static_cast<int64_t>(detections.size());
  Tensor boxes{kDetectionBoxes, DType::kFloat32, {n, 4}, {}};
  Tensor scores{kDetectionScores, DType::kFloat32, {n}, {}};
  Tensor keypoints{kDetectionKeypoints, DType::kFloat32, {n, num_keypoints, 2}, {}};
  boxes.data.resize(static_cast<size_t>(n) * 4 * sizeof(float));
  scores.data.resize(static_cast<size_t>(n) * sizeof(float));
  keypoints.data.resize(static_cast<size_t>(n * num_keypoints) * 2 * sizeof(float));
  for (int64_t i = 0; i < n; ++i) {
    const Detection& d = detections[static_cast<size_t>(i)];
    float* box = boxes.as<float>() + i * 4;
    box[0] = static_cast<float>(d.left * width);
    box[1] = static_cast<float>(d.top * height);
    box[2] = static_cast<float>(d.right * width);
    box[3] = static_cast<float>(d.bottom * height);
    scores.as<float>()[i] = static_cast<float>(d.score);
    for (int64_t k = 0; k < num_keypoints * 2; ++k) {
      keypoints.as<float>()[i * num_keypoints * 2 + k] =
          static_cast<size_t>(k) < d.keypoints.size() ? static_cast<float>(d.keypoints[static_cast<size_t>(k)]) : 0.0f;
    }
  }
  return {std::move(boxes), std::move(scores), std::move(keypoints)};
}

Result<std::vector<Detection>> SsdDetectionsOf(const std::vector<Tensor>& outputs, const SsdDetectionsOptions& o,
                                               const std::vector<Anchor>& anchors) {
  const int64_t boxes = static_cast<int64_t>(anchors.size());
  const Tensor* regressors = Find(outputs, o.regressors);
  const Tensor* classificators = Find(outputs, o.classificators);
  const std::string preset = o.preset.empty() ? "" : " (postprocess preset " + o.preset + ")";
  if (!regressors || !classificators) {
    return Status::Error("the SSD postprocess" + preset + " needs outputs '" + o.regressors + "' and '" +
                         o.classificators + "'; the artifact's outputs are " + Names(outputs) +
                         " (map them in the manifest's \"outputs\")");
  }
  const std::vector<int64_t> want_regressors = {1, boxes, o.decode.num_coords};
  const std::vector<int64_t> want_scores = {1, boxes, 1};
  if (ElementCount(regressors->shape) != ElementCount(want_regressors) ||
      ElementCount(classificators->shape) != ElementCount(want_scores)) {
    return Status::Error("the SSD postprocess" + preset + " expects '" + o.regressors + "' " +
                         ShapeToString(want_regressors) + " and '" + o.classificators + "' " +
                         ShapeToString(want_scores) + " for its " + std::to_string(boxes) + " anchors, but has " +
                         ShapeToString(regressors->shape) + " and " + ShapeToString(classificators->shape));
  }
  auto reg = TensorValues(*regressors);
  if (!reg.ok()) return reg.status();
  auto cls = TensorValues(*classificators);
  if (!cls.ok()) return cls.status();
  std::vector<Detection> decoded = DecodeSsdBoxes(reg.value(), cls.value(), anchors, o.decode);
  return NonMaxSuppression(std::move(decoded), o.nms);
}

Result<std::vector<Tensor>> SsdDetectionsFromOutputs(const std::vector<Tensor>& outputs,
                                                     const SsdDetectionsOptions& o) {
  auto anchors = GenerateSsdAnchors(o.anchors);
  if (!anchors.ok()) return anchors.status();
  auto kept = SsdDetectionsOf(outputs, o, anchors.value());
  if (!kept.ok()) return kept.status();
  return DetectionTensors(kept.value(), o.anchors.input_width, o.anchors.input_height, o.decode.num_keypoints);
}

}  // namespace edgebench
