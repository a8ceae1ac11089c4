// `agree --input image.png`: a model whose input is uint8 [1,H,W,3] (as a MediaPipe Task's is)
// gets the same resampled pixels as a float model gets preprocessed.
#include <gtest/gtest.h>

#include "../test_util.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

// Two ONNX models that output their input as float: one takes uint8 pixels (Cast), one float32
// (Identity); and a 4x4 PNG with uneven pixels, so a 3x3 resize interpolates.
constexpr const char* kMakeModels = R"(
import sys, struct, zlib, onnx
from onnx import helper, TensorProto as T
out = sys.argv[1]
def model(dtype, op, name):
    x = helper.make_tensor_value_info('image', dtype, [1, 3, 3, 3])
    y = helper.make_tensor_value_info('y', T.FLOAT, [1, 3, 3, 3])
    node = helper.make_node('Cast', ['image'], ['y'], to=T.FLOAT) if op == 'Cast' else helper.make_node('Identity', ['image'], ['y'])
    m = helper.make_model(helper.make_graph([node], 'g', [x], [y]), opset_imports=[helper.make_opsetid('', 13)])
    m.ir_version = 8
    onnx.save(m, out + '/' + name)
model(T.UINT8, 'Cast', 'pixels.onnx')
model(T.FLOAT, 'Identity', 'floats.onnx')
rows = b''.join(b'\x00' + bytes((17 * (x + 4 * y) + 40 * c) % 256 for x in range(4) for c in range(3)) for y in range(4))
chunk = lambda t, b: struct.pack('>I', len(b)) + t + b + struct.pack('>I', zlib.crc32(t + b))
open(out + '/image.png', 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 4, 4, 8, 2, 0, 0, 0)) +
                                      chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
)";

TEST(AgreePixelsCli, AUint8ModelGetsTheSamePixelsAsAFloatModel) {
  const std::string dir = TempFilePath("agree_pixels_", "models");
  const std::string script = WriteTempFile("agree_pixels_", "make.py", kMakeModels);
  auto made = RunCommand("mkdir -p " + dir + " && python3 " + script + " " + dir + " 2>&1");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  auto r = RunCommand(Executable() + " agree 'pixels=" + dir + "/floats.onnx?target=ort:cpu," + dir +
                      "/pixels.onnx?target=ort:xnnpack' --target ort:cpu,ort:xnnpack --input " + dir +
                      "/image.png --preprocess resize=3x3,scale=1 --max-abs 0.5 --format json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  auto report = nlohmann::json::parse(r.output);
  const auto& y = report["targets"][1]["outputs"][0];
  EXPECT_LE(y["max_abs_error"].get<double>(), 0.5) << r.output;  // rounding to whole pixels only
  EXPECT_GT(y["cosine"].get<double>(), 0.9999) << r.output;
  // A 4x4 image resized to 3x3 is interpolated: the float model sees fractions the uint8 one
  // cannot, so the error is not zero; with no resize at all it would be.
  EXPECT_GT(y["max_abs_error"].get<double>(), 0.0) << r.output;
  RunCommand("rm -rf " + dir + " " + script);
}

}  // namespace
}  // namespace edgebench
