#include "worker/pipeline_case.h"

#include "core/bounded_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>

#include "core/clock.h"
#include "core/placement.h"
#include "core/process_memory.h"
#include "core/strings.h"
#include "pipeline/diffusion_inputs.h"
#include "pipeline/host_stages.h"
#include "worker/diffusion_case.h"
#include "plan/pipeline_file.h"
#include "plan/resolve_target.h"
#include "stats/summary.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

// What the stage before gives a model must be what the model was prepared for: a runtime that
// reads raw bytes would otherwise run on a wrong layout without a word.
class CheckedModelStage final : public Stage {
 public:
  CheckedModelStage(std::string name, Session* session, std::vector<OutputMapping> outputs,
                    std::vector<std::vector<int64_t>> shapes)
      : inner_(name, session, std::move(outputs)), session_(session), shapes_(std::move(shapes)) {}
  const std::string& name() const override { return inner_.name(); }
  StageKind kind() const override { return StageKind::kModel; }
  Status Run(const std::vector<Tensor>& in, const Frame& frame, std::vector<StageItem>& out) override {
    const Signature& signature = session_->signature();
    if (in.size() != signature.inputs.size()) {
      return Status::Error("the model takes " + std::to_string(signature.inputs.size()) + " inputs; the stage before gives " +
                           std::to_string(in.size()));
    }
    for (size_t i = 0; i < in.size(); ++i) {
      if (in[i].dtype != signature.inputs[i].dtype || in[i].shape != shapes_[i]) {
        return Status::Error("input '" + signature.inputs[i].name + "' is " + DTypeName(signature.inputs[i].dtype) + " " +
                             ShapeToString(shapes_[i]) + " but the stage before gives " + DTypeName(in[i].dtype) + " " +
                             ShapeToString(in[i].shape) +
                             " (set the preprocess's resize and layout to the model's input)");
      }
    }
    return inner_.Run(in, frame, out);
  }

 private:
  ModelStage inner_;
  Session* session_;
  std::vector<std::vector<int64_t>> shapes_;
};

Result<std::unique_ptr<Stage>> HostStage(const PipelinePlanStage& stage) {
  const std::string& name = stage.name;
  const std::string& kind = stage.kind;
  if (kind == "decode_image") return MakeDecodeImageStage(name);
  if (kind == "preprocess" || kind == "crop") {
    auto preprocess = ParseImagePreprocess(stage.preprocess);
    if (!preprocess.ok()) return preprocess.status();
    if (kind == "preprocess") return MakePreprocessStage(name, preprocess.take());
    return MakeCropStage(name, preprocess.take(), stage.max_detections);
  }
  if (kind == "ssd_detections") {
    auto options = ParseSsdDetectionsOptions(stage.postprocess);
    if (!options.ok()) return options.status();
    return MakeSsdDetectionsStage(name, options.take());
  }
  if (kind == "top_k") return MakeTopKStage(name, stage.k);
  return Status::Error("unknown stage kind '" + kind + "'");
}

double Mean(const std::vector<int64_t>& v) {
  if (v.empty()) return 0;
  return static_cast<double>(std::accumulate(v.begin(), v.end(), int64_t{0})) / static_cast<double>(v.size());
}

}  // namespace

