#!/usr/bin/env python3
"""The Python side of scripts/load-serve.sh: a free port, waiting for the server, the URL list of the
load run, the wrk run itself (with the server's memory sampled while it runs) and the after-checks.

Usage (the server is started and stopped by the shell script; PID is its process id):
  load_serve.py port
  load_serve.py wait BASE PID [SECONDS]
  load_serve.py urls BASE OUT SEED ID...        (the first IDs get every tile of every level)
  load_serve.py wrk BASE PID LOG URLS LUA DURATION CONNECTIONS THREADS TIMEOUT CACHE_MB
  load_serve.py check BASE PID ID               (/healthz is 200 and a real tile of ID renders)
Each command exits 1 with its reasons on a failure.
"""
import http.client
import json
import math
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

TILE = 256


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def host_port(base):
    parsed = urllib.parse.urlsplit(base)
    return parsed.hostname, parsed.port


def alive(pid):
    """Whether the process runs (a zombie, dead but not yet waited for by the shell, counts as dead)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("State:"):
                    return "Z" not in line.split()[1]
    except OSError:
        return False
    return False


def proc_kib(pid, field):
    """A `VmRSS`/`VmHWM`-style field of /proc/PID/status in KiB, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def get(base, path, timeout=30):
    """(status, headers, body) of one GET on a fresh connection."""
    host, port = host_port(base)
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def identifier(name):
    return urllib.parse.quote(name, safe="")


def cmd_port(_args):
    print(free_port())


def cmd_wait(args):
    base, pid = args[0], int(args[1])
    deadline = time.monotonic() + (float(args[2]) if len(args) > 2 else 20)
    while time.monotonic() < deadline:
        if not alive(pid):
            sys.exit("the server exited before answering /healthz")
        try:
            if get(base, "/healthz", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit("the server did not answer /healthz in time")


# --- The URL list of the load run -------------------------------------------------------------------


def image_size(base, ident):
    status, _, body = get(base, f"/iiif/3/{ident}/info.json")
    if status != 200:
        sys.exit(f"info.json of {ident}: {status}")
    info = json.loads(body)
    return info["width"], info["height"], info["tiles"][0]["scaleFactors"]


def iiif_tiles(ident, width, height, factors):
    """Every tile of every scale factor, in the canonical form a IIIF viewer asks for."""
    for sf in factors:
        span = TILE * sf
        for y in range(0, height, span):
            for x in range(0, width, span):
                w, h = min(span, width - x), min(span, height - y)
                yield ident, (x, y, w, h), (math.ceil(w / sf), math.ceil(h / sf))


def dzi_tiles(ident, width, height):
    """Every tile of every Deep Zoom level (level maxLevel is the full image, each below halves it)."""
    max_level = max(0, math.ceil(math.log2(max(width, height))))
    for level in range(max_level + 1):
        div = 1 << (max_level - level)
        lw, lh = math.ceil(width / div), math.ceil(height / div)
        for row in range(math.ceil(lh / TILE)):
            for col in range(math.ceil(lw / TILE)):
                yield f"/dzi/{ident}_files/{level}/{col}_{row}.jpg"


def tile_url(rng, ident, region, size):
    """A tile's URL, most in the canonical form, some with another size form, rotation, quality or format."""
    x, y, w, h = region
    sw, sh = size
    pick = rng.random()
    if pick < 0.55:
        size_text = f"{sw},"
    elif pick < 0.65:
        size_text = f"{sw},{sh}"
    elif pick < 0.73:
        size_text = f"!{max(sw, sh)},{max(sw, sh)}"
    elif pick < 0.81:
        size_text = f",{sh}"
    elif pick < 0.87:
        size_text = "pct:50" if min(sw, sh) >= 2 else "max"
    elif pick < 0.93:
        size_text = f"^{min(2 * sw, 512)},"
    else:
        size_text = "max" if max(w, h) <= 1024 else f"{sw},"
    rotation = rng.choices(["0", "90", "180", "270", "!0", "!90", "360"], [70, 8, 6, 6, 4, 4, 2])[0]
    quality = rng.choices(["default", "color", "gray"], [80, 10, 10])[0]
    fmt = rng.choices(["jpg", "png"], [85, 15])[0]
    return f"/iiif/3/{ident}/{x},{y},{w},{h}/{size_text}/{rotation}/{quality}.{fmt}"


def cmd_urls(args):
    base, out, seed, names = args[0], args[1], int(args[2]), args[3:]
    rng = random.Random(seed)
    ids = [identifier(n) for n in names]
    sizes = {ident: image_size(base, ident) for ident in ids}
    cold = []
    # The first two (the largest) images: every IIIF tile of every level and every Deep Zoom tile.
    for ident in ids[:2]:
        width, height, factors = sizes[ident]
        cold += [tile_url(rng, *t) for t in iiif_tiles(ident, width, height, factors)]
        cold += list(dzi_tiles(ident, width, height))
    # The others: every Deep Zoom tile, the IIIF tiles of the two coarsest levels and a few whole-image sizes.
    for ident in ids[2:]:
        width, height, factors = sizes[ident]
        cold += list(dzi_tiles(ident, width, height))
        cold += [tile_url(rng, *t) for t in iiif_tiles(ident, width, height, factors[-2:])]
        for size in ("256,", "!200,200", "pct:25", "max" if width * height <= 1 << 20 else "512,"):
            cold.append(f"/iiif/3/{ident}/full/{size}/0/default.jpg")
        cold.append(f"/iiif/3/{ident}/square/128,/0/default.png")
    cold = sorted(set(cold))
    rng.shuffle(cold)
    # Warm: descriptors and a few tiles of each image, repeated so that they are about 40 % of the draws.
    hot = [f"/iiif/3/{ident}/info.json" for ident in ids] + [f"/dzi/{ident}.dzi" for ident in ids]
    hot += rng.sample(cold, min(24, len(cold)))
    repeats = max(1, round(0.4 * len(cold) / 0.6 / len(hot)))
    urls = cold + hot * repeats
    rng.shuffle(urls)
    with open(out, "w") as f:
        f.write("\n".join(urls) + "\n")
    print(f"URL list: {len(urls)} URLs, {len(cold)} distinct cold, {len(hot)} warm x {repeats}, "
          f"images {', '.join(f'{urllib.parse.unquote(i)} {sizes[i][0]}x{sizes[i][1]}' for i in ids)}")


# --- The wrk run ------------------------------------------------------------------------------------

UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def seconds(text):
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text)
    return float(m.group(1)) * UNITS[m.group(2)] if m else None


