#!/usr/bin/env python3
"""ONNX's own node test cases, written for `edgebench conformance`.

Takes the cases from the installed `onnx` package (onnx.backend.test.case.node: one model of one
operator, or of its function body for an `_expanded` case, its inputs and expected outputs) and
writes them as edgebench reads them:

  OUT/manifest.json                    the onnx version, the case count and every case
  OUT/cases/NAME/model.onnx            the case's model, as ONNX makes it
  OUT/cases/NAME/setK/inI.bin, outI.bin  its data sets: raw little-endian tensor bytes

Each case in the manifest names its operator, domain, family (the folder of onnx/defs its schema
is defined in: math, nn, tensor, ...), the opset it imports, whether it is a function's expanded
body, ONNX's own tolerances for it (rtol, atol) and each tensor's name, type and shape. A case
edgebench cannot pass (a sequence or optional value, a type outside edgebench's tensors: float64,
int16, the 8-, 4- and 2-bit floats and integers, strings) is listed with `untestable`, the reason,
so a run counts it instead of losing it.

  make_onnx_node_tests.py --out DIR [--only NAME,...]
"""
import argparse
import json
import os
import re
import shutil
import sys

import numpy as np
import onnx
import onnx.numpy_helper
from onnx import defs
from onnx.backend.test.case import node as node_cases

# numpy's type name -> edgebench's (core/tensor.h DType); anything else is untestable here.
EDGEBENCH_TYPES = {
    "float32": "float32", "float16": "float16", "int8": "int8", "uint8": "uint8",
    "int32": "int32", "int64": "int64", "bool": "bool",
}
DOMAIN_FAMILIES = {"ai.onnx.ml": "traditionalml", "ai.onnx.preview.training": "training"}
EXPANDED = re.compile(r"_expanded(_ver\d+)?$")


def elem_type_name(elem_type):
    return onnx.TensorProto.DataType.Name(elem_type).lower()


def value_kind(value_info):
    """(None, type name) for a tensor; (reason, None) for what edgebench cannot pass."""
    kind = value_info.type.WhichOneof("value")
    if kind != "tensor_type":
        return f"'{value_info.name}' is a {kind.replace('_type', '')}, not a tensor", None
    return None, elem_type_name(value_info.type.tensor_type.elem_type)


def family_of(op, domain, opset):
    if domain in DOMAIN_FAMILIES:
        return DOMAIN_FAMILIES[domain]
    try:
        schema = defs.get_schema(op, opset, domain)
    except Exception:  # an op ONNX no longer defines at this opset
        return "other"
    parts = schema.file.replace("\\", "/").split("/")
    return parts[-2] if len(parts) >= 2 and parts[-1].endswith(".cc") else "other"


def opset_of(model, domain):
    for entry in model.opset_import:
        if entry.domain in (domain, "ai.onnx" if domain == "" else domain):
            return entry.version
    return 0


def tensor_entry(name, array, declared_type, path):
    """The manifest's description of one tensor, writing its bytes; or (None, reason)."""
    if array is None:
        return None, f"'{name}' is an absent optional value"
    if isinstance(array, onnx.TensorProto):  # ONNX keeps the 8-, 4- and 2-bit types so
        array = onnx.numpy_helper.to_array(array)
    if isinstance(array, np.generic):  # a scalar output
        array = np.asarray(array)
    if not isinstance(array, np.ndarray):
        return None, f"'{name}' is a {type(array).__name__}, not a tensor"
    dtype = array.dtype.name
    if dtype not in EDGEBENCH_TYPES or (declared_type and declared_type not in ("float", "float16", "int8", "uint8",
                                                                               "int32", "int64", "bool")):
        shown = declared_type if declared_type else dtype
        return None, (f"'{name}' is {shown}; edgebench passes float32, float16, int8, uint8, int32, int64 "
                      "and bool tensors")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes())
    return {"name": name, "dtype": EDGEBENCH_TYPES[dtype], "shape": [int(d) for d in array.shape]}, None


