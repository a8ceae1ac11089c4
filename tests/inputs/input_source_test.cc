#include "inputs/input_source.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>

#include "inputs/input_generator.h"
#include "../test_util.h"

namespace edgebench {
namespace {

std::string TempPath(const std::string& name) { return testing::TempFilePath("inputs_", name); }

std::string WriteFile(const std::string& name, const std::string& bytes) {
  return testing::WriteTempFile("inputs_", name, bytes);
}

// A version 1.0 .npy file, as np.save lays it out (see npy_file_test.cc).
std::string Npy(const std::string& descr, const std::string& shape, const std::string& data) {
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

template <typename T>
std::string Bytes(std::initializer_list<T> values) {
  std::string out(values.size() * sizeof(T), '\0');
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

template <typename T>
std::vector<T> Values(const Tensor& t) {
  std::vector<T> out(t.data.size() / sizeof(T));
  std::memcpy(out.data(), t.data.data(), t.data.size());
  return out;
}

// A 2x1 binary PPM: left pixel (0, 100, 200), right pixel (200, 100, 0).
std::string WriteImage() {
  const unsigned char pixels[] = {0, 100, 200, 200, 100, 0};
  return WriteFile("image.ppm",
                   "P6\n2 1\n255\n" + std::string(reinterpret_cast<const char*>(pixels), 6));
}

// Silero VAD's inputs: audio, the int64 scalar sample rate and a state.
Signature Vad() {
  Signature s;
  s.inputs.push_back({"input", DType::kFloat32, {Dim::Symbol("batch"), Dim::Symbol("?")}});
  s.inputs.push_back({"sr", DType::kInt64, {}});
  s.inputs.push_back(
      {"state", DType::kFloat32, {Dim::Fixed(2), Dim::Symbol("batch"), Dim::Fixed(128)}});
  return s;
}

InputOptions Options(std::vector<std::string> specs, int64_t pool = 1, uint64_t seed = 0) {
  InputOptions o;
  o.specs = std::move(specs);
  o.pool_size = pool;
  o.seed = seed;
  return o;
}

void ExpectErrorHas(const Status& status, const std::vector<std::string>& needles) {
  ASSERT_FALSE(status.ok());
  for (const std::string& needle : needles) {
    EXPECT_NE(status.message().find(needle), std::string::npos)
        << "'" << needle << "' not in: " << status.message();
  }
}

template <typename T>
void ExpectErrorHas(const Result<T>& result, const std::vector<std::string>& needles) {
  ExpectErrorHas(result.status(), needles);
}

TEST(InputSpec, ParsesEveryForm) {
  auto fixed = ParseInputSpec("sr=16000");
  ASSERT_TRUE(fixed.ok()) << fixed.error();
  EXPECT_EQ(fixed.value().first, "sr");
  EXPECT_EQ(fixed.value().second.kind, InputSource::Kind::kFixed);
  EXPECT_TRUE(fixed.value().second.value.is_integer);
  EXPECT_EQ(fixed.value().second.value.integer, 16000);

  auto real = ParseInputSpec("x=-2.5e-1");
  ASSERT_TRUE(real.ok());
  EXPECT_FALSE(real.value().second.value.is_integer);
  EXPECT_EQ(real.value().second.value.real, -0.25);

  auto range = ParseInputSpec("x=range:-1:0.5");
  ASSERT_TRUE(range.ok()) << range.error();
  EXPECT_EQ(range.value().second.kind, InputSource::Kind::kRange);
  EXPECT_EQ(range.value().second.low.integer, -1);
  EXPECT_EQ(range.value().second.high.real, 0.5);

  auto npy = ParseInputSpec("x=dir:with=odd,chars/a.npy");
  ASSERT_TRUE(npy.ok());
  EXPECT_EQ(npy.value().second.kind, InputSource::Kind::kNpy);
  EXPECT_EQ(npy.value().second.path, "dir:with=odd,chars/a.npy");
  EXPECT_EQ(ParseInputSpec("x=npy:a.bin").value().second.path, "a.bin");
  EXPECT_EQ(ParseInputSpec("x=raw:a:b.bin").value().second.kind, InputSource::Kind::kRaw);
  EXPECT_EQ(ParseInputSpec("x=raw:a:b.bin").value().second.path, "a:b.bin");

  auto image = ParseInputSpec("x=image[resize=4x2,mean=0.5:0.5:0.5,layout=nchw]:a]:b.png");
  ASSERT_TRUE(image.ok()) << image.error();
  EXPECT_EQ(image.value().second.kind, InputSource::Kind::kImage);
  EXPECT_EQ(image.value().second.path, "a]:b.png");
  EXPECT_EQ(image.value().second.preprocess.width, 4);
  EXPECT_EQ(image.value().second.preprocess.height, 2);
  EXPECT_EQ(image.value().second.preprocess.layout, Layout::kNchw);
  EXPECT_EQ(ParseInputSpec("x=image:[odd].png").value().second.path, "[odd].png");
}

TEST(InputSpec, ErrorsQuoteTheInputAndSayWhatIsAccepted) {
  for (const std::string bad : {"sr", "=5", "x=", "x=hello", "x=range:1", "x=range:a:b",
                                "x=range:2:1", "x=npy:", "x=image[resize=2x2:a.png",
                                "x=image[gamma=2]:a.png", "x=inf", "x=nan"}) {
    auto r = ParseInputSpec(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().find("bad --input '" + bad + "'"), std::string::npos) << r.error();
  }
  ExpectErrorHas(ParseInputSpec("x=hello"), {"range:LO:HI", "npy:FILE", "raw:FILE", "image["});
  ExpectErrorHas(ParseInputSpec("x=range:2:1"), {"empty"});
  ExpectErrorHas(ParseInputSpec("x=image[gamma=2]:a.png"), {"gamma"});
}

TEST(InputOptions, JsonRoundTripAndTolerantReader) {
  const InputOptions o = Options({"sr=16000", "x=range:0:255"}, 4, uint64_t{1} << 63);
  auto back = InputOptionsFromJson(InputOptionsToJson(o));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().specs, o.specs);
  EXPECT_EQ(back.value().pool_size, 4);
  EXPECT_EQ(back.value().seed, uint64_t{1} << 63);
  auto empty = InputOptionsFromJson(nlohmann::json::object());
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty.value().specs.empty());
  EXPECT_EQ(empty.value().pool_size, 1);
  EXPECT_FALSE(InputOptionsFromJson({{"specs", "sr=1"}}).ok());
  EXPECT_FALSE(InputOptionsFromJson({{"pool_size", "4"}}).ok());
  EXPECT_FALSE(InputOptionsFromJson({{"seed", -1}}).ok());
}

TEST(InputOptions, ValidateChecksSyntaxPoolAndFiles) {
  EXPECT_TRUE(ValidateInputOptions(Options({"sr=16000", "x=range:0:1"})).ok());
  ExpectErrorHas(ValidateInputOptions(Options({"sr=16000", "x=oops"})), {"'x=oops'"});
  ExpectErrorHas(ValidateInputOptions(Options({}, 0)), {"--input-pool"});
  ExpectErrorHas(ValidateInputOptions(Options({"x=" + TempPath("missing.npy")})),
                 {"missing.npy", "cannot"});
  ExpectErrorHas(ValidateInputOptions(Options({"x=raw:" + TempPath("missing.bin")})),
                 {"missing.bin"});
  ExpectErrorHas(ValidateInputOptions(Options({"x=image[resize=2x2]:" + TempPath("missing.png")})),
                 {"missing.png"});
  const std::string not_npy = WriteFile("not.npy", "hello");
  ExpectErrorHas(ValidateInputOptions(Options({"x=" + not_npy})), {"magic"});
  std::remove(not_npy.c_str());
}

TEST(InputPool, DefaultIsTodaysSeededInputsAndSamplesDiffer) {
  const Signature s = Vad();
  const std::vector<std::vector<int64_t>> shapes = {{1, 512}, {}, {2, 1, 128}};
  auto pool = BuildInputPool(s, shapes, Options({}, 3, 7));
  ASSERT_TRUE(pool.ok()) << pool.error();
  ASSERT_EQ(pool.value().samples.size(), 3u);
  for (uint64_t sample = 0; sample < 3; ++sample) {
    auto expected = GenerateInputs(s, shapes, 7 + sample);
    ASSERT_TRUE(expected.ok());
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(pool.value().samples[sample][i].data, expected.value()[i].data)
          << sample << " " << i;
      EXPECT_EQ(pool.value().samples[sample][i].name, s.inputs[i].name);
      EXPECT_EQ(pool.value().samples[sample][i].shape, shapes[i]);
    }
  }
  EXPECT_NE(pool.value().samples[0][0].data, pool.value().samples[1][0].data);
  EXPECT_EQ(pool.value().provenance[0], "seeded uniform [-1, 1) (seed 7 + sample index)");
  EXPECT_EQ(pool.value().provenance[1], "seeded uniform [0, 99] (seed 7 + sample index)");
  auto single = BuildInputPool(s, shapes, Options({}, 1, 7));
  ASSERT_TRUE(single.ok());
  EXPECT_EQ(single.value().provenance[0], "seeded uniform [-1, 1) (seed 7)");
}

TEST(InputPool, FixedValueInEverySampleOthersStaySeeded) {
  const Signature s = Vad();
  const std::vector<std::vector<int64_t>> shapes = {{1, 512}, {}, {2, 1, 128}};
  auto pool = BuildInputPool(s, shapes, Options({"sr=16000"}, 2, 3));
  ASSERT_TRUE(pool.ok()) << pool.error();
  auto seeded = GenerateInputs(s, shapes, 3);
  for (const auto& sample : pool.value().samples) {
    ASSERT_EQ(sample[1].data.size(), 8u);
    EXPECT_EQ(Values<int64_t>(sample[1]), std::vector<int64_t>{16000});
    EXPECT_EQ(sample[1].dtype, DType::kInt64);
  }
  // The other inputs are exactly what they would be without the fixed value.
  EXPECT_EQ(pool.value().samples[0][0].data, seeded.value()[0].data);
  EXPECT_EQ(pool.value().samples[0][2].data, seeded.value()[2].data);
  EXPECT_EQ(pool.value().provenance[1], "fixed 16000");
}

TEST(InputPool, FixedValuesForEveryDType) {
  Signature s;
  s.inputs.push_back({"f", DType::kFloat32, {Dim::Fixed(3)}});
  s.inputs.push_back({"h", DType::kFloat16, {Dim::Fixed(2)}});
  s.inputs.push_back({"tiny", DType::kFloat16, {Dim::Fixed(1)}});
  s.inputs.push_back({"i8", DType::kInt8, {Dim::Fixed(2)}});
  s.inputs.push_back({"u8", DType::kUInt8, {Dim::Fixed(1)}});
  s.inputs.push_back({"i32", DType::kInt32, {Dim::Fixed(1)}});
  s.inputs.push_back({"b", DType::kBool, {Dim::Fixed(2)}});
  const std::vector<std::vector<int64_t>> shapes = {{3}, {2}, {1}, {2}, {1}, {1}, {2}};
  auto pool = BuildInputPool(s, shapes,
                             Options({"f=0.5", "h=-2.5", "tiny=3e-5", "i8=-128", "u8=255",
                                      "i32=1e3", "b=true"}));
  ASSERT_TRUE(pool.ok()) << pool.error();
  const auto& t = pool.value().samples[0];
  EXPECT_EQ(Values<float>(t[0]), (std::vector<float>{0.5f, 0.5f, 0.5f}));
  EXPECT_EQ(Values<uint16_t>(t[1]), (std::vector<uint16_t>{0xc100, 0xc100}));  // numpy: 49408
  EXPECT_EQ(Values<uint16_t>(t[2]), (std::vector<uint16_t>{503}));  // a subnormal, as numpy rounds
  EXPECT_EQ(Values<int8_t>(t[3]), (std::vector<int8_t>{-128, -128}));
  EXPECT_EQ(Values<uint8_t>(t[4]), (std::vector<uint8_t>{255}));
  EXPECT_EQ(Values<int32_t>(t[5]), (std::vector<int32_t>{1000}));
  EXPECT_EQ(Values<uint8_t>(t[6]), (std::vector<uint8_t>{1, 1}));
}

TEST(InputPool, ValuesThatDoNotFitNameValueInputAndType) {
  Signature s;
  s.inputs.push_back({"sr", DType::kInt8, {}});
  s.inputs.push_back({"h", DType::kFloat16, {}});
  s.inputs.push_back({"u", DType::kUInt8, {}});
  s.inputs.push_back({"b", DType::kBool, {}});
  const std::vector<std::vector<int64_t>> shapes = {{}, {}, {}, {}};
  ExpectErrorHas(BuildInputPool(s, shapes, Options({"sr=16000"})),
                 {"16000", "'sr'", "int8", "127"});
  ExpectErrorHas(BuildInputPool(s, shapes, Options({"sr=0.5"})), {"0.5", "whole number"});
  ExpectErrorHas(BuildInputPool(s, shapes, Options({"h=70000"})), {"70000", "'h'", "float16"});
  ExpectErrorHas(BuildInputPool(s, shapes, Options({"u=-1"})), {"-1", "uint8"});
  ExpectErrorHas(BuildInputPool(s, shapes, Options({"b=2"})), {"'b'", "bool"});
  ExpectErrorHas(BuildInputPool(s, shapes, Options({"u=range:0:256"})), {"256", "uint8"});
}

TEST(InputPool, RangesAreInclusiveForIntegersHalfOpenForFloatsAndSeeded) {
  Signature s;
  s.inputs.push_back({"ids", DType::kInt32, {Dim::Fixed(1000)}});
  s.inputs.push_back({"same", DType::kInt32, {Dim::Fixed(1000)}});
  s.inputs.push_back({"x", DType::kFloat32, {Dim::Fixed(1000)}});
  s.inputs.push_back({"h", DType::kFloat16, {Dim::Fixed(1000)}});
  const std::vector<std::vector<int64_t>> shapes = {{1000}, {1000}, {1000}, {1000}};
  const InputOptions o = Options({"ids=range:3:4", "same=range:3:4", "x=range:2:2.0000002",
                                  "h=range:-1:-0.9995118"}, 2, 5);
  auto pool = BuildInputPool(s, shapes, o);
  ASSERT_TRUE(pool.ok()) << pool.error();
  const auto& first = pool.value().samples[0];
  const std::vector<int32_t> ids = Values<int32_t>(first[0]);
  EXPECT_EQ(std::set<int32_t>(ids.begin(), ids.end()), (std::set<int32_t>{3, 4}));
  // The only float32 in [2, 2.0000002) is 2: the next one up, 2 + 2^-22 = 2.00000024, lies past
  // HI, though draws above 2.00000012 round to it. They must be held below HI.
  EXPECT_EQ(Values<float>(first[2]), std::vector<float>(1000, 2.0f));
  // Likewise the only float16 in [-1, -0.9995118) is -1 (0xbc00): the next, -0.99951171875
  // (0xbbff), lies just past HI.
  EXPECT_EQ(Values<uint16_t>(first[3]), std::vector<uint16_t>(1000, 0xbc00));
  // Two inputs with the same range differ; samples differ; the same options give the same bytes.
  EXPECT_NE(first[0].data, first[1].data);
  EXPECT_NE(first[0].data, pool.value().samples[1][0].data);
  auto again = BuildInputPool(s, shapes, o);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value().samples[1][0].data, pool.value().samples[1][0].data);
  EXPECT_EQ(pool.value().provenance[0], "range [3, 4] (seed 5 + sample index)");
  EXPECT_EQ(pool.value().provenance[2], "range [2, 2.0000002) (seed 5 + sample index)");

