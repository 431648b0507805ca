#!/usr/bin/env python3
"""Picture quality of tileview's frames against a reference resample, as PSNR in dB.

For each case, `tileview zoom --json -o frame.png` gives the frame and the zoom state. The
reference is the full decode (Pillow, EXIF orientation applied) resampled with Lanczos from the
exact image rect that the frame's fully covered pixels show (Pillow's resize with a float box).
PSNR is computed over R, G and B of those pixels. The target is at least 35 dB on photos, at fit,
after taps, and enlarged past 1:1 with --max-scale 4. Exits 1 when a case is under the target.

Usage: scripts/check-quality.py [TILEVIEW] (default .build/release/tileview; needs Pillow, numpy)
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageOps

Image.MAX_IMAGE_PIXELS = None
TARGET_DB = 35.0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cases():
    bench = os.path.join(ROOT, "bench-images")
    samples = os.path.join(ROOT, "SampleImages")
    out = []
    for name in ("photo-6000x4000.jpg", "photo-6000x4000.png", "photo-12000x8000.jpg"):
        path = os.path.join(bench, name)
        if os.path.exists(path):
            out += [
                (path, "1024x768", [], "fit"),
                (path, "1024x768", ["--tap", "120,80"], "tap 120,80"),
                (path, "1024x768", ["--tap", "512,384", "--tap", "300,500"], "two taps"),
                (path, "800x600", ["--max-scale", "4", "--gesture", "zoom-to 2500,1500,100,75"], "4x past 1:1"),
            ]
    for name in ("retina.jpg", "hubble_deep_field.jpg", "coffee.png", "astronaut.png"):
        path = os.path.join(samples, name)
        out += [
            (path, "400x300", [], "fit"),
            (path, "400x300", ["--tap", "200,150"], "tap"),
            (path, "400x300", ["--max-scale", "4", "--tap", "200,150", "--tap", "200,150", "--tap", "200,150",
                               "--tap", "200,150", "--tap", "200,150"], "taps to 4x"),
        ]
    return out


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * math.log10(255.0 ** 2 / mse)


def main():
    tileview = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/tileview")
    failures = 0
    decoded = {}
    print(f"{'image':<24} {'viewport':<9} {'case':<12} {'scale':>8} {'PSNR dB':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for path, viewport, args, label in cases():
            frame_path = os.path.join(tmp, "frame.png")
            state = json.loads(subprocess.run(
                [tileview, "zoom", path, "--viewport", viewport, "--json", "-o", frame_path] + args,
                check=True, capture_output=True, text=True).stdout)
            if path not in decoded:
                decoded[path] = ImageOps.exif_transpose(Image.open(path)).convert("RGB")
            full = decoded[path]
            s = state["zoomScale"]
            f = state["imageFrame"]
            w, h = state["viewport"]["width"], state["viewport"]["height"]
            # Frame pixels wholly inside the image frame.
            px0, py0 = math.ceil(max(0, f["x"]) - 1e-6), math.ceil(max(0, f["y"]) - 1e-6)
            px1 = math.floor(min(w, f["x"] + f["width"]) + 1e-6)
            py1 = math.floor(min(h, f["y"] + f["height"]) + 1e-6)
            W, H = full.size
            box = (max(0.0, (px0 - f["x"]) / s), max(0.0, (py0 - f["y"]) / s),
                   min(W, (px1 - f["x"]) / s), min(H, (py1 - f["y"]) / s))
            reference = full.resize((px1 - px0, py1 - py0), Image.Resampling.LANCZOS, box=box)
            frame = Image.open(frame_path).convert("RGB").crop((px0, py0, px1, py1))
            value = psnr(np.asarray(frame), np.asarray(reference))
            ok = value >= TARGET_DB
            failures += not ok
            print(f"{os.path.basename(path):<24} {viewport:<9} {label:<12} {s:>8.4f} {value:>8.2f}"
                  + ("" if ok else "  UNDER TARGET"))
    print(f"target: at least {TARGET_DB} dB; {failures} case(s) under it")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