PipelineRecord SummarizePipelineStages(const PipelineSystem& system, int64_t measured_start_ns, int64_t measured_end_ns,
                                       double end_to_end_mean_ns) {
  PipelineRecord p;
  const size_t stages = system.stage_names().size();
  double shares = 0;
  for (size_t s = 0; s < stages; ++s) {
    PipelineStageRecord stage;
    stage.name = system.stage_names()[s];
    std::vector<int64_t> ns, cpu;
    int64_t calls = 0;
    int32_t min_calls = std::numeric_limits<int32_t>::max(), max_calls = 0;
    for (int lane = 0; lane < system.lanes(); ++lane) {
      const LaneStageTimes& t = system.times(lane);
      if (s == 0) p.untimed_queries += t.untimed_queries;
      if (lane == 0 && !t.stage_ns[s].empty()) stage.first_run_ns = t.stage_ns[s].front();
      for (size_t q = 0; q < t.query_start_ns.size(); ++q) {
        if (t.query_start_ns[q] < measured_start_ns || t.query_start_ns[q] >= measured_end_ns) continue;
        ns.push_back(t.stage_ns[s][q]);
        const int32_t c = t.stage_calls[s][q];
        calls += c;
        min_calls = std::min(min_calls, c);
        max_calls = std::max(max_calls, c);
        if (q < t.stage_cpu_ns[s].size()) cpu.push_back(t.stage_cpu_ns[s][q]);
      }
    }
    stage.queries = static_cast<int64_t>(ns.size());
    stage.calls = calls;
    stage.min_calls = ns.empty() ? 0 : min_calls;
    stage.max_calls = max_calls;
    stage.mean_ns = Mean(ns);
    if (system.stage_kinds()[s] == StageKind::kHost && !cpu.empty()) stage.cpu_mean_ns = Mean(cpu);
    std::sort(ns.begin(), ns.end());
    stage.p50_ns = NearestRankPercentile(ns, 0.50);
    stage.p90_ns = NearestRankPercentile(ns, 0.90);
    stage.p99_ns = NearestRankPercentile(ns, 0.99);
    stage.max_ns = ns.empty() ? 0 : ns.back();
    stage.share = end_to_end_mean_ns > 0 ? stage.mean_ns / end_to_end_mean_ns : 0;
    shares += stage.share;
    p.stages.push_back(std::move(stage));
  }
  p.harness_share = end_to_end_mean_ns > 0 ? 1 - shares : 0;
  for (int lane = 0; lane < system.lanes(); ++lane) {
    const LaneStageTimes& t = system.times(lane);
    size_t kept = 0;
    for (size_t q = 0; q < t.query_start_ns.size() && kept < kPipelineTimelineQueries; ++q) {
      if (t.query_start_ns[q] < measured_start_ns || t.query_start_ns[q] >= measured_end_ns) continue;
      PipelineQueryTimeline query{lane, t.query_start_ns[q] - measured_start_ns, {}};
      for (size_t s = 0; s < stages; ++s) query.stage_ns.push_back(t.stage_ns[s][q]);
      p.timeline.push_back(std::move(query));
      ++kept;
    }
  }
  return p;
}

Result<Tensor> ReadPipelineInput(const std::string& path) {
  // Bounded and regular before anything is read: a 4 GiB file was read whole before the image's
  // size was checked, and a FIFO blocked the worker until the case's timeout.
  auto read = ReadBoundedTextFile(path, kMaxPipelineInputBytes, "the pipeline's input");
  if (!read.ok()) return read.status();
  const std::string& bytes = read.value();
  if (bytes.empty()) return Status::Error("the pipeline's input '" + path + "' is empty");
  Tensor encoded{"image_file", DType::kUInt8, {static_cast<int64_t>(bytes.size())}, {}};
  encoded.data.resize(bytes.size());
  std::memcpy(encoded.data.data(), bytes.data(), bytes.size());
  return encoded;
}

Status LoadPipelineModels(const PipelinePlan& pipeline, Registry& registry, int lanes, BuiltPipeline& built) {
  built.lanes = static_cast<size_t>(lanes);
  for (size_t s = 0; s < pipeline.stages.size(); ++s) {
    const PipelinePlanStage& st = pipeline.stages[s];
    if (!IsModelStageKind(st.kind)) continue;
    const std::string& name = st.name;
    const TargetResolution resolution = ResolveTarget(st.target, registry, SessionKind::kTensor);
    if (!resolution.resolved) {
      built.failure = resolution.status;
      built.failed_stage = "target";
      return Status::Error("stage '" + name + "': " + resolution.error);
    }
    PipelineModel model;
    model.stage = s;
    model.name = name;
    model.resolved = *resolution.resolved;
    model.artifact = st.artifact;
    model.outputs = st.outputs;
    const int64_t rss_before = ReadProcessMemory().rss_bytes;
    for (int lane = 0; lane < lanes; ++lane) {
      auto session = model.resolved.backend->Load(Artifact{model.artifact}, model.resolved.target);
      if (!session.ok()) return Status::Error("stage '" + name + "': " + session.error());
      model.sessions.push_back(session.take());
    }
    model.load_rss_bytes = ReadProcessMemory().rss_bytes - rss_before;
    built.models.push_back(std::move(model));
  }
  return Status::Ok();
}