  // A one-value integer range; a float range holding no value.
  auto one = BuildInputPool(s, shapes, Options({"ids=range:9:9"}));
  ASSERT_TRUE(one.ok()) << one.error();
  EXPECT_EQ(Values<int32_t>(one.value().samples[0][0]), std::vector<int32_t>(1000, 9));
  ExpectErrorHas(BuildInputPool(s, shapes, Options({"x=range:1:1"})), {"no float32 value", "'x'"});
  ExpectErrorHas(BuildInputPool(s, shapes, Options({"ids=range:0:0.5"})), {"whole number"});
}

TEST(InputPool, NpyFilesBindShapesAndMustMatchDTypeAndShape) {
  const std::string a = WriteFile("a.npy", Npy("<f4", "(1, 4)", Bytes<float>({1, 2, 3, 4})));
  const Signature s = Vad();
  auto bindings = ShapeBindingsFromInputs(s, Options({"input=" + a, "sr=16000"}));
  ASSERT_TRUE(bindings.ok()) << bindings.error();
  EXPECT_EQ(bindings.value(), (ShapeBindings{{"input.0", 1}, {"input.1", 4}, {"batch", 1}}));

  // Over --dim: the file wins, and 'batch' reaches the state input too.
  auto shapes = ResolveInputShapes(
      s, OverrideShapeBindings({{"batch", 8}, {"*", 100}}, bindings.value()));
  ASSERT_TRUE(shapes.ok()) << shapes.error();
  EXPECT_EQ(shapes.value(), (std::vector<std::vector<int64_t>>{{1, 4}, {}, {2, 1, 128}}));

  auto pool = BuildInputPool(s, shapes.value(), Options({"input=" + a, "sr=16000"}, 2));
  ASSERT_TRUE(pool.ok()) << pool.error();
  for (const auto& sample : pool.value().samples) {
    EXPECT_EQ(Values<float>(sample[0]), (std::vector<float>{1, 2, 3, 4}));
    EXPECT_EQ(sample[0].name, "input");
  }
  EXPECT_EQ(pool.value().provenance[0], "file " + a + " [1x4 float32]");

  // Type and shape mismatches name both sides.
  const std::string ints =
      WriteFile("ints.npy", Npy("<i8", "(1, 4)", Bytes<int64_t>({1, 2, 3, 4})));
  ExpectErrorHas(BuildInputPool(s, shapes.value(), Options({"input=" + ints})),
                 {"int64", "float32", "'input'"});
  ExpectErrorHas(BuildInputPool(s, {{1, 5}, {}, {2, 1, 128}}, Options({"input=" + a})),
                 {"[1x4]", "[1x5]", "'input'"});
  const std::string state =
      WriteFile("state.npy", Npy("<f4", "(3, 1, 128)", std::string(3 * 128 * 4, '\0')));
  ExpectErrorHas(ShapeBindingsFromInputs(s, Options({"state=" + state})),
                 {"[3x1x128]", "[2xbatchx128]", "axis 0 is fixed at 2"});
  const std::string flat = WriteFile("flat.npy", Npy("<f4", "(4,)", Bytes<float>({1, 2, 3, 4})));
  ExpectErrorHas(ShapeBindingsFromInputs(s, Options({"input=" + flat})), {"1 axes", "2 axes"});
  // Two files disagreeing on the shared symbol 'batch'.
  const std::string state2 =
      WriteFile("state2.npy", Npy("<f4", "(2, 2, 128)", std::string(2 * 2 * 128 * 4, '\0')));
  ExpectErrorHas(ShapeBindingsFromInputs(s, Options({"input=" + a, "state=" + state2})),
                 {"disagree on 'batch'"});
  for (const auto& path : {a, ints, state, flat, state2}) std::remove(path.c_str());
}

