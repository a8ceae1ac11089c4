// What `edgebench accuracy` and a suite's `accuracy:` block run, planned from one typed options
// struct that both fill (plan/mode_fields.h): the variants, the targets, the data set (read once
// here, so a wrong path is a bad argument rather than the same failure in every worker) and the
// workers' limits. runner/accuracy_mode.h turns the request into cases.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "inputs/labelled_images.h"
#include "plan/mode_fields.h"
#include "plan/model_spec.h"

namespace edgebench {

struct AccuracyOptions {
  static constexpr const char* kMode = "accuracy";  // the command, and a suite's block

  std::string data;  // default: the manifest's "dataset"
  std::string split = "test";
  int64_t limit = 0;
  int64_t offset = 0;
  std::string preprocess;  // default: the manifest's
  std::string variants;    // comma-separated, or "all"; default: the chosen or default variant
  int64_t warmup = 3;
  int64_t timeout_ms = 0;
  int64_t case_memory_mb = 0;
  uint64_t seed = 0;  // unused: the pass is deterministic; accepted as every command does

  template <typename Visit>
  void Fields(Visit&& visit) {
    visit(ModeField{"data",
                    "labelled images: fashion-mnist, a directory of IDX files, or IMAGES_FILE,LABELS_FILE "
                    "(default: the manifest's \"dataset\")",
                    0, "-d"},
          data);
    visit(ModeField{"split", "test or train", kFieldShowDefault}, split);
    visit(ModeField{"limit", "images to run (0: all from --offset on)", kFieldShowDefault}, limit);
    visit(ModeField{"offset", "the first image run", kFieldShowDefault}, offset);
    visit(ModeField{"preprocess",
                    "resize=WxH,scale=S,mean=M[:M:M],std=S[:S:S],layout=nchw|nhwc (default: the manifest's "
                    "\"preprocess\"; value = (pixel*scale - mean)/std)"},
          preprocess);
    visit(ModeField{"variant", "comma-separated variants, or all (default: the chosen or default variant)"},
          variants);
    visit(ModeField{"warmup", "inferences on the first image before the timed pass", kFieldShowDefault}, warmup);
    visit(ModeField{"timeout", "kill a pass's worker after this many ms (0: 120 s + 100 ms an image)",
                    kFieldShowDefault},
          timeout_ms);
    visit(ModeField{"case-memory",
                    "a pass's worker may use this many MiB of resident memory (0: 80% of physical memory)",
                    kFieldShowDefault},
          case_memory_mb);
    visit(ModeField{"seed", "unused: the pass is deterministic"}, seed);
  }
};

// What every pass of one `accuracy` command shares.
struct AccuracyPlanRequest {
  // The model once per variant to run (plan/model_spec.h SelectVariant), with the variant's
  // name ("" for a model without variants).
  std::vector<std::pair<std::string, ModelSpec>> variants;
  std::vector<Target> targets;
  DataSetSpec data;
  std::string preprocess;  // the --preprocess text in force
  int64_t warmup = 3;
  int64_t timeout_ms = 0;      // a pass's worker; 0: 120 s + 100 ms an image of `images`
  int64_t images = 0;          // the images a pass reads (for the default timeout)
  int64_t case_memory_mb = 0;  // 0: DefaultCaseMemoryMb()
  MonitorSettings monitor;
  std::string executable;  // this program, for workers
  std::vector<std::string> worker_args;
};

// An error is a bad argument, naming the flag (a missing preprocessing or data set, a corrupt
// IDX file, a variant the model lacks, a target no artifact serves).
Result<AccuracyPlanRequest> PlanAccuracyRequest(const AccuracyOptions& options, const ModelSpec& model,
                                                const std::vector<Target>& targets, const ModePlanContext& context);

}  // namespace edgebench