def parse_wrk(text):
    """The figures of wrk's report (with --latency) and of the Lua script's done()."""
    r = {"connect": 0, "read": 0, "write": 0, "timeout": 0, "non2xx3xx": 0}
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if m:
        r.update(connect=int(m[1]), read=int(m[2]), write=int(m[3]), timeout=int(m[4]))
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    if m:
        r["non2xx3xx"] = int(m[1])
    m = re.search(r"(\d+) requests in ([\d.]+\w+), ([\d.]+\w+) read", text)
    if m:
        r["requests"], r["elapsed"], r["read_bytes"] = int(m[1]), seconds(m[2]), m[3]
    m = re.search(r"Requests/sec:\s+([\d.]+)", text)
    if m:
        r["rps"] = float(m[1])
    dist = re.search(r"Latency Distribution\s*\n((?:[ \t]+\d+%[ \t]+\S+[ \t]*\n)+)", text)
    if dist:
        for pct, value in re.findall(r"(\d+)%\s+(\S+)", dist[1]):
            r[f"p{pct}"] = seconds(value)
    for line in text.splitlines():
        if line.startswith("load_serve statuses:"):
            r["statuses"] = dict(
                (k, int(v)) for k, v in (kv.split("=") for kv in line.split(":", 1)[1].split()))
        elif line.startswith("load_serve non-2xx:"):
            r["non2xx"] = int(line.split(":", 1)[1])
    return r


ACCESS = re.compile(r"^([A-Z]+) (\S+) (\d{3}) ")


def access_lines(log, wanted):
    """The server's access-log lines (`GET /path 200 123 B 4.5 ms`) whose status is `wanted`, the first of
    each method, path and status, with their counts."""
    found = {}
    with open(log, errors="replace") as f:
        for line in f:
            m = ACCESS.match(line)
            if m and wanted(int(m[3])):
                key = m.group(1, 2, 3)
                first, count = found.get(key, (line.rstrip("\n"), 0))
                found[key] = (first, count + 1)
    return [f"{first} (x{count})" for first, count in found.values()]


