// Operator profiles as the runtimes write them: ONNX Runtime's profile file and LiteRT's profile
// summary read into per-node times over the measured runs only, TensorFlow Lite's profiler
// interface timing nothing before the measured phase, and sessions' profiles merged.
#include <gtest/gtest.h>

#include <sstream>

#include "backends/litert/litert_xnnpack_session.h"
#include "backends/litert/tflite_op_profiler.h"
#include "backends/ort/ort_profile.h"
#include "core/operator_profile.h"

namespace edgebench {
namespace {

// Two runs (the first one warmup), each of a MatMul on the CPU and a fused oneDNN subgraph,
// as ORT writes them: one event per line, kernel times and fences, a model_run per run.
const char kOrtProfile[] = R"([
{"cat" : "Session","pid" :7,"tid" :7,"dur" :900,"ts" :1,"ph" : "X","name" :"model_loading_uri","args" : {}},
{"cat" : "Node","pid" :7,"tid" :8,"dur" :0,"ts" :1000,"ph" : "X","name" :"mm_fence_before","args" : {"op_name" : "MatMul"}},
{"cat" : "Node","pid" :7,"tid" :8,"dur" :40,"ts" :1001,"ph" : "X","name" :"mm_kernel_time","args" : {"op_name" : "MatMul","provider" : "CPUExecutionProvider"}},
{"cat" : "Node","pid" :7,"tid" :8,"dur" :100,"ts" :1050,"ph" : "X","name" :"DNNL_123456789_3_kernel_time","args" : {"op_name" : "DNNL_123456789_3","provider" : "DnnlExecutionProvider"}},
{"cat" : "Session","pid" :7,"tid" :7,"dur" :200,"ts" :999,"ph" : "X","name" :"model_run","args" : {}},
{"cat" : "Node","pid" :7,"tid" :8,"dur" :30,"ts" :2001,"ph" : "X","name" :"mm_kernel_time","args" : {"op_name" : "MatMul","provider" : "CPUExecutionProvider"}},
{"cat" : "Node","pid" :7,"tid" :9,"dur" :90,"ts" :2050,"ph" : "X","name" :"DNNL_123456789_3_kernel_time","args" : {"op_name" : "DNNL_123456789_3","provider" : "DnnlExecutionProvider"}},
{"cat" : "Session","pid" :7,"tid" :7,"dur" :180,"ts" :1999,"ph" : "X","name" :"model_run","args" : {}}
]
)";

