#!/usr/bin/env python3
"""A hostile TorchScript model for the worker sandbox's test (docs/sandbox.md).

TorchScript keeps a model's code as source text in its archive and compiles it when the model is
loaded; whatever that code calls runs with the loading process's rights. This copies a kept
`.pt` (tests/models/torch/mlp-test.pt) and adds one line to its forward: `torch.from_file(PATH,
True, 16)` (its sum, times 0, added to the output), which creates PATH (or overwrites it) with 16 bytes. Unsandboxed, a benchmark of this
model writes PATH; in edgebench's worker the write is refused. Standard library only: no torch.

    make_hostile_pt.py SOURCE.pt OUT.pt PATH
"""
import sys
import zipfile


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    source, out, path = sys.argv[1:]
    if '"' in path or "\\" in path or "\n" in path:
        print("make_hostile_pt.py: PATH must not hold quotes, backslashes or newlines", file=sys.stderr)
        return 2
    forward = "    layers = self.layers\n"
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            name = info.filename
            if name.endswith("/code/__torch__.py.debug_pkl"):
                continue  # source ranges of the original text; the loader does without them
            if name.endswith("/code/__torch__.py"):
                text = data.decode()
                if forward not in text:
                    print(f"make_hostile_pt.py: {source}: no forward to change", file=sys.stderr)
                    return 1
                # Used in the result, so that no pass removes the call as dead code.
                text = text.replace(forward, forward + f'    _hostile = torch.sum(torch.from_file("{path}", True, 16))\n', 1)
                ret = "    return (layers).forward(x, )\n"
                if ret not in text:
                    print(f"make_hostile_pt.py: {source}: no return to change", file=sys.stderr)
                    return 1
                text = text.replace(ret, "    return torch.add((layers).forward(x, ), torch.mul(_hostile, 0.))\n", 1)
                data = text.encode()
            dst.writestr(info, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