def ms(value):
    if value is None:
        return "?"
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def cmd_wrk(args):
    base, pid, log, urls, lua = args[0], int(args[1]), args[2], args[3], args[4]
    duration, connections, threads, timeout, cache_mb = (int(a) for a in args[5:10])
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", f"--timeout={timeout}s",
               "--latency", "-s", lua, base, "--", urls]
    print("+ " + " ".join(command), flush=True)
    samples, peak, stop = [], [0], threading.Event()

    def sample():
        while not stop.is_set():
            kib = proc_kib(pid, "VmRSS")
            if kib is not None:
                samples.append(kib)
                peak[0] = max(peak[0], kib)
            stop.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    started = time.monotonic()
    sampler.start()
    proc = subprocess.run(command, capture_output=True, text=True)
    stop.set()
    sampler.join()
    wall = time.monotonic() - started
    hwm = proc_kib(pid, "VmHWM")
    sys.stdout.write(proc.stdout)
    sys.stdout.write(proc.stderr)
    r = parse_wrk(proc.stdout)

    failures = []
    if proc.returncode != 0:
        failures.append(f"wrk exited {proc.returncode}")
    if "requests" not in r or r["requests"] == 0:
        failures.append("wrk made no requests")
    errors = sum(r[k] for k in ("connect", "read", "write", "timeout"))
    if errors:
        failures.append(f"socket errors: connect {r['connect']}, read {r['read']}, write {r['write']}, "
                        f"timeout {r['timeout']}")
    statuses = r.get("statuses", {})
    if "non2xx" not in r:
        failures.append("the Lua script's done() did not report")
    if r["non2xx3xx"] or r.get("non2xx"):
        failures.append(f"non-2xx responses: {r.get('non2xx')} (wrk: {r['non2xx3xx']} non-2xx or 3xx), "
                        f"by status {statuses}; in the server's log:")
        failures += [f"  {line}" for line in access_lines(log, lambda status: not 200 <= status < 300)[:20]]
    if not alive(pid):
        failures.append("the server died during the run")
    # The limit: the caches' budget, what renders held at their peak (work the server planned before allocating
    # it, bounded by --work-mb) and the blocks render threads keep between renders (/metrics), plus 64 MiB for
    # everything else. Unreadable /metrics leave the last two at 0.
    work_peak = kept = 0
    try:
        status, _, body = get(base, "/metrics")
        m = re.search(rb"^process_resident_memory_bytes (\d+)", body, re.M)
        metrics_rss = f"{int(m[1]) / 2**20:.1f} MiB" if status == 200 and m else f"status {status}"
        if status == 200:
            w = re.search(rb"^tileview_work_peak_bytes (\d+)", body, re.M)
            k = re.search(rb"^tileview_render_blocks_kept_bytes (\d+)", body, re.M)
            work_peak, kept = (int(w[1]) if w else 0), (int(k[1]) if k else 0)
    except OSError as e:
        metrics_rss = f"unreachable ({e})"
    limit_kib = (cache_mb + 64) * 1024 + (work_peak + kept) // 1024
    limit_text = (f"{cache_mb} + 64 MiB + work peak {work_peak / 2**20:.1f} MiB + kept blocks "
                  f"{kept / 2**20:.1f} MiB = {limit_kib / 1024:.1f} MiB")
    peak_kib = max(peak[0], hwm or 0)
    if peak_kib > limit_kib:
        failures.append(f"peak RSS {peak_kib / 1024:.1f} MiB > {limit_text}")

    print(f"requests: {r.get('requests', 0)} in {r.get('elapsed') or wall:.1f} s, by status {statuses}")
    print(f"latency: p50 {ms(r.get('p50'))}, p75 {ms(r.get('p75'))}, p90 {ms(r.get('p90'))}, "
          f"p99 {ms(r.get('p99'))}")
    print(f"server RSS: peak of {len(samples)} samples {peak[0] / 1024:.1f} MiB, VmHWM "
          f"{(hwm or 0) / 1024:.1f} MiB, after the run {samples[-1] / 1024 if samples else 0:.1f} MiB "
          f"(/metrics {metrics_rss}); limit {limit_text}")
    verdict = "FAIL" if failures else "ok"
    print(f"wrk {verdict}: {duration} s at {connections} connections, {r.get('requests', 0)} requests, "
          f"{r.get('rps', 0):.1f} req/s, p50 {ms(r.get('p50'))}, p99 {ms(r.get('p99'))}, "
          f"{errors} socket errors, {r.get('non2xx', '?')} non-2xx, peak RSS {peak_kib / 1024:.1f} MiB "
          f"(limit {limit_kib / 1024:.1f} MiB)")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)


# --- After a run --------------------------------------------------------------------------------------


def cmd_check(args):
    base, pid, ident = args[0], int(args[1]), identifier(args[2])
    failures = []
    if not alive(pid):
        sys.exit("the server is not running")
    try:
        status, _, body = get(base, "/healthz", timeout=10)
        if status != 200:
            failures.append(f"/healthz: {status} {body[:200]!r}")
        path = f"/iiif/3/{ident}/0,0,256,256/128,/0/default.jpg"
        status, headers, body = get(base, path, timeout=60)
        if status != 200 or not body.startswith(b"\xff\xd8") or headers.get("Content-Type") != "image/jpeg":
            failures.append(f"{path}: {status} {headers.get('Content-Type')} {body[:200]!r}")
    except OSError as e:
        failures.append(f"the server does not answer: {e!r}")
    if failures:
        sys.exit("after-check failed: " + "; ".join(failures))
    print("after-check ok: the server runs, /healthz 200, a tile renders")


def main():
    commands = {"port": cmd_port, "wait": cmd_wait, "urls": cmd_urls, "wrk": cmd_wrk, "check": cmd_check}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
