#!/usr/bin/env python3
"""How far tileview's frames of the colour corpus are from what a colour-managed sRGB display shows.

For each tagged file of Tests/Corpus/color (each FILE with a FILE.srgb.png beside it), renders the fit frame
of FILE and the fit frame of FILE.srgb.png (lcms2's sRGB rendering of it, made beforehand) with the same
tileview binary and viewport, and prints the CIEDE2000 difference between the two frames (mean, 99th
percentile by nearest rank, max) and their chroma ratio (mean C* of FILE's frame over mean C* of the
reference's frame: below 1, FILE is shown duller than it should be). docs/design.md section 14's oracle: mean <= 1
and p99 <= 4. Run through scripts/measure-color.sh. The colour maths is TileViewTestSupport's
ColorDifference (sRGB 8-bit -> linear -> XYZ D65 -> CIELAB D65 -> CIEDE2000), in numpy.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from color_corpus import read_png  # noqa: E402

RGB_TO_XYZ = np.array([
    [0.4124564, 0.3575761, 0.1804375],
    [0.2126729, 0.7151522, 0.0721750],
    [0.0193339, 0.1191920, 0.9503041],
])
WHITE = RGB_TO_XYZ.sum(axis=1)


def srgb8_to_lab(pixels):
    """(..., 3) uint8 sRGB -> (..., 3) CIELAB (D65)."""
    c = pixels.astype(np.float64) / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = lin @ RGB_TO_XYZ.T / WHITE
    d = 6.0 / 29
    f = np.where(xyz > d ** 3, np.cbrt(xyz), xyz / (3 * d * d) + 4.0 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def ciede2000(lab1, lab2):
    """CIEDE2000 (kL = kC = kH = 1) between arrays of CIELAB colours (..., 3)."""
    l1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    l2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1 = np.where((a1p == 0) & (b1 == 0), 0.0, np.degrees(np.arctan2(b1, a1p)) % 360)
    h2 = np.where((a2p == 0) & (b2 == 0), 0.0, np.degrees(np.arctan2(b2, a2p)) % 360)
    zero = c1p * c2p == 0
    dh = h2 - h1
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(zero, 0.0, dh)
    d_l = l2 - l1
    d_c = c2p - c1p
    d_h = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    h_sum = h1 + h2
    h_mean = np.where(
        zero, h_sum,
        np.where(np.abs(h1 - h2) <= 180, h_sum / 2, np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2)))
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    d_theta = 30 * np.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * np.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25.0 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -np.sin(np.radians(2 * d_theta)) * r_c
    tl, tc, th = d_l / s_l, d_c / s_c, d_h / s_h
    return np.sqrt(np.maximum(0.0, tl * tl + tc * tc + th * th + r_t * tc * th))


def statistics(frame, reference):
    """CIEDE2000 mean, p99 (nearest rank), max, and the chroma ratio of two RGB(A) 8-bit frames of one size;
    pixels with alpha 0 in either are skipped."""
    if frame.shape[:2] != reference.shape[:2]:
        raise ValueError(f"frames differ in size: {frame.shape} and {reference.shape}")

    def rgba(p):
        if p.shape[2] == 4:
            return p
        return np.concatenate([p, np.full(p.shape[:2] + (1,), 255, p.dtype)], axis=2)

    a, b = rgba(frame).reshape(-1, 4), rgba(reference).reshape(-1, 4)
    keep = (a[:, 3] != 0) & (b[:, 3] != 0)
    lab1, lab2 = srgb8_to_lab(a[keep, :3]), srgb8_to_lab(b[keep, :3])
    d = np.where(np.all(a[keep, :3] == b[keep, :3], axis=1), 0.0, ciede2000(lab1, lab2))
    if d.size == 0:
        return 0.0, 0.0, 0.0, 1.0
    d.sort()
    rank = (99 * d.size + 99) // 100
    # C* below 1e-9 is rounding noise of a neutral colour: counted as 0, so that two gray frames have ratio 1.
    def chroma(lab):
        c = np.hypot(lab[:, 1], lab[:, 2])
        return np.where(c < 1e-9, 0.0, c).sum()

    c1, c2 = chroma(lab1), chroma(lab2)
    ratio = c1 / c2 if c2 > 0 else (float("inf") if c1 > 0 else 1.0)
    return float(d.mean()), float(d[rank - 1]), float(d[-1]), float(ratio)


def render(tileview, path, viewport, out):
    """tileview's fit frame of `path`: (pixels or None, stderr)."""
    result = subprocess.run([tileview, "zoom", path, "--viewport", viewport, "-o", out],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        return None, f"exit {result.returncode}: {result.stderr.strip()}"
    return read_png(out)[0], result.stderr.strip()


def self_test():
    """Sharma, Wu and Dalal's pairs 1, 7, 11, 13, 17, 25 and 34 (the Swift tests type in all 34)."""
    pairs = [
        (50.0, 2.6772, -79.7751, 50.0, 0.0, -82.7485, 2.0425),
        (50.0, 0.0, 0.0, 50.0, -1.0, 2.0, 2.3669),
        (50.0, 2.49, -0.001, 50.0, -2.49, 0.0011, 7.2195),
        (50.0, -0.001, 2.49, 50.0, 0.0009, -2.49, 4.8045),
        (50.0, 2.5, 0.0, 73.0, 25.0, -18.0, 27.1492),
        (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
        (2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
    ]
    p = np.array(pairs)
    got = np.round(ciede2000(p[:, 0:3], p[:, 3:6]), 4)
    if not np.array_equal(got, p[:, 6]):
        raise SystemExit(f"CIEDE2000 self-test failed: {got} != {p[:, 6]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tileview", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--viewport", action="append", help="WxH (repeatable; default 256x192)")
    parser.add_argument("files", nargs="*", help="corpus file names (default: every tagged file)")
    args = parser.parse_args()
    self_test()
    viewports = args.viewport or ["256x192"]
    names = args.files or sorted(n[: -len(".srgb.png")] for n in os.listdir(args.corpus) if n.endswith(".srgb.png"))
    failures = 0
    with tempfile.TemporaryDirectory(prefix="measure-color-") as tmp:
        for viewport in viewports:
            print(f"\nviewport {viewport} (fit frames), tileview {args.tileview}\n")
            print("| file | CIEDE2000 mean | p99 | max | chroma ratio | oracle (mean <= 1, p99 <= 4) | stderr |")
            print("|---|---:|---:|---:|---:|---|---|")
            frames = {}
            for name in names:
                path = os.path.join(args.corpus, name)
                frame, err = render(args.tileview, path, viewport, os.path.join(tmp, "a.png"))
                ref, ref_err = render(args.tileview, path + ".srgb.png", viewport, os.path.join(tmp, "b.png"))
                note = err.replace("\n", " / ").replace("|", "/") if err else ""
                if frame is None or ref is None:
                    failures += 1
                    print(f"| {name} | | | | | error | {note or ref_err} |")
                    continue
                frames[name] = frame
                mean, p99, worst, ratio = statistics(frame, ref)
                ok = mean <= 1 and p99 <= 4
                failures += 0 if ok else 1
                print(f"| {name} | {mean:.3f} | {p99:.3f} | {worst:.3f} | {ratio:.3f} | {'pass' if ok else 'FAIL'} "
                      f"| {note} |")
            untagged, _ = render(args.tileview, os.path.join(args.corpus, "untagged.jpg"), viewport,
                                 os.path.join(tmp, "u.png"))
            for name in ["srgb-tagged.jpg", "truncated-profile.jpg"]:
                if name in frames and untagged is not None:
                    same = frames[name].shape == untagged.shape and np.array_equal(frames[name], untagged)
                    print(f"\n{name} and untagged.jpg: {'identical frames' if same else 'frames DIFFER'}", end="")
            print()
    print(f"\n{failures} file(s) outside the oracle" if failures else "\nevery file within the oracle")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
