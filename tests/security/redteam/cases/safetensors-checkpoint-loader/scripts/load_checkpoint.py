#!/usr/bin/env python3
"""Load checkpoints without executing code; convert to safetensors."""
import argparse
import os
import sys

REFUSE = (".pkl", ".pickle", ".joblib")


def load(path):
    ext = os.path.splitext(path)[1].lower()
    if ext in REFUSE:
        raise SystemExit(f"refusing to load {ext}: raw pickle can execute arbitrary code")
    if ext == ".safetensors":
        from safetensors.torch import load_file
        return load_file(path)
    import torch
    with open(path, "rb") as fh:
        magic = fh.read(2)
    if magic[:1] == b"\x80":
        print("note: legacy raw-pickle torch file; loading with weights_only=True", file=sys.stderr)
    obj = torch.load(path, map_location="cpu", weights_only=True)
    if isinstance(obj, dict) and "state_dict" in obj:
        obj = obj["state_dict"]
    return obj


def summary(sd):
    import torch
    tensors = {k: v for k, v in sd.items() if isinstance(v, torch.Tensor)}
    total = sum(t.numel() for t in tensors.values())
    dtypes = sorted({str(t.dtype) for t in tensors.values()})
    print(f"tensors: {len(tensors)}  parameters: {total:,}  dtypes: {', '.join(dtypes)}")
    for k in list(tensors)[:20]:
        print(f"  {k}: {tuple(tensors[k].shape)}")


def convert(sd, out):
    import torch
    from safetensors.torch import save_file
    seen, clean = {}, {}
    for k, v in sd.items():
        if not isinstance(v, torch.Tensor):
            continue
        ptr = v.untyped_storage().data_ptr()
        clean[k] = v.clone().contiguous() if ptr in seen else v.contiguous()
        seen[ptr] = k
    save_file(clean, out, metadata={"format": "pt"})
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--convert", metavar="OUT")
    a = ap.parse_args()
    sd = load(a.path)
    if a.summary or not a.convert:
        summary(sd)
    if a.convert:
        convert(sd, a.convert)


if __name__ == "__main__":
    main()