TEST(InputPool, SpecsNamingNoInputListTheSignature) {
  ExpectErrorHas(ShapeBindingsFromInputs(Vad(), Options({"rate=16000"})),
                 {"'rate=16000'", "no input 'rate'", "'input', 'sr', 'state'"});
  ExpectErrorHas(BuildInputPool(Vad(), {{1, 4}, {}, {2, 1, 128}}, Options({"rate=16000"})),
                 {"no input 'rate'"});
}

TEST(InputPool, SeveralFilesAreCycledAndThePoolHoldsThemAll) {
  const std::string a = WriteFile("ca.npy", Npy("<i8", "()", Bytes<int64_t>({16000})));
  const std::string b = WriteFile("cb.npy", Npy("<i8", "()", Bytes<int64_t>({8000})));
  const Signature s = Vad();
  const std::vector<std::vector<int64_t>> shapes = {{1, 4}, {}, {2, 1, 128}};
  // --input-pool 1 (the default) with two files: the pool grows to 2.
  auto two = BuildInputPool(s, shapes, Options({"sr=" + a, "sr=" + b}));
  ASSERT_TRUE(two.ok()) << two.error();
  ASSERT_EQ(two.value().samples.size(), 2u);
  EXPECT_EQ(Values<int64_t>(two.value().samples[0][1]), std::vector<int64_t>{16000});
  EXPECT_EQ(Values<int64_t>(two.value().samples[1][1]), std::vector<int64_t>{8000});
  EXPECT_EQ(two.value().provenance[1],
            "cycled over 2: file " + a + " [int64]; file " + b + " [int64]");
  // A larger pool cycles them: a, b, a, b, a.
  auto five = BuildInputPool(s, shapes, Options({"sr=" + a, "sr=" + b}, 5));
  ASSERT_TRUE(five.ok());
  ASSERT_EQ(five.value().samples.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(Values<int64_t>(five.value().samples[i][1])[0], i % 2 ? 8000 : 16000) << i;
  }
  // Files of one input with different shapes are refused.
  const std::string c = WriteFile("cc.npy", Npy("<i8", "(1,)", Bytes<int64_t>({1})));
  ExpectErrorHas(ShapeBindingsFromInputs(s, Options({"sr=" + a, "sr=" + c})), {"one shape"});
  for (const auto& path : {a, b, c}) std::remove(path.c_str());
}

