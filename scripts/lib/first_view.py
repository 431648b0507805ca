#!/usr/bin/env python3
"""A never-seen first view against the floor of one entropy pass, for scripts/bench-first-view.sh.

For each image and each tileview binary (alternating, RUNS fresh starts each): start `tileview serve` on a folder
holding the image with no disk cache (`--cache-dir none`), wait for /healthz, then ask for every 256 px IIIF tile
of the levels that fit 1024x768 (coarsest first) on two connections at once, as a viewer opening the image does;
the time from the first request to the last answer. The floor, in the same run: for a JPEG `djpeg -scale 1/8` of the
file (hyperfine), libjpeg's own 1/8 decode, one entropy pass, which the coarse levels need; for a PNG one inflate of
its IDAT data (zlib, in this process), which every pixel needs.
Prints a markdown table of medians and ratios to the floor.
Usage: first_view.py FOLDER RUNS BINARY[,BINARY...] IMAGE[,IMAGE...]
"""
import http.client
import json
import math
import statistics
import subprocess
import sys
import threading
import time
import zlib

from bench_serve import get
from load_serve import free_port

FIT = (1024, 768)
CONNECTIONS = 2


def image_size(path):
    """(width, height) from a JPEG's SOF marker or a PNG's IHDR."""
    data = open(path, "rb").read()
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    i = 2
    while i + 9 < len(data):
        marker, length = data[i + 1], data[i + 2] << 8 | data[i + 3]
        if marker in (0xC0, 0xC1, 0xC2):
            return data[i + 7] << 8 | data[i + 8], data[i + 5] << 8 | data[i + 6]
        i += 2 + length
    raise ValueError(f"{path}: no SOF marker")


def first_view_tiles(width, height):
    """(region, size) of every 256 px tile of the levels no larger than FIT, coarsest level first."""
    tiles = []
    for scale in (64, 32, 16, 8, 4, 2, 1):
        if math.ceil(width / scale) <= FIT[0] and math.ceil(height / scale) <= FIT[1]:
            span = 256 * scale
            for y in range(0, height, span):
                for x in range(0, width, span):
                    w, h = min(span, width - x), min(span, height - y)
                    tiles.append(f"{x},{y},{w},{h}/{math.ceil(w / scale)},")
    return tiles


def first_view(binary, folder, image, tiles):
    port = free_port()
    server = subprocess.Popen(
        [binary, "serve", folder, "--host", "127.0.0.1", "--port", str(port), "--cache-dir", "none",
         "--index-workers", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if get(port, "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"{binary} did not start")
            time.sleep(0.002)
        paths = [f"/iiif/3/{image}/{tile}/0/default.jpg" for tile in tiles]
        failures = []

        def fetch(share):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            for path in share:
                conn.request("GET", path)
                response = conn.getresponse()
                body = response.read()
                if response.status != 200 or body[:2] != b"\xff\xd8":
                    failures.append(f"{path}: HTTP {response.status}")
            conn.close()

        start = time.perf_counter()
        threads = [threading.Thread(target=fetch, args=(paths[k::CONNECTIONS],)) for k in range(CONNECTIONS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - start
        if failures:
            raise RuntimeError(f"{binary}: {failures[0]}")
        return elapsed
    finally:
        server.terminate()
        server.wait()


def floor(path, runs):
    if path.endswith(".png"):
        data = open(path, "rb").read()
        idat, i = bytearray(), 8
        while i < len(data):
            length = int.from_bytes(data[i:i + 4], "big")
            if data[i + 4:i + 8] == b"IDAT":
                idat += data[i + 8:i + 8 + length]
            i += 12 + length
        times = []
        for _ in range(max(runs, 5)):
            start = time.perf_counter()
            zlib.decompress(bytes(idat))
            times.append(time.perf_counter() - start)
        return statistics.median(times)
    out = subprocess.run(
        ["hyperfine", "-N", "--style", "none", "--warmup", "2", "--runs", str(max(runs, 10)), "--export-json",
         "/dev/stdout", f"djpeg -scale 1/8 -outfile /dev/null {path}"], capture_output=True, text=True, check=True)
    return statistics.median(json.loads(out.stdout[out.stdout.index("{"):])["results"][0]["times"])


def main():
    folder, runs, binaries, images = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4].split(",")
    print("| image | tiles | floor (JPEG: djpeg -scale 1/8; PNG: inflate), ms | " + " | ".join(
        f"{b}: first view, ms (ratio)" for b in binaries) + " |")
    print("|---|---:|---:|" + "---:|" * len(binaries))
    for image in images:
        path = f"{folder}/{image}"
        tiles = first_view_tiles(*image_size(path))
        times = {b: [] for b in binaries}
        for run in range(runs):
            for b in (binaries if run % 2 == 0 else binaries[::-1]):
                times[b].append(first_view(b, folder, image, tiles))
        base = floor(path, runs)
        cells = [f"{statistics.median(times[b]) * 1000:.1f} ({statistics.median(times[b]) / base:.2f})"
                 for b in binaries]
        print(f"| {image} | {len(tiles)} | {base * 1000:.1f} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