def write_case(case, out, ops_by_name):
    graph = case.model.graph
    name = case.name
    base = EXPANDED.sub("", name)
    expanded = base != name
    if expanded and base in ops_by_name:
        op, domain = ops_by_name[base]
    else:
        op, domain = graph.node[0].op_type, graph.node[0].domain
    domain = domain or "ai.onnx"
    opset = opset_of(case.model, "" if domain == "ai.onnx" else domain)
    entry = {
        "name": name, "op": op, "domain": domain,
        "family": family_of(op, "" if domain == "ai.onnx" else domain, opset or 1),
        "opset": opset, "expanded": expanded, "nodes": len(graph.node),
        "rtol": float(case.rtol), "atol": float(case.atol),
        "model": f"cases/{name}/model.onnx", "data_sets": [],
    }
    case_dir = os.path.join(out, "cases", name)
    os.makedirs(case_dir, exist_ok=True)
    onnx.save(case.model, os.path.join(case_dir, "model.onnx"))
    reasons = []
    for values in list(graph.input) + list(graph.output):
        reason, _ = value_kind(values)
        if reason:
            reasons.append(reason)
    declared = {}
    for values in list(graph.input) + list(graph.output):
        if values.type.WhichOneof("value") == "tensor_type":
            declared[values.name] = elem_type_name(values.type.tensor_type.elem_type)
    for k, (inputs, outputs) in enumerate(case.data_sets or []):
        data_set = {"inputs": [], "outputs": []}
        for side, arrays, infos, prefix in (("inputs", inputs, graph.input, "in"),
                                            ("outputs", outputs, graph.output, "out")):
            for i, array in enumerate(arrays):
                tensor_name = infos[i].name if i < len(infos) else f"{prefix}{i}"
                rel = f"cases/{name}/set{k}/{prefix}{i}.bin"
                described, reason = tensor_entry(tensor_name, array, declared.get(tensor_name), os.path.join(out, rel))
                if reason:
                    reasons.append(reason)
                    continue
                described["file"] = rel
                data_set[side].append(described)
        entry["data_sets"].append(data_set)
    if not entry["data_sets"]:
        reasons.append("ONNX gives this case no data set")
    if reasons:
        # The first reason of each kind, once: a case with ten float64 tensors says so once.
        seen = []
        for reason in reasons:
            if reason not in seen:
                seen.append(reason)
        entry["untestable"] = "; ".join(seen[:3])
        shutil.rmtree(os.path.join(case_dir), ignore_errors=True)
        os.makedirs(case_dir, exist_ok=True)
        onnx.save(case.model, os.path.join(case_dir, "model.onnx"))
    return entry


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", default="", help="comma-separated case names (default: every case)")
    args = parser.parse_args()
    only = {n for n in args.only.split(",") if n}
    cases = node_cases.collect_testcases(None)
    cases = [c for c in cases if c.kind == "node"]
    ops_by_name = {}
    for c in cases:
        if not EXPANDED.search(c.name) and c.model.graph.node:
            ops_by_name[c.name] = (c.model.graph.node[0].op_type, c.model.graph.node[0].domain)
    if only:
        missing = only - {c.name for c in cases}
        if missing:
            sys.exit(f"make_onnx_node_tests: onnx {onnx.__version__} has no case {', '.join(sorted(missing))}")
        cases = [c for c in cases if c.name in only]
    tmp = args.out + ".partial"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    entries = [write_case(c, tmp, ops_by_name) for c in sorted(cases, key=lambda c: c.name)]
    manifest = {
        "kind": "onnx-node-tests",
        "onnx_version": onnx.__version__,
        "numpy_version": np.__version__,
        "cases_total": len(entries),
        "untestable": sum(1 for e in entries if "untestable" in e),
        "cases": entries,
    }
    with open(os.path.join(tmp, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    shutil.rmtree(args.out, ignore_errors=True)
    os.rename(tmp, args.out)
    print(f"make_onnx_node_tests: {len(entries)} cases of onnx {onnx.__version__} "
          f"({manifest['untestable']} untestable) in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