Status PreparePipeline(const PipelinePlan& pipeline, BuiltPipeline& built, std::vector<std::string>& notes) {
  if (pipeline.diffusion) return PrepareDiffusion(pipeline, *pipeline.diffusion, built);
  const size_t lanes = built.lanes;
  for (PipelineModel& model : built.models) {
    const Signature& signature = model.sessions.front()->signature();
    std::vector<std::string> defaulted;
    auto shapes = ResolveInputShapes(signature, {}, &defaulted);
    if (!shapes.ok()) return Status::Error("stage '" + model.name + "': " + shapes.error());
    if (!defaulted.empty()) notes.push_back("stage '" + model.name + "': free dimensions bound to 1: " + Join(defaulted, ", "));
    model.input_shapes = shapes.take();
    for (const auto& session : model.sessions) {
      if (Status prepared = session->Prepare(model.input_shapes); !prepared.ok()) {
        return Status::Error("stage '" + model.name + "': " + prepared.message());
      }
    }
  }
  built.stages.clear();
  built.stages.resize(lanes);
  for (size_t lane = 0; lane < lanes; ++lane) {
    size_t model = 0;
    for (const PipelinePlanStage& st : pipeline.stages) {
      if (st.kind == "model") {
        const PipelineModel& m = built.models[model++];
        built.stages[lane].push_back(
            std::make_unique<CheckedModelStage>(m.name, m.sessions[lane].get(), m.outputs, m.input_shapes));
        continue;
      }
      auto host = HostStage(st);
      if (!host.ok()) return Status::Error("stage '" + st.name + "': " + host.error());
      built.stages[lane].push_back(host.take());
    }
  }
  return Status::Ok();
}

PipelineOnce RunPipelineOnce(const PipelinePlan& pipeline, Registry& registry) {
  PipelineOnce once;
  const auto fail = [&](CaseStatus status, const std::string& stage, const std::string& error) {
    once.status = status;
    once.stage = stage;
    once.error = error;
    return once;
  };
  BuiltPipeline built;
  if (Status loaded = LoadPipelineModels(pipeline, registry, 1, built); !loaded.ok()) {
    return fail(built.failure, built.failed_stage, loaded.message());
  }
  std::vector<std::string> effective;
  for (PipelineModel& model : built.models) {
    model.effective_target = EffectiveTarget(model.resolved.target, model.sessions.front()->effective_options());
    effective.push_back(model.name + "=" + model.effective_target);
  }
  once.effective_target = Join(effective, ",");
  std::vector<Tensor> input;
  std::optional<DiffusionSettings> diffusion;
  if (pipeline.diffusion) {
    diffusion = pipeline.diffusion;
    input = DiffusionQueryInput(*diffusion);
  } else {
    auto encoded = ReadPipelineInput(pipeline.input);
    if (!encoded.ok()) return fail(CaseStatus::kFailed, "inputs", encoded.error());
    input.push_back(encoded.take());
  }
  std::vector<std::string> notes;
  if (Status prepared = PreparePipeline(pipeline, built, notes); !prepared.ok()) {
    return fail(CaseStatus::kFailed, "prepare", prepared.message());
  }
  PipelineSystem system(std::move(built.stages), {}, {}, diffusion ? DiffusionLoop(*diffusion) : PipelineLoop{});
  if (Status ran = system.IssueQuery(0, input, once.outputs); !ran.ok()) {
    return fail(CaseStatus::kFailed, "run", ran.message());
  }
  return once;
}

