// What the device monitor adds to a record (docs/monitoring.md): the settings, the sampled
// series, and the figures derived from them (energy, memory growth, throttling, per-window
// state). The series are kept raw; the derived figures are recomputed from them whenever a
// record is finished or read (record/record.h FinishRecord), as the latency summary is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/memory_snapshot.h"
#include "record/leak_sites.h"
#include "core/sensor_channel.h"

namespace edgebench {

struct MonitorSettings {
  bool enabled = true;        // --no-monitor: false
  double sample_hz = 10;      // --sample-hz
  std::string sysfs_root = "/";  // --sysfs-root: where proc/ and sys/ are read
  // --max-growth-mb: memory growth projected over 10,000 queries above this is a leak.
  double max_growth_mb = 10;
  // --max-busy-share: other processes using more than this share of the cores during the
  // measured phase make the case INVALID (record/busy_machine.h); --allow-busy keeps it, labelled.
  double max_busy_share = 0.25;
  bool allow_busy = false;
  // --idle: sample the device this long with nothing running, before the model loads, for the
  // idle power that energy above idle subtracts (record/energy_phases.h). 0: none.
  int64_t idle_ms = 0;
  // --memory-map: the worker's smaps, grouped into classes, at each stage and phase boundary
  // (monitor/memory_map.h), and whether each model file's weights were mapped or copied.
  bool memory_map = false;
  // --leak-sites: the worker runs under heaptrack over its measured phase (runner/leak_sites_run.h);
  // the record lists the call stacks that grew (record/leak_sites.h). Its latencies are not kept
  // as valid: heaptrack traces every allocation.
  bool leak_sites = false;
};

// A phase or stage boundary, on the series' time axis.
struct MonitorMark {
  std::string name;   // "load", "prepare", "warmup", "measure", ...
  std::string event;  // "start" or "end"
  int64_t t_ns = 0;
};

// The samples of one case. Times are ns after `origin_ns` (the harness clock at the measured
// phase's start, so that they line up with query issue times and windows; samples taken
// before it, during load and warm-up, are negative).
struct MonitorSeries {
  int64_t origin_ns = 0;
  double effective_hz = 0;  // below sample_hz when a long run thinned its samples
  std::vector<Channel> channels;
  std::vector<ReaderStatus> readers;
  std::vector<ChannelFailure> failures;  // t_ns relative to origin_ns
  std::vector<MonitorMark> marks;
  std::vector<int64_t> t_ns;
  std::vector<std::vector<std::optional<double>>> values;  // [channel][sample]
};

// Energy over the measured phase, from one channel.
struct ChannelEnergy {
  std::string channel;
  std::optional<double> energy_mj;
  std::optional<double> mean_power_mw;
  std::optional<double> peak_power_mw;
  int wraps = 0;       // counter wraparounds undone
  std::string reason;  // why energy_mj is absent
  std::vector<std::string> notes;  // readings dropped as physically absurd (derive.h's bounds)
};

struct EnergyResult {
  std::vector<std::string> total_channels;  // what the device total adds up
  std::optional<double> energy_mj;          // the device total over the measured phase
  std::optional<double> mean_power_mw;
  std::optional<double> peak_power_mw;
  std::optional<double> per_query_mj;  // per measured query (per request, for language models)
  std::optional<double> per_token_mj;  // language models: per generated token
  std::string reason;                  // why the total is absent
  std::vector<ChannelEnergy> channels;
  // How it was measured (MLPerf Power's rules, docs/monitoring.md): only over the measured phase,
  // in the same run as the latencies, at this sampling rate, from these sensors.
  double sample_hz = 0;
  std::vector<std::string> sensors;  // "rapl.intel-rapl:0 (sys/class/powercap/..., 1 uJ counter)"
  // --idle: the device total's mean power over the idle window before the load, and the energy
  // the case spent above it.
  int64_t idle_ns = 0;
  std::optional<double> idle_power_mw;
  std::optional<double> above_idle_mj;
  std::optional<double> above_idle_per_query_mj;
  std::optional<double> above_idle_per_token_mj;
  std::string idle_reason;  // why there is no idle figure when --idle was given
  // Language models: the energy over the requests' prefills and over their decodes, per prompt
  // token and per decoded token (after the first, which prefill produced).
  std::optional<double> prefill_mj, decode_mj, prefill_per_token_mj, decode_per_token_mj;
  std::string split_reason;  // why there is no split
};

struct MemoryResult {
  std::optional<int64_t> peak_rss_bytes;  // VmHWM at the last sample
  std::optional<int64_t> rss_start_bytes, rss_end_bytes;  // at the measured phase's bounds
  // Least-squares slope of RSS against completed queries over the measured phase.
  std::optional<double> growth_bytes_per_query;
  double fit_r2 = 0;
  int fit_points = 0;
  double fit_queries = 0;  // queries the fit spans
  std::optional<double> projected_mb_per_10k_queries;
  bool leak = false;
  // Growth that would have been called a leak, on a case profiled with --profile: the runtime's
  // profiler keeps every event in memory, so the growth is not the model's to judge.
  bool profiler_growth = false;
  std::string explanation;  // the verdict and its numbers, or why there is none
};

struct ThrottleEvent {
  std::string kind;     // "frequency", "throttle_counter", "gpu_throttle", "trip_point"
  std::string channel;  // the channel that showed it
  int64_t start_ns = 0;  // on the series' axis (after the measured phase's start)
  int64_t end_ns = 0;
  std::string detail;
};

// The device's state over one window of the measured phase (the load section's windows).
struct MonitorWindow {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  std::optional<double> busy_frequency_khz;  // median over samples of the busy cores' median
  std::optional<double> max_temperature_mc;
  std::optional<double> mean_power_mw;  // of the device total
  std::optional<double> rss_end_bytes;
  std::optional<double> process_cpu_percent;  // mean
  int throttle_events = 0;  // events overlapping the window
};

// Whether others' work shared the machine (record/busy_machine.h): the measured phase's CPU, averaged over the sampling intervals that overlap it (each weighted
// by its overlap). Cores are counted in cores: 1.0 = one core busy for the whole phase.
struct BusyCheck {
  bool checked = false;
  std::string unchecked_reason;  // why there is no verdict (no CPU channels, too short a phase)
  int cores = 0;
  int samples = 0;                // sampling intervals that entered the averages
  double machine_cores = 0;       // every core's utilisation added up
  double worker_cores = 0;        // the worker's own CPU time per wall second
  double others_cores = 0;        // machine - worker, at least 0
  double others_share = 0;        // others_cores / cores
  int threads_asked = 0;          // the target's threads; 0: it stated none (not judged)
  double worker_share_of_asked = 0;  // worker_cores / min(threads_asked, cores)
  bool busy = false;              // others took more than max_busy_share of the cores
  bool starved = false;           // the worker got too little of what its threads asked for
  bool kept = false;              // busy or starved, and --allow-busy kept the run VALID
  std::string reason;             // the verdict with its figures, when busy or starved
};

// An accelerator's busy share over the measured phase, from its kDeviceBusy channel: how much of
// the time the device had work, as the device itself counts it (not how much of its compute).
struct DeviceBusyShare {
  std::string channel;  // "nvml0.busy", "card0.busy", "devfreq.fb000000.gpu.busy"
  std::string label;    // what the device calls itself
  int samples = 0;      // readings inside the measured phase
  double mean_percent = 0;
  double max_percent = 0;
};

// What a model file's weights became at load (--memory-map): mapped from the file, copied into
// anonymous memory, or both; from the snapshots before and after the load stage.
struct WeightsResidency {
  std::string file;
  int64_t file_bytes = 0;
  int64_t mapped_rss_kb = 0;       // the file's resident pages after load
  int64_t anonymous_growth_kb = 0;  // heap and anonymous Rss after load, less before it
  std::string verdict;              // "mapped", "copied", "mapped and copied", "neither"
  std::string explanation;          // the verdict with its figures
};

// One level of a memory map (record/memory_levels.h): what was read of it, or why nothing was.
struct MemoryLevel {
  std::string level;     // "system", "accelerator", "npu on-chip"
  std::string observed;  // the figure and where it came from; empty when not observed
  std::string reason;    // why not observed
};

struct MonitorDerived {
  EnergyResult energy;
  std::vector<WeightsResidency> weights;  // --memory-map: one per model file
  std::vector<DeviceBusyShare> device_busy;  // one per busy channel read in the measured phase
  MemoryResult memory;
  std::optional<double> baseline_frequency_khz;  // busy cores, first window
  std::string frequency_check;  // why frequency throttling could not be checked, if it could not
  std::vector<ThrottleEvent> throttling;
  std::vector<MonitorWindow> windows;
  BusyCheck busy;
  std::vector<MemoryLevel> memory_levels = {};  // --memory-map: system, accelerator, NPU on-chip
};

// --cooldown: what the orchestrator waited for before the case.
struct CooldownResult {
  std::string spec;  // as given
  std::string mode;  // "temperature" or "fixed"
  std::optional<double> idle_mc;     // the reading at the command's start
  std::optional<double> start_mc, end_mc;
  int64_t waited_ms = 0;
  bool reached = true;
  std::string detail;
};

struct MonitorRecord {
  MonitorSettings settings;
  std::string disabled_reason;  // set when no series was taken (--no-monitor)
  MonitorSeries series;
  MonitorDerived derived;
  std::optional<CooldownResult> cooldown;
  // --memory-map: the snapshots, in the order taken, or why there are none.
  std::vector<MemorySnapshot> memory_map = {};
  std::string memory_map_reason = {};
  struct ModelFile {
    std::string path;  // absolute, as the worker's smaps names it
    int64_t bytes = 0;
  };
  std::vector<ModelFile> model_files = {};  // the files the case loaded, for the weights' verdict
  std::optional<LeakSites> leak_sites = {};  // --leak-sites: what heaptrack saw, or why nothing
};

}  // namespace edgebench