TEST(OrtProfile, TheWarmupRunsAreLeftOutAndFusedSubgraphsShareATypeName) {
  std::istringstream in(kOrtProfile);
  auto profile = ReadOrtProfile(in, /*skip_runs=*/1, /*start_ns=*/5'000'000);
  ASSERT_TRUE(profile.ok()) << profile.error();
  const OperatorProfile& p = profile.value();
  EXPECT_EQ(p.runs, 1);
  ASSERT_EQ(p.operators.size(), 2u);
  EXPECT_EQ(p.operators[0].node, "mm");
  EXPECT_EQ(p.operators[0].op_type, "MatMul");
  EXPECT_EQ(p.operators[0].device, "cpu");
  EXPECT_EQ(p.operators[0].total_ns, 30'000);  // the second run's 30 us, not the warmup's 40
  EXPECT_EQ(p.operators[1].node, "DNNL_123456789_3");
  EXPECT_EQ(p.operators[1].op_type, "DNNL subgraph");
  EXPECT_EQ(p.operators[1].device, "dnnl");
  ASSERT_EQ(p.spans.size(), 2u);
  EXPECT_EQ(p.spans[1].start_ns, 5'000'000 + 2'050'000);  // on the harness clock
  EXPECT_EQ(p.spans[1].thread, 9);
  EXPECT_EQ(TimeByDevice(p).at("dnnl"), 90'000);
}

TEST(OrtProfile, AProfileThatEndsBeforeTheMeasuredRunsSaysSo) {
  std::istringstream in(kOrtProfile);
  auto profile = ReadOrtProfile(in, 2, 0);
  ASSERT_TRUE(profile.ok()) << profile.error();
  EXPECT_TRUE(profile.value().operators.empty());
  ASSERT_EQ(profile.value().notes.size(), 1u);
  EXPECT_NE(profile.value().notes[0].find("2 runs recorded, 2 of them warmup"), std::string::npos);
}

TEST(OrtProfile, TextThatIsNoProfileIsAnError) {
  std::istringstream empty("");
  EXPECT_FALSE(ReadOrtProfile(empty, 0, 0).ok());
  std::istringstream garbage("[\n{not json\n]\n");
  auto profile = ReadOrtProfile(garbage, 0, 0);
  ASSERT_FALSE(profile.ok());
  EXPECT_NE(profile.error().find("1 unreadable lines"), std::string::npos) << profile.error();
}

TEST(LiteRtProfile, XnnpackOperatorsAndBuiltinKernelsFromTheSummary) {
  const std::string summary =
      "=============== Run Order ===============\n"
      "   [node type]    [start]    [first]   [avg ms]        [%]     [cdf%]   [mem KB] [times called]   [Name]\n"
      "   Delegate/Convolution (NHWC, F32) IGEMM      0.000      0.400      0.535    27.194%    27.194%      0.000"
      "             20   [Delegate]:0\n"
      "   DEQUANTIZE      0.000      0.100      0.010     1.000%    28.194%      0.000             20   [Builtin]:1\n"
      "=============== Top by Computation Time ===============\n"
      "   DEQUANTIZE      0.000      0.100      0.010     1.000%    28.194%      0.000             20   [Builtin]:1\n";
  auto profile = OperatorProfileFromLiteRtSummary(summary, 20);
  ASSERT_TRUE(profile.ok()) << profile.error();
  const OperatorProfile& p = profile.value();
  EXPECT_EQ(p.runs, 20);
  ASSERT_EQ(p.operators.size(), 2u);  // the "Top" table repeats rows: not counted twice
  EXPECT_EQ(p.operators[0].op_type, "Convolution (NHWC, F32) IGEMM");
  EXPECT_EQ(p.operators[0].device, "xnnpack");
  EXPECT_EQ(p.operators[0].calls, 20);
  EXPECT_EQ(p.operators[0].total_ns, 10'700'000);  // 0.535 ms x 20
  EXPECT_EQ(p.operators[1].op_type, "DEQUANTIZE");
  EXPECT_EQ(p.operators[1].device, "cpu");
  EXPECT_FALSE(OperatorProfileFromLiteRtSummary("no tables here", 1).ok());
}

TEST(TfLiteProfiler, NothingBeforeTheMeasuredPhaseIsTimed) {
  TfLiteOperatorProfiler profiler;
  const auto op = tflite::Profiler::EventType::OPERATOR_INVOKE_EVENT;
  EXPECT_EQ(profiler.BeginEvent("CONV_2D", op, 0, 0), 0u);  // warmup
  profiler.CountRun();
  profiler.Begin();
  const uint32_t outer = profiler.BeginEvent("WHILE", op, 3, 0);
  const uint32_t inner = profiler.BeginEvent("ADD", op, 1, 1);  // nested in a subgraph
  EXPECT_NE(outer, inner);
  profiler.EndEvent(inner);
  profiler.EndEvent(outer);
  EXPECT_EQ(profiler.BeginEvent("init", tflite::Profiler::EventType::DEFAULT, 0, 0), 0u);
  profiler.CountRun();
  const OperatorProfile p = profiler.Take();
  EXPECT_EQ(p.runs, 1);
  ASSERT_EQ(p.operators.size(), 2u);
  EXPECT_EQ(p.operators[0].node, "node 3");
  EXPECT_EQ(p.operators[0].op_type, "WHILE");
  EXPECT_EQ(p.operators[1].node, "subgraph 1 node 1");
  EXPECT_EQ(p.spans.size(), 2u);
  EXPECT_GE(p.operators[0].total_ns, p.operators[1].total_ns);
}

TEST(OperatorProfile, SessionsMergeByNodeAndTypesSortByTime) {
  OperatorProfile a{"x", 2, {{"n1", "MatMul", "cpu", 2, 100}, {"n2", "Add", "cpu", 2, 10}}, {}, 0, {"note"}};
  OperatorProfile b{"x", 3, {{"n1", "MatMul", "cpu", 3, 150}, {"n3", "Add", "cpu", 3, 300}}, {}, 0, {"note"}};
  MergeOperatorProfile(a, b);
  EXPECT_EQ(a.runs, 5);
  ASSERT_EQ(a.operators.size(), 3u);
  EXPECT_EQ(a.operators[0].total_ns, 250);
  EXPECT_EQ(a.notes.size(), 1u);
  const auto types = TimeByOperatorType(a);
  ASSERT_EQ(types.size(), 2u);
  EXPECT_EQ(types[0].op_type, "Add");
  EXPECT_EQ(types[0].nodes, 2);
  EXPECT_EQ(types[0].total_ns, 310);
  EXPECT_EQ(TotalOperatorNs(a), 560);
}

}  // namespace
}  // namespace edgebench
