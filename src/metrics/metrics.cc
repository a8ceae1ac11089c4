#include "metrics/metrics.h"

namespace edgebench {
namespace {

using Value = std::optional<double>;

Value Ms(const std::optional<int64_t>& ns) { return ns ? Value(static_cast<double>(*ns) / 1e6) : std::nullopt; }
bool HasLatency(const Record& r) { return r.summary.count > 0; }

Value Queries(const Record& r) { return HasLatency(r) ? Value(static_cast<double>(r.summary.count)) : std::nullopt; }
Value Percentile(const Record& r, double p) { return HasLatency(r) ? Ms(r.summary.Percentile(p)) : std::nullopt; }
Value P50(const Record& r) { return Percentile(r, 0.50); }
Value P90(const Record& r) { return Percentile(r, 0.90); }
Value P99(const Record& r) { return Percentile(r, 0.99); }
Value Mean(const Record& r) { return HasLatency(r) ? Value(r.summary.mean_ns / 1e6) : std::nullopt; }
Value Throughput(const Record& r) { return HasLatency(r) ? Value(r.summary.throughput_qps) : std::nullopt; }
Value AchievedRate(const Record& r) {
  return r.load && r.load->server ? Value(r.load->server->achieved_qps) : std::nullopt;
}
const CameraSummary* Camera(const Record& r) { return r.load && r.load->camera ? &*r.load->camera : nullptr; }
Value DroppedFrames(const Record& r) { return Camera(r) ? Value(Camera(r)->dropped_fraction) : std::nullopt; }
Value LateFrames(const Record& r) { return Camera(r) ? Value(Camera(r)->late_fraction) : std::nullopt; }
Value SlowestCameraFps(const Record& r) { return Camera(r) ? Value(Camera(r)->slowest_stream_fps) : std::nullopt; }
Value SamplesPerSecond(const Record& r) {
  return r.load && r.load->samples_per_s > 0 ? Value(r.load->samples_per_s) : std::nullopt;
}

const MonitorDerived* Derived(const Record& r) { return r.monitor ? &r.monitor->derived : nullptr; }
Value EnergyPerQuery(const Record& r) { return Derived(r) ? Derived(r)->energy.per_query_mj : std::nullopt; }
Value EnergyPerToken(const Record& r) { return Derived(r) ? Derived(r)->energy.per_token_mj : std::nullopt; }
Value MeanPower(const Record& r) { return Derived(r) ? Derived(r)->energy.mean_power_mw : std::nullopt; }
Value PeakPower(const Record& r) { return Derived(r) ? Derived(r)->energy.peak_power_mw : std::nullopt; }
// The monitor's peak; a language model's own reading when the monitor has none.
Value PeakRss(const Record& r) {
  if (Derived(r) && Derived(r)->memory.peak_rss_bytes) {
    return static_cast<double>(*Derived(r)->memory.peak_rss_bytes) / (1 << 20);
  }
  if (r.llm && r.llm->rss_peak_bytes > 0) return static_cast<double>(r.llm->rss_peak_bytes) / (1 << 20);
  return std::nullopt;
}

const Proportion* Top1(const Record& r) {
  return r.accuracy && r.accuracy->top1_accuracy.trials > 0 ? &r.accuracy->top1_accuracy : nullptr;
}
Value Top1Value(const Record& r) { return Top1(r) ? Value(Top1(r)->value) : std::nullopt; }
Value Top1Low(const Record& r) { return Top1(r) ? Value(Top1(r)->low) : std::nullopt; }
Value Top1High(const Record& r) { return Top1(r) ? Value(Top1(r)->high) : std::nullopt; }
Value Images(const Record& r) { return Top1(r) ? Value(static_cast<double>(Top1(r)->trials)) : std::nullopt; }
Value Top5(const Record& r) {
  return r.accuracy && r.accuracy->top5_accuracy && r.accuracy->top5_accuracy->trials > 0
             ? Value(r.accuracy->top5_accuracy->value)
             : std::nullopt;
}

// A GGUF candidate's drift from its reference's next-token distributions.
const TokenDriftSummary* TokenDrift(const Record& r) {
  return r.token_drift && r.token_drift->drift && r.token_drift->drift->positions > 0 ? &*r.token_drift->drift : nullptr;
}
Value MeanKld(const Record& r) { return TokenDrift(r) ? Value(TokenDrift(r)->mean_kld.value) : std::nullopt; }
Value SameTop(const Record& r) { return TokenDrift(r) ? Value(TokenDrift(r)->same_top.value) : std::nullopt; }

Value Ttft(const Record& r, double p) {
  return r.llm && r.llm->summary.ttft.count > 0 ? Ms(r.llm->summary.ttft.Percentile(p)) : std::nullopt;
}
Value TtftP50(const Record& r) { return Ttft(r, 0.50); }
Value TtftP99(const Record& r) { return Ttft(r, 0.99); }
Value TpotP50(const Record& r) {
  return r.llm && r.llm->summary.tpot.count > 0 ? Ms(r.llm->summary.tpot.Percentile(0.50)) : std::nullopt;
}
Value TpotP99(const Record& r) {
  return r.llm && r.llm->summary.tpot.count > 0 ? Ms(r.llm->summary.tpot.Percentile(0.99)) : std::nullopt;
}
Value ItlP99(const Record& r) {
  return r.llm && r.llm->summary.itl.count > 0 ? Ms(r.llm->summary.itl.Percentile(0.99)) : std::nullopt;
}
Value PrefillTokensPerSecond(const Record& r) {
  return r.llm && r.llm->summary.prefill_tokens_per_s > 0 ? Value(r.llm->summary.prefill_tokens_per_s) : std::nullopt;
}
Value TokensPerSecond(const Record& r) {
  return r.llm && r.llm->summary.wall_ns > 0 && r.llm->summary.output_tokens > 0
             ? Value(r.llm->summary.aggregate_tokens_per_s)
             : std::nullopt;
}
// Requests per second that met the SLO; only with an SLO.
Value Goodput(const Record& r) {
  return r.llm && r.llm->settings.slo.set() && r.llm->summary.requests > 0 ? Value(r.llm->summary.goodput_rps)
                                                                            : std::nullopt;
}

// Vision-language requests' stages (docs/vlm.md): medians across requests.
const VlmSummary* Vision(const Record& r) {
  return r.llm && r.llm->summary.vision && r.llm->summary.vision->requests > 0 ? &*r.llm->summary.vision : nullptr;
}
Value VisionPreprocessP50(const Record& r) { return Vision(r) ? Ms(Vision(r)->preprocess.Percentile(0.50)) : std::nullopt; }
Value VisionEncodeP50(const Record& r) { return Vision(r) ? Ms(Vision(r)->encode.Percentile(0.50)) : std::nullopt; }
Value VisionImagePrefillP50(const Record& r) {
  return Vision(r) ? Ms(Vision(r)->image_prefill.Percentile(0.50)) : std::nullopt;
}
Value VisionTextPrefillP50(const Record& r) {
  return Vision(r) ? Ms(Vision(r)->text_prefill.Percentile(0.50)) : std::nullopt;
}
Value ImageTokensPerImage(const Record& r) { return Vision(r) ? Value(Vision(r)->image_tokens_per_image) : std::nullopt; }

// The roofline (docs/roofline.md): decode against the memory roof, prefill's compute rate.
const LlmRoofline* DecodeRoofline(const Record& r) {
  return r.llm && r.llm->roofline.computed() && r.llm->roofline.decode_omitted.empty() ? &r.llm->roofline : nullptr;
}
Value DecodeRooflineShare(const Record& r) { return DecodeRoofline(r) ? Value(DecodeRoofline(r)->decode_share) : std::nullopt; }
Value DecodeGigabytesPerSecond(const Record& r) {
  return DecodeRoofline(r) ? Value(DecodeRoofline(r)->decode_gb_per_s) : std::nullopt;
}
// A tensor model against its roofs: the binding roof's share, the runtime's own peak's share, the
// achieved rate.
const TensorRoofline* TensorRooflineOf(const Record& r) {
  return !r.llm && r.work && r.tensor_roofline.computed() ? &r.tensor_roofline : nullptr;
}
Value TensorRooflineShare(const Record& r) { return TensorRooflineOf(r) ? Value(TensorRooflineOf(r)->share) : std::nullopt; }
Value ComputePeakShare(const Record& r) {
  const TensorRoofline* roofline = TensorRooflineOf(r);
  return roofline && roofline->compute_peak_gflops > 0 ? Value(roofline->compute_share) : std::nullopt;
}
Value AchievedGigaflops(const Record& r) {
  return TensorRooflineOf(r) ? Value(TensorRooflineOf(r)->achieved_gflops) : std::nullopt;
}
Value PrefillGigaflops(const Record& r) {
  return r.llm && r.llm->roofline.computed() && r.llm->roofline.prefill_gflops > 0 ? Value(r.llm->roofline.prefill_gflops)
                                                                                  : std::nullopt;
}

using U = FlatUnit;
using D = Direction;
using S = MetricSource;

}  // namespace

std::string FlatUnitName(FlatUnit unit) {
  switch (unit) {
    case FlatUnit::kText: return "text";
    case FlatUnit::kCount: return "count";
    case FlatUnit::kFlag: return "flag";
    case FlatUnit::kMilliseconds: return "ms";
    case FlatUnit::kMillijoules: return "mJ";
    case FlatUnit::kMilliwatts: return "mW";
    case FlatUnit::kMebibytes: return "MiB";
    case FlatUnit::kFraction: return "fraction";
    case FlatUnit::kPerSecond: return "1/s";
    case FlatUnit::kNats: return "nats";
    case FlatUnit::kGigabytesPerSecond: return "GB/s";
    case FlatUnit::kGigaflopsPerSecond: return "GFLOP/s";
  }
  return "text";
}

const std::vector<Metric>& Metrics() {
  static const std::vector<Metric> metrics = {
      {"queries", "queries", U::kCount, D::kHigher, S::kLatency, 0, "measured queries", Queries},
      {"p50_ms", "p50 (ms)", U::kMilliseconds, D::kLower, S::kLatency, 0.50, "median latency", P50},
      {"p90_ms", "p90 (ms)", U::kMilliseconds, D::kLower, S::kLatency, 0.90, "90th percentile latency", P90},
      {"p99_ms", "p99 (ms)", U::kMilliseconds, D::kLower, S::kLatency, 0.99,
       "99th percentile latency (null when too few queries)", P99},
      {"mean_ms", "mean (ms)", U::kMilliseconds, D::kLower, S::kLatency, 0, "mean latency", Mean},
      {"throughput_qps", "throughput (q/s)", U::kPerSecond, D::kHigher, S::kLatency, 0,
       "measured queries / wall time of the measured phase", Throughput},
      {"achieved_qps", "achieved (q/s)", U::kPerSecond, D::kHigher, S::kLoad, 0,
       "server: issued queries / time to the last actual start", AchievedRate},
      {"dropped_frames", "dropped (%)", U::kFraction, D::kLower, S::kLoad, 0,
       "camera: frames dropped unrun / frames delivered, all streams", DroppedFrames},
      {"late_frames", "late (%)", U::kFraction, D::kLower, S::kLoad, 0,
       "camera: frames completed after the next frame's arrival / frames processed", LateFrames},
      {"slowest_stream_fps", "slowest fps", U::kPerSecond, D::kHigher, S::kLoad, 0,
       "camera: the lowest sustained frame rate of a stream (frames processed / wall time)", SlowestCameraFps},
      {"samples_per_s", "samples/s", U::kPerSecond, D::kHigher, S::kLoad, 0, "offline: queries x batch / wall time",
       SamplesPerSecond},
      {"energy_mj_per_query", "energy (mJ/q)", U::kMillijoules, D::kLower, S::kMonitor, 0,
       "device energy over the measured phase per query (per request for LLMs)", EnergyPerQuery},
      {"energy_mj_per_token", "energy (mJ/tok)", U::kMillijoules, D::kLower, S::kMonitor, 0,
       "llm: device energy over the measured phase per generated token", EnergyPerToken},
      {"mean_power_mw", "mean power (mW)", U::kMilliwatts, D::kLower, S::kMonitor, 0,
       "mean device power over the measured phase", MeanPower},
      {"peak_power_mw", "peak power (mW)", U::kMilliwatts, D::kLower, S::kMonitor, 0,
       "peak device power over the measured phase", PeakPower},
      {"peak_rss_mib", "peak RSS (MiB)", U::kMebibytes, D::kLower, S::kMonitor, 0,
       "peak resident memory of the worker", PeakRss},
      {"top1", "top-1 (%)", U::kFraction, D::kHigher, S::kAccuracy, 0, "accuracy: top-1 accuracy", Top1Value},
      {"top1_ci_low", "top-1 CI low", U::kFraction, D::kHigher, S::kAccuracy, 0,
       "accuracy: top-1's 95% Wilson interval, low end", Top1Low},
      {"top1_ci_high", "top-1 CI high", U::kFraction, D::kHigher, S::kAccuracy, 0,
       "accuracy: top-1's 95% Wilson interval, high end", Top1High},
      {"top5", "top-5 (%)", U::kFraction, D::kHigher, S::kAccuracy, 0, "accuracy: top-5 accuracy (null under 5 classes)",
       Top5},
      {"images", "images", U::kCount, D::kHigher, S::kAccuracy, 0, "accuracy: images scored", Images},
      {"mean_kld", "mean KLD (nats)", U::kNats, D::kLower, S::kDrift, 0,
       "drift of a GGUF candidate: mean KL divergence of its next-token distributions from the reference's (nats)",
       MeanKld},
      {"same_top", "same top (%)", U::kFraction, D::kHigher, S::kDrift, 0,
       "drift of a GGUF candidate: share of positions whose most likely next token is the reference's", SameTop},
      {"ttft_p50_ms", "TTFT p50 (ms)", U::kMilliseconds, D::kLower, S::kLanguageModel, 0,
       "llm: median time to first token", TtftP50},
      {"ttft_p99_ms", "TTFT p99 (ms)", U::kMilliseconds, D::kLower, S::kLanguageModel, 0,
       "llm: 99th percentile time to first token", TtftP99},
      {"tpot_p50_ms", "TPOT p50 (ms)", U::kMilliseconds, D::kLower, S::kLanguageModel, 0,
       "llm: median time per output token (per request)", TpotP50},
      {"tpot_p99_ms", "TPOT p99 (ms)", U::kMilliseconds, D::kLower, S::kLanguageModel, 0,
       "llm: 99th percentile time per output token (per request)", TpotP99},
      {"itl_p99_ms", "ITL p99 (ms)", U::kMilliseconds, D::kLower, S::kLanguageModel, 0,
       "llm: 99th percentile inter-token latency", ItlP99},
      {"prefill_tokens_per_s", "prefill (tok/s)", U::kPerSecond, D::kHigher, S::kLanguageModel, 0,
       "llm: prompt tokens / prefill time", PrefillTokensPerSecond},
      {"tokens_per_s", "tokens/s", U::kPerSecond, D::kHigher, S::kLanguageModel, 0,
       "llm: generated tokens / wall time (all sequences)", TokensPerSecond},
      {"goodput_rps", "goodput (req/s)", U::kPerSecond, D::kHigher, S::kLanguageModel, 0,
       "llm: requests per second that met the --slo (null without one)", Goodput},
      {"image_tokens", "image tokens", U::kCount, D::kLower, S::kLanguageModel, 0,
       "llm with --image: tokens each image puts in the context (mean over requests)", ImageTokensPerImage},
      {"preprocess_p50_ms", "preprocess p50 (ms)", U::kMilliseconds, D::kLower, S::kLanguageModel, 0,
       "llm with --image: median pre-processing (images decoded, resized, sliced; text tokenized)",
       VisionPreprocessP50},
      {"encode_p50_ms", "encode p50 (ms)", U::kMilliseconds, D::kLower, S::kLanguageModel, 0,
       "llm with --image: median vision-tower time per request (every image)", VisionEncodeP50},
      {"image_prefill_p50_ms", "image prefill p50 (ms)", U::kMilliseconds, D::kLower, S::kLanguageModel, 0,
       "llm with --image: median time decoding the image embeddings into the context", VisionImagePrefillP50},
      {"text_prefill_p50_ms", "text prefill p50 (ms)", U::kMilliseconds, D::kLower, S::kLanguageModel, 0,
       "llm with --image: median time decoding the text tokens up to the first token", VisionTextPrefillP50},
      {"roofline", "roofline (%)", U::kFraction, D::kHigher, S::kLatency, 0,
       "a tensor model's operations per query x queries/s over the roof that binds at its intensity: its runtime's "
       "own matrix-product peak, or intensity x memory bandwidth",
       TensorRooflineShare},
      {"compute_peak_share", "of peak (%)", U::kFraction, D::kHigher, S::kLatency, 0,
       "a tensor model's achieved GFLOP/s over its runtime's own matrix-product peak at the model's precision",
       ComputePeakShare},
      {"achieved_gflops", "achieved (GFLOP/s)", U::kGigaflopsPerSecond, D::kHigher, S::kLatency, 0,
       "a tensor model's operations per query (counted from its graph at the bound shapes) x queries/s",
       AchievedGigaflops},
      {"decode_roofline", "decode roofline (%)", U::kFraction, D::kHigher, S::kLanguageModel, 0,
       "llm: the decode step's floor (the bytes it reads over the machine's memory bandwidth) / the median TPOT",
       DecodeRooflineShare},
      {"decode_gb_per_s", "decode (GB/s)", U::kGigabytesPerSecond, D::kHigher, S::kLanguageModel, 0,
       "llm: bytes a decode step reads (weights once, KV at the mean depth per sequence) / the median TPOT",
       DecodeGigabytesPerSecond},
      {"prefill_gflops", "prefill (GFLOP/s)", U::kGigaflopsPerSecond, D::kHigher, S::kLanguageModel, 0,
       "llm: a prompt token's operations (2 per weight multiplied, attention at the mean depth) x prefill tokens/s",
       PrefillGigaflops},
  };
  return metrics;
}

const std::vector<MetricAlias>& MetricAliases() {
  static const std::vector<MetricAlias> aliases = {
      {"p50", "p50_ms"},          {"p90", "p90_ms"},               {"p99", "p99_ms"},
      {"mean", "mean_ms"},        {"latency", "p50_ms"},           {"energy", "energy_mj_per_query"},
      {"power", "mean_power_mw"}, {"peak_power", "peak_power_mw"}, {"memory", "peak_rss_mib"},
      {"rss", "peak_rss_mib"},    {"accuracy", "top1"},            {"throughput", "throughput_qps"},
      {"qps", "throughput_qps"},  {"ttft", "ttft_p50_ms"},         {"tpot", "tpot_p50_ms"},
      {"tokens", "tokens_per_s"},
  };
  return aliases;
}

const Metric* FindMetric(std::string_view name) {
  for (const MetricAlias& alias : MetricAliases()) {
    if (name == alias.alias) name = alias.metric;
  }
  for (const Metric& metric : Metrics()) {
    if (name == metric.name) return &metric;
  }
  return nullptr;
}

std::optional<double> MetricValue(std::string_view name, const Record& record) {
  const Metric* metric = FindMetric(name);
  return metric ? metric->value(record) : std::nullopt;
}

}  // namespace edgebench