Record RunPipelineCase(Record r, const CaseSpec& spec, Scenario& scenario, Registry& registry,
                       const StageCallback& stage, RunObserver* observer) {
  const PipelinePlan& pipeline = *spec.pipeline;
  if (scenario.needs_concurrent_runs()) {
    return FailedRecord(r, CaseStatus::kFailed, "settings",
                        "--sessions shared: a pipeline runs a lane of its own stages per stream; use --sessions per-stream");
  }
  if (scenario.batch() > 0) {
    return FailedRecord(r, CaseStatus::kFailed, "settings",
                        "--batch binds one model's first axis; a pipeline's query is one image: leave --batch out");
  }
  const int lanes = std::max(1, scenario.sessions_needed());
  stage("load");
  const int64_t load_start = NowNs();
  BuiltPipeline built;
  const Status loaded = LoadPipelineModels(pipeline, registry, lanes, built);
  r.load_ns = NowNs() - load_start;
  if (!loaded.ok()) return FailedRecord(r, built.failure, built.failed_stage, loaded.message());
  std::vector<std::string> effective;
  for (PipelineModel& model : built.models) {
    const BackendInfo info = model.resolved.backend->Info();
    r.environment.runtimes[info.name] = info.runtime + " " + info.version;
    model.effective_target = EffectiveTarget(model.resolved.target, model.sessions.front()->effective_options());
    effective.push_back(model.name + "=" + model.effective_target);
    for (std::string& note : model.sessions.front()->notes()) r.notes.push_back("stage '" + model.name + "': " + note);
  }
  if (!effective.empty()) r.effective_target = Join(effective, ",");

  stage("inputs");
  const int64_t inputs_start = NowNs();
  std::optional<DiffusionSettings> diffusion;
  std::string input = pipeline.input;
  std::vector<std::vector<Tensor>> pool;
  if (pipeline.diffusion) {
    diffusion = pipeline.diffusion;
    pool.push_back(DiffusionQueryInput(*diffusion));
    input = "seeded prompt tokens and latents (seed " + std::to_string(diffusion->seed) + ")";
    for (const Tensor& t : pool.front()) r.inputs.push_back({t.name, DTypeName(t.dtype), t.shape, input});
  } else {
    auto encoded = ReadPipelineInput(input);
    if (!encoded.ok()) return FailedRecord(r, CaseStatus::kFailed, "inputs", encoded.error());
    r.inputs.push_back({"image_file", "uint8", encoded.value().shape, input});
    pool.push_back({encoded.take()});
  }
  r.inputs_ns = NowNs() - inputs_start;

  stage("prepare");
  const int64_t prepare_start = NowNs();
  const int64_t rss_before_prepare = ReadProcessMemory().rss_bytes;
  const Status prepared = PreparePipeline(pipeline, built, r.notes);
  r.prepare_ns = NowNs() - prepare_start;
  if (!prepared.ok()) return FailedRecord(r, CaseStatus::kFailed, "prepare", prepared.message());
  if (diffusion) {
    r.notes.push_back("stage 'prepare' added " +
                      std::to_string((ReadProcessMemory().rss_bytes - rss_before_prepare) >> 20) +
                      " MiB resident for all models' sessions");
  }
  PipelineSystem system(std::move(built.stages), {}, {}, diffusion ? DiffusionLoop(*diffusion) : PipelineLoop{});

  stage("run");
  ScenarioContext context;
  context.system = &system;
  context.input_pool = &pool;
  context.observer = observer;
  context.now = NowNs;
  ScenarioResult result = scenario.Run(context);
  for (const PipelineModel& model : built.models) {
    for (std::string& note : model.sessions.front()->notes()) {
      note = "stage '" + model.name + "': " + note;
      if (std::find(r.notes.begin(), r.notes.end(), note) == r.notes.end()) r.notes.push_back(std::move(note));
    }
  }
  if (std::optional<Record> failed = TakeScenarioResult(r, result)) return *failed;
  // The shares are of a query's service: its time in the pipeline, not its wait in a queue.
  const double end_to_end = !r.measured_service_ns.empty() ? Mean(r.measured_service_ns) : Mean(r.measured_ns);
  PipelineRecord section = SummarizePipelineStages(system, r.measured_start_ns, r.measured_start_ns + r.measured_wall_ns,
                                                   end_to_end);
  section.name = pipeline.name;
  section.file = pipeline.file;
  section.input = input;
  for (size_t s = 0; s < section.stages.size(); ++s) section.stages[s].kind = pipeline.stages[s].kind;
  for (const PipelineModel& model : built.models) {
    PipelineStageRecord& st = section.stages[model.stage];
    st.target = model.effective_target;
    st.artifact = model.artifact;
    const Placement placement = model.sessions.front()->GetPlacement();
    st.ran_on = PlacementText(placement, model.resolved.target.device);
    st.nodes_by_device = placement.nodes_by_device;
    st.load_rss_bytes = model.load_rss_bytes;
  }
  if (diffusion) {
    DiffusionRecord d;
    d.settings = DiffusionSettingsToJson(*diffusion);
    d.prompt = "seeded tokens (no tokenizer files offline): row 0 the empty prompt, row 1 BOS, " +
               std::to_string(kDiffusionPromptTokens) + " seeded token ids, EOS, padded to 77 with EOS";
    d.steps = SummarizeDiffusionSteps(system, r.measured_start_ns, r.measured_start_ns + r.measured_wall_ns);
    d.outputs = SummarizeDiffusionOutputs(system.first_outputs());
    const std::string& dir = pipeline.save_images;
    if (!dir.empty() && !system.first_outputs().empty()) {
      const std::string path = (std::filesystem::path(dir) / DiffusionImageName(section.name, spec.TargetText(), spec.scenario, spec.case_key)).string();
      if (Status written = WriteDiffusionImage(system.first_outputs().front(), path); written.ok()) {
        d.image_file = path;
      } else {
        d.image_errors.push_back(written.message());
      }
    }
    section.diffusion = std::move(d);
  }
  r.pipeline = std::move(section);
  FinishRecord(r);
  return r;
}

}  // namespace edgebench
