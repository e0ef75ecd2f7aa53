#!/usr/bin/python3
"""Converts a rocketgym checkpoint of format version 1 into version 2.

    /usr/bin/python3 scripts/convert_checkpoint_v1.py OLD.ckpt NEW.ckpt [--optimizer adam|adamw|drop]

Version 1 ("RGCKPT01") stored the weights and the optimizer state as LibTorch
(TorchScript) archives. rocketgym no longer reads those: LibTorch's parser can
crash on a crafted archive. This script hands the archives to torch.jit.load,
the same parser, so run it ONLY on files you trust (your own runs, the zoo
files shipped with rocketgym). It needs Debian's python3-torch, whose version
matches the LibTorch that wrote the files.

The metadata is copied byte for byte and the weights keep their exact values
(float16 stays float16). The optimizer state (Adam or AdamW moments) is
converted too; version 1 does not record which of the two it was, so the kind
is taken from the metadata (extra.algorithm "alphazero" = AdamW, the PPO
trainer's Adam otherwise) unless --optimizer says otherwise; --optimizer drop
leaves it out (a resumed run then starts with a fresh optimizer).

The version 2 layout is described in models/checkpoint.h.
"""

import argparse
import io
import json
import os
import struct
import sys

MAGIC_V1 = b"RGCKPT01"
MAGIC_V2 = b"RGCKPT02"
FLOAT32, FLOAT16 = 1, 2
ADAM, ADAMW = 1, 2


def fnv1a(data, h=0xCBF29CE484222325):
    # FNV-1a is sequential; a byte loop takes about a second per 3 MB.
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def checksum(*sections):
    h = 0xCBF29CE484222325
    for s in sections:
        h = fnv1a(s, h)
    return h


def read_v1(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit(f"cannot read {path}: {e.strerror}")
    if data[:8] == MAGIC_V2:
        sys.exit(f"{path} is already a version 2 checkpoint")
    if data[:8] != MAGIC_V1 or len(data) < 40:
        sys.exit(f"{path} is not a rocketgym checkpoint of version 1")
    meta_size, model_size, optim_size, check = struct.unpack("<4Q", data[8:40])
    if 40 + meta_size + model_size + optim_size != len(data):
        sys.exit(f"{path} is truncated or corrupt (its header's sizes do not match the file)")
    meta = data[40 : 40 + meta_size]
    model = data[40 + meta_size : 40 + meta_size + model_size]
    optim = data[40 + meta_size + model_size :]
    if checksum(meta, model, optim) != check:
        sys.exit(f"{path} is corrupt (checksum mismatch)")
    return meta, model, optim


def tensor_body(torch, tensor, dtype_code):
    """dtype, ndim, dims, raw elements (see models/checkpoint.h)."""
    t = tensor.detach().cpu().contiguous()
    want = torch.float16 if dtype_code == FLOAT16 else torch.float32
    if t.dtype != want:
        sys.exit(f"a tensor is {t.dtype}, expected {want}")
    out = struct.pack("<BB", dtype_code, t.dim())
    out += b"".join(struct.pack("<Q", d) for d in t.shape)
    return out + t.numpy().tobytes()  # numpy's tobytes: little endian on this machine, no rounding


def model_section(torch, archive, dtype_code):
    module = torch.jit.load(io.BytesIO(archive), map_location="cpu")
    tensors = list(module.named_parameters()) + list(module.named_buffers())
    out = struct.pack("<I", len(tensors))
    for name, tensor in tensors:
        encoded = name.encode()
        out += struct.pack("<H", len(encoded)) + encoded + tensor_body(torch, tensor, dtype_code)
    return out, len(tensors)


def optimizer_section(torch, archive, kind):
    """The v1 optimizer archive (LibTorch's Optimizer::save) in the v2 encoding."""
    root = torch.jit.load(io.BytesIO(archive), map_location="cpu")._c
    state = root.getattr("state")
    groups = root.getattr("param_groups")
    group_count = int(groups.getattr("param_groups/size"))
    out = struct.pack("<BI", kind, group_count)
    with_state = total = 0
    for g in range(group_count):
        group = groups.getattr(f"param_groups/{g}")
        options = group.getattr("options")
        betas = options.getattr("betas")
        amsgrad = bool(options.getattr("amsgrad"))
        out += struct.pack(
            "<5dB",
            options.getattr("lr"),
            betas[0],
            betas[1],
            options.getattr("eps"),
            options.getattr("weight_decay"),
            1 if amsgrad else 0,
        )
        count = int(group.getattr("params/size"))
        out += struct.pack("<I", count)
        for k in range(count):
            key = group.getattr(f"params/{k}")
            total += 1
            if not state.hasattr(key):
                out += struct.pack("<B", 0)
                continue
            with_state += 1
            s = state.getattr(key)
            out += struct.pack("<Bq", 1, int(s.getattr("step")))
            names = ["exp_avg", "exp_avg_sq"] + (["max_exp_avg_sq"] if amsgrad else [])
            for name in names:
                out += tensor_body(torch, s.getattr(name), FLOAT32)
    return out, with_state, total


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="a version 1 checkpoint you trust")
    parser.add_argument("target", help="where to write the version 2 checkpoint")
    parser.add_argument(
        "--optimizer",
        choices=["auto", "adam", "adamw", "drop"],
        default="auto",
        help="the kind of the saved optimizer state (auto: from the metadata), or drop it",
    )
    args = parser.parse_args()
    if os.path.abspath(args.source) == os.path.abspath(args.target):
        sys.exit("write the converted file under another name (keep the original until it is checked)")

    import torch  # Debian's python3-torch; imported late so that --help works without it

    meta, model, optim = read_v1(args.source)
    doc = json.loads(meta)
    dtype_code = FLOAT16 if doc.get("weights", "float32") == "float16" else FLOAT32
    new_model, tensor_count = model_section(torch, model, dtype_code)
    print(f"{args.source}: {tensor_count} tensors ({'float16' if dtype_code == FLOAT16 else 'float32'})")

    new_optim = b""
    if optim and args.optimizer == "drop":
        print("optimizer state dropped (--optimizer drop): a resumed run starts with a fresh optimizer")
    elif optim:
        kind_name = args.optimizer
        if kind_name == "auto":
            kind_name = "adamw" if doc.get("extra", {}).get("algorithm") == "alphazero" else "adam"
        new_optim, with_state, total = optimizer_section(torch, optim, ADAMW if kind_name == "adamw" else ADAM)
        print(f"optimizer state converted as {kind_name}: {with_state} of {total} parameters have state")

    header = struct.pack("<4Q", len(meta), len(new_model), len(new_optim), checksum(meta, new_model, new_optim))
    temp = args.target + ".tmp"
    with open(temp, "wb") as out:
        out.write(MAGIC_V2 + header + meta + new_model + new_optim)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, args.target)
    print(f"wrote {args.target}: {os.path.getsize(args.target)} bytes (was {os.path.getsize(args.source)})")


if __name__ == "__main__":
    main()