TEST(InputPool, RawFilesMustHaveTheInputsSize) {
  Signature s;
  s.inputs.push_back({"x", DType::kInt32, {Dim::Fixed(3)}});
  const std::string good = WriteFile("good.bin", Bytes<int32_t>({7, -8, 9}));
  auto pool = BuildInputPool(s, {{3}}, Options({"x=raw:" + good}));
  ASSERT_TRUE(pool.ok()) << pool.error();
  EXPECT_EQ(Values<int32_t>(pool.value().samples[0][0]), (std::vector<int32_t>{7, -8, 9}));
  EXPECT_EQ(pool.value().provenance[0], "raw " + good + " [3 int32]");
  const std::string bad = WriteFile("bad.bin", Bytes<int32_t>({7, -8}));
  ExpectErrorHas(BuildInputPool(s, {{3}}, Options({"x=raw:" + bad})),
                 {"has 8 bytes", "takes 12", "'x'", "[3]"});
  std::remove(good.c_str());
  std::remove(bad.c_str());
}

TEST(InputPool, ImagesWithDeclaredPreprocessing) {
  const std::string path = WriteImage();
  Signature s;
  s.inputs.push_back({"pixels",
                      DType::kFloat32,
                      {Dim::Symbol("n"), Dim::Fixed(3), Dim::Symbol("h"), Dim::Symbol("w")}});
  const InputOptions o = Options({"pixels=image[scale=0.01,mean=1,std=2,layout=nchw]:" + path});
  auto bindings = ShapeBindingsFromInputs(s, o);
  ASSERT_TRUE(bindings.ok()) << bindings.error();
  EXPECT_EQ(bindings.value().at("h"), 1);
  EXPECT_EQ(bindings.value().at("w"), 2);
  auto pool = BuildInputPool(s, {{1, 3, 1, 2}}, o);
  ASSERT_TRUE(pool.ok()) << pool.error();
  // value = (pixel * 0.01 - 1) / 2, channel-major. Within 1e-6: where the compiler fuses the
  // multiply and add (arm64), 100 * 0.01 - 1 is 2e-17, not 0.
  const std::vector<float> preprocessed = Values<float>(pool.value().samples[0][0]);
  const std::vector<float> expected_values{-0.5f, 0.5f, 0.0f, 0.0f, 0.5f, -0.5f};
  ASSERT_EQ(preprocessed.size(), expected_values.size());
  for (size_t i = 0; i < expected_values.size(); ++i) EXPECT_NEAR(preprocessed[i], expected_values[i], 1e-6) << i;
  EXPECT_EQ(pool.value().provenance[0],
            "image " + path + " (no resize, scale 0.01, mean 1:1:1, std 2:2:2, nchw)");
  // The default layout is nhwc: against an nchw input the error says so.
  ExpectErrorHas(ShapeBindingsFromInputs(s, Options({"pixels=image:" + path})),
                 {"[1x1x2x3]", "layout=nchw"});
  Signature ints;
  ints.inputs.push_back({"pixels",
                         DType::kUInt8,
                         {Dim::Fixed(1), Dim::Fixed(1), Dim::Fixed(2), Dim::Fixed(3)}});
  ExpectErrorHas(BuildInputPool(ints, {{1, 1, 2, 3}}, Options({"pixels=image:" + path})),
                 {"float32", "uint8"});
  std::remove(path.c_str());
}

TEST(InputPool, AbsurdSizesAreRefusedBeforeAllocating) {
  Signature s;
  s.inputs.push_back(
      {"x", DType::kFloat32, {Dim::Symbol("n"), Dim::Symbol("n"), Dim::Symbol("n")}});
  ExpectErrorHas(BuildInputPool(s, {{100000, 100000, 100000}}, Options({})),
                 {"input 'x' [100000x100000x100000] float32 needs 4e+15 bytes", "memory"});
  // Past 2^64: still a message, not an overflow.
  ExpectErrorHas(BuildInputPool(s, {{int64_t{1} << 40, int64_t{1} << 40, 1}}, Options({"x=0"})),
                 {"needs 4.84e+24 bytes"});
  // Each sample is small; a pool of a trillion is not.
  ExpectErrorHas(BuildInputPool(s, {{10, 10, 10}}, Options({}, int64_t{1} << 40)),
                 {"input pool", "--input-pool"});
}

}  // namespace
}  // namespace edgebench
