#!/usr/bin/env python3
"""The measuring half of scripts/bench-serve.sh: tileview serve against iipsrv over IIIF, one run.

The shell script builds tileview, makes the pyramid TIFFs iipsrv needs, writes lighttpd.conf and hands
this script a JSON file naming the two server commands, their ports, the images and the settings. This
script starts and stops the servers (each in its own session, so that lighttpd's iipsrv processes go
with it), measures, and prints markdown tables on standard output (progress goes to standard error):

  warm tiles/s      one sequential pass over every level-0 tile of the warm image, then wrk at each
                    connection count RUNS times, the two servers alternating, with a Lua script that
                    cycles through the level-0 tile paths; median requests/s, and wrk's socket errors
                    and non-2xx/3xx responses summed over the runs
  time to first tile  from just before the server process is started to the first 200 for the centre
                    full-resolution tile (polling while the port refuses); median of RUNS fresh starts
  cold latency      per image and level, a fresh server, then every tile of the level once in a seeded
                    random order, sequential requests on one keep-alive connection, timed client side
                    from sending the request to reading the last byte of the body; p50 and p99
  first view        per image, a fresh server, then every tile of every level no larger than 1024x768
                    (what a viewer at fit asks for first: the fit level and the coarser ones), on two
                    keep-alive connections at once; from the first request to the last tile's last byte,
                    median of RUNS fresh starts per server
  peak RSS          VmHWM summed over the server's processes (lighttpd and its iipsrv processes),
                    read just before the server is stopped; the warm instance, and the largest over
                    the cold instances of each image

Every tile must come back 200 with a body that starts FF D8 (a JPEG); anything else is counted as an
error, the first few are printed, and the exit status is 1 when any error was seen.

Usage: bench_serve.py CONFIG.json
"""
import ctypes
import http.client
import json
import math
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

from load_serve import proc_kib

TILE = 256
SIDES = ("tileview", "iipsrv")


def log(message):
    print(message, file=sys.stderr, flush=True)


# --- processes -------------------------------------------------------------------------------------


def live_processes():
    """{pid: parent pid} of every process that is not a zombie."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    return parents


def process_tree(root):
    """The pids of root and all its descendants that are still alive (not zombies)."""
    parents = live_processes()
    tree, frontier = set(), [root] if root in parents else []
    while frontier:
        pid = frontier.pop()
        tree.add(pid)
        frontier.extend(p for p, parent in parents.items() if parent == pid and p not in tree)
    return tree


class Server:
    """One server instance: started in a session of its own, stopped with its whole process tree."""

    running = {}  # pid -> Server, for the clean-up on the way out
    pid_file = None

    def __init__(self, side, spec, log_path):
        self.side, self.spec, self.port = side, spec, spec["port"]
        self.log_path = log_path
        self.started = time.perf_counter()
        with open(log_path, "wb") as out:
            self.proc = subprocess.Popen(spec["command"], stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        Server.running[self.proc.pid] = self
        Server.save_pids()

    @classmethod
    def save_pids(cls):
        try:
            with open(cls.pid_file, "w") as f:
                f.write("".join(f"{pid}\n" for pid in cls.running))
        except OSError:  # the shell script's clean-up got there first
            pass

    def check_alive(self):
        if self.proc.poll() is not None:
            with open(self.log_path, errors="replace") as f:
                tail = f.read()[-2000:]
            raise RuntimeError(f"{self.side} exited with status {self.proc.returncode}:\n{tail}")

    def peak_rss_mib(self):
        return sum(proc_kib(pid, "VmHWM") or 0 for pid in process_tree(self.proc.pid)) / 1024

    def stop(self):
        others = process_tree(self.proc.pid) - {self.proc.pid}
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            log(f"{self.side} did not stop within 15 s of SIGTERM: killing it")
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        reap(others)  # lighttpd's iipsrv processes, orphaned to this process
        for pid in others & set(live_processes()):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        reap(others)
        Server.running.pop(self.proc.pid, None)
        Server.save_pids()


def become_subreaper():
    """Adopt orphaned grandchildren (the iipsrv processes once lighttpd exits) so they can be reaped."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def reap(pids, timeout=5.0):
    deadline = time.monotonic() + timeout
    pending = set(pids)
    while pending and time.monotonic() < deadline:
        for pid in list(pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not ours (no subreaper) or already gone
                pending.discard(pid)
                continue
            if done:
                pending.discard(pid)
        if pending:
            time.sleep(0.01)


# --- HTTP ------------------------------------------------------------------------------------------


def get(port, path, timeout=60):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def wait_for(server, path, ok, timeout=60.0):
    """Polls path until ok(status); returns the seconds since the server process was started, the
    status and the body of that answer."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        server.check_alive()
        try:
            status, body = get(server.port, path)
            if ok(status):
                return time.perf_counter() - server.started, status, body
            last = f"HTTP {status}: {body[:200]!r}"
        except (ConnectionRefusedError, ConnectionResetError, http.client.RemoteDisconnected):
            pass
        time.sleep(0.001)
    raise RuntimeError(f"{server.side} did not answer {path} within {timeout:.0f} s (last: {last})")


def is_jpeg_tile(status, body):
    return status == 200 and body[:2] == b"\xff\xd8"


class Errors:
    """Counts bad tiles per side and keeps the first few for the report."""

    def __init__(self):
        self.count = {side: 0 for side in SIDES}
        self.examples = []

    def add(self, side, path, what):
        self.count[side] += 1
        if len(self.examples) < 5:
            self.examples.append(f"{side} {path}: {what}")


def sequential_pass(server, paths, errors):
    """Requests paths in order on one keep-alive connection; returns the seconds of each request."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    conn.connect()
    seconds = []
    try:
        for path in paths:
            start = time.perf_counter()
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read()
            seconds.append(time.perf_counter() - start)
            if not is_jpeg_tile(response.status, body):
                errors.add(server.side, path, f"HTTP {response.status}, {body[:120]!r}")
    finally:
        conn.close()
    return seconds


def percentile(values, p):
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


# --- the tile grid ---------------------------------------------------------------------------------


def tile_grid(width, height, scale):
    """The IIIF tiles (region, size) of one scale factor, 256 px tiles, row by row."""
    span = TILE * scale
    tiles = []
    for y in range(0, height, span):
        for x in range(0, width, span):
            w, h = min(span, width - x), min(span, height - y)
            tiles.append((f"{x},{y},{w},{h}", f"{math.ceil(w / scale)},"))
    return tiles


def tile_path(spec, identifier, region, size):
    return spec["tile"].format(id=identifier, region=region, size=size)


def tile_grids(config, image):
    """Asks both servers' info.json, checks they agree, returns {scale: [(region, size)]}."""
    infos = {}
    for side in SIDES:
        spec = config["servers"][side]
        server = Server(side, spec, f"{config['out']}/{side}-info.log")
        try:
            wait_for(server, spec["ready"], lambda status: status < 500)
            path = spec["info"].format(id=image["ids"][side])
            status, body = get(spec["port"], path)
            if status != 200:
                raise RuntimeError(f"{side} {path}: HTTP {status} {body[:200]!r}")
            infos[side] = json.loads(body)
        finally:
            server.stop()
    sizes = {(i["width"], i["height"]) for i in infos.values()}
    if len(sizes) != 1:
        raise RuntimeError(f"{image['label']}: the servers disagree on the size: {sizes}")
    scales = None
    for side, info in infos.items():
        grid = [t for t in info.get("tiles", []) if t["width"] == TILE and t.get("height", TILE) == TILE]
        if not grid:
            raise RuntimeError(f"{side} does not advertise {TILE} px tiles for {image['label']}: {info}")
        mine = set(grid[0]["scaleFactors"])
        scales = mine if scales is None else scales & mine
    width, height = sizes.pop()
    return width, height, {s: tile_grid(width, height, s) for s in sorted(scales)}


# --- wrk -------------------------------------------------------------------------------------------


WRK_LUA = """-- Cycles through the level-0 tile paths, each wrk thread from its own starting point.
local paths = {
%s
}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("start", counter * 7919)
end
function init(args)
  i = start or 0
end
function request()
  i = i %% #paths + 1
  return wrk.format("GET", paths[i])
end
"""


def write_lua(path, paths):
    with open(path, "w") as f:
        f.write(WRK_LUA % ",\n".join(json.dumps(p) for p in paths))


WRK_ERRORS = ("connect", "read", "write", "timeout", "non-2xx/3xx")


def run_wrk(config, port, lua, connections):
    """Requests/s and {kind: count} of wrk's errors (WRK_ERRORS)."""
    threads = max(1, min(config["wrk_threads"], connections))
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{config['duration']}s", "--latency",
               "-s", lua, f"http://127.0.0.1:{port}"]
    if config.get("wrk_timeout"):
        command[1:1] = ["--timeout", f"{config['wrk_timeout']}s"]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"wrk failed ({out.returncode}): {out.stderr or out.stdout}")
    text = out.stdout
    rate = re.search(r"Requests/sec:\s*([\d.]+)", text)
    if not rate:
        raise RuntimeError(f"no Requests/sec in wrk's output:\n{text}")
    errors = dict.fromkeys(WRK_ERRORS, 0)
    socket_line = re.search(r"Socket errors:(.*)", text)  # only there when there were some
    if socket_line:
        errors.update((kind, int(n)) for kind, n in re.findall(r"(\w+) (\d+)", socket_line.group(1)))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", text)
    errors["non-2xx/3xx"] = int(non2xx.group(1)) if non2xx else 0
    return float(rate.group(1)), errors


def describe_errors(errors):
    return ", ".join(f"{kind} {n}" for kind, n in errors.items() if n) or "0"


# --- the benchmark ---------------------------------------------------------------------------------


def warm_throughput(config, image, grid, errors, results):
    level0 = grid[1]
    servers = {}
    try:
        for side in SIDES:
            spec = config["servers"][side]
            servers[side] = Server(side, spec, f"{config['out']}/{side}-warm.log")
            wait_for(servers[side], spec["ready"], lambda status: status < 500)
            paths = [tile_path(spec, image["ids"][side], r, s) for r, s in level0]
            log(f"warm: one pass over the {len(paths)} level-0 tiles of {image['label']} on {side}")
            sequential_pass(servers[side], paths, errors)
            write_lua(f"{config['out']}/{side}-tiles.lua", paths)
        for connections in config["connections"]:
            rates = {side: [] for side in SIDES}
            bad = {side: dict.fromkeys(WRK_ERRORS, 0) for side in SIDES}
            for run in range(config["runs"]):
                for side in (SIDES if run % 2 == 0 else SIDES[::-1]):
                    rate, wrk_errors = run_wrk(
                        config, servers[side].port, f"{config['out']}/{side}-tiles.lua", connections)
                    log(f"wrk {side} {connections} connections run {run + 1}: {rate:,.0f} tiles/s"
                        f" (errors: {describe_errors(wrk_errors)})")
                    rates[side].append(rate)
                    for kind, n in wrk_errors.items():
                        bad[side][kind] += n
            results["warm"].append({"connections": connections,
                                    "rate": {s: statistics.median(rates[s]) for s in SIDES},
                                    "bad": bad})
        results["warm_rss"] = {side: servers[side].peak_rss_mib() for side in SIDES}
        results["warm_tiles"] = len(level0)
    finally:
        for server in servers.values():
            server.stop()


def centre_tile(width, height, level0):
    """The level-0 tile (region, size) that holds the centre of the image."""
    for region, size in level0:
        x, y, w, h = map(int, region.split(","))
        if x <= width // 2 < x + w and y <= height // 2 < y + h:
            return region, size
    raise ValueError("no tile holds the centre")


def fresh_starts(config, name, measure):
    """RUNS fresh starts of each server, alternating; measure(side, spec, server) returns seconds. The
    median per side."""
    times = {side: [] for side in SIDES}
    for run in range(config["runs"]):
        for side in (SIDES if run % 2 == 0 else SIDES[::-1]):
            spec = config["servers"][side]
            server = Server(side, spec, f"{config['out']}/{side}-{name}.log")
            try:
                times[side].append(measure(side, spec, server))
            finally:
                server.stop()
    return {side: statistics.median(times[side]) for side in SIDES}


def first_tile(config, image, width, height, grid, errors):
    region, size = centre_tile(width, height, grid[1])

    def measure(side, spec, server):
        path = tile_path(spec, image["ids"][side], region, size)
        seconds, status, body = wait_for(server, path, lambda status: status < 500)
        if not is_jpeg_tile(status, body):
            errors.add(side, path, f"HTTP {status}, {body[:120]!r}")
        return seconds

    return fresh_starts(config, "first", measure)


FIRST_VIEW = (1024, 768)
FIRST_VIEW_CONNECTIONS = 2


def first_view_scales(width, height, grid):
    """The scale factors of the levels no larger than FIRST_VIEW."""
    return [s for s in sorted(grid)
            if math.ceil(width / s) <= FIRST_VIEW[0] and math.ceil(height / s) <= FIRST_VIEW[1]]


def first_view(config, image, width, height, grid, errors):
    scales = first_view_scales(width, height, grid)
    tiles = [tile for s in sorted(scales, reverse=True) for tile in grid[s]]

    def measure(side, spec, server):
        wait_for(server, spec["ready"], lambda status: status < 500)
        paths = [tile_path(spec, image["ids"][side], r, size) for r, size in tiles]
        shares = [paths[k::FIRST_VIEW_CONNECTIONS] for k in range(FIRST_VIEW_CONNECTIONS)]
        start = time.perf_counter()
        threads = [threading.Thread(target=sequential_pass, args=(server, share, errors)) for share in shares]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return time.perf_counter() - start

    times = fresh_starts(config, "view", measure)
    cached = config["servers"].get("tileview-cached") or {}
    if cached.get("command"):
        # A fresh server reading the disk cache `tileview index` filled: a restart, or a first view after indexing.
        runs = []
        for _ in range(config["runs"]):
            server = Server("tileview", cached, f"{config['out']}/tileview-view-cached.log")
            try:
                runs.append(measure("tileview", cached, server))
            finally:
                server.stop()
        times["tileview-cached"] = statistics.median(runs)
    log(f"first view {image['label']} ({len(tiles)} tiles of scales {scales}): "
        + ", ".join(f"{side} {times[side] * 1000:.0f} ms" for side in times))
    return {"tiles": len(tiles), "scales": scales, "time": times}


def cold_levels(config, image, grid, errors):
    rows, rss = [], {side: 0.0 for side in SIDES}
    scales = sorted(grid)
    chosen = image.get("levels")
    for level, scale in enumerate(scales):
        if chosen is not None and level not in chosen:
            continue
        tiles = list(grid[scale])
        random.Random(f"{config['seed']}/{image['key']}/{scale}").shuffle(tiles)
        stats = {}
        for side in (SIDES if level % 2 == 0 else SIDES[::-1]):
            spec = config["servers"][side]
            server = Server(side, spec, f"{config['out']}/{side}-cold.log")
            try:
                wait_for(server, spec["ready"], lambda status: status < 500)
                paths = [tile_path(spec, image["ids"][side], r, s) for r, s in tiles]
                seconds = sequential_pass(server, paths, errors)
                rss[side] = max(rss[side], server.peak_rss_mib())
            finally:
                server.stop()
            stats[side] = (percentile(seconds, 50), percentile(seconds, 99))
            log(f"cold {image['label']} level {level} ({len(tiles)} tile(s)) {side}: "
                f"p50 {stats[side][0] * 1000:.1f} ms, p99 {stats[side][1] * 1000:.1f} ms")
        rows.append({"level": level, "scale": scale, "tiles": len(tiles), "stats": stats})
    return rows, rss


# --- the report ------------------------------------------------------------------------------------


def ratio(a, b):
    if not b:
        return "–"
    r = a / b
    return f"{r:.1f}" if r >= 10 else f"{r:.2f}"


def ms(seconds):
    value = seconds * 1000
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def report(config, results, errors):
    out = []
    row = lambda *cells: out.append("| " + " | ".join(str(c) for c in cells) + " |")
    row("measure", "tileview", "iipsrv", "tileview / iipsrv")
    out.append("|---|---:|---:|---:|")
    warm_label = results.get("warm_label")
    for w in results["warm"]:
        rate = w["rate"]
        row(f"warm tiles/s, {w['connections']} connections ({warm_label}, {results['warm_tiles']} "
            f"level-0 tiles) ↑", f"{rate['tileview']:,.0f}", f"{rate['iipsrv']:,.0f}",
            ratio(rate["tileview"], rate["iipsrv"]))
    for w in results["warm"]:
        row(f"wrk errors (socket, non-2xx/3xx), {w['connections']} connections, all runs",
            describe_errors(w["bad"]["tileview"]), describe_errors(w["bad"]["iipsrv"]), "")
    if "warm_rss" in results:
        rss = results["warm_rss"]
        row("peak RSS MiB, warm run ↓", f"{rss['tileview']:.1f}", f"{rss['iipsrv']:.1f}",
            ratio(rss["tileview"], rss["iipsrv"]))
    for image in results["images"]:
        label = image["label"]
        first = image["first"]
        row(f"time to first tile ms, {label} (start → 200, centre level-0 tile) ↓",
            ms(first["tileview"]), ms(first["iipsrv"]), ratio(first["tileview"], first["iipsrv"]))
        view = image["view"]
        row(f"first view ms, {label} ({view['tiles']} tiles of the levels at most {FIRST_VIEW[0]}x{FIRST_VIEW[1]}, "
            f"scales {', '.join(f'1/{s}' for s in view['scales'])}, {FIRST_VIEW_CONNECTIONS} connections) ↓",
            ms(view["time"]["tileview"]), ms(view["time"]["iipsrv"]),
            ratio(view["time"]["tileview"], view["time"]["iipsrv"]))
        if "tileview-cached" in view["time"]:
            row(f"first view ms, {label}, after `tileview index` (a fresh server reading its disk cache) ↓",
                ms(view["time"]["tileview-cached"]), ms(view["time"]["iipsrv"]),
                ratio(view["time"]["tileview-cached"], view["time"]["iipsrv"]))
        for level in image["cold"]:
            st = level["stats"]
            row(f"cold p50 / p99 ms, {label}, level {level['level']} (1/{level['scale']}, "
                f"{level['tiles']} tile{'s' if level['tiles'] > 1 else ''}) ↓",
                f"{ms(st['tileview'][0])} / {ms(st['tileview'][1])}",
                f"{ms(st['iipsrv'][0])} / {ms(st['iipsrv'][1])}",
                f"{ratio(st['tileview'][0], st['iipsrv'][0])} / {ratio(st['tileview'][1], st['iipsrv'][1])}")
        if image["cold"]:
            rss = image["cold_rss"]
            row(f"peak RSS MiB, cold passes, {label} (largest instance) ↓", f"{rss['tileview']:.1f}",
                f"{rss['iipsrv']:.1f}", ratio(rss["tileview"], rss["iipsrv"]))
    row("tiles that were not a 200 JPEG (warm pass, first tile, first view, cold passes)",
        errors.count["tileview"], errors.count["iipsrv"], "")
    out.append("")
    out.append("Ratios are tileview / iipsrv (↑ higher is better, ↓ lower is better). p99 is the nearest "
               "rank: for a level of fewer than 100 tiles it is the slowest tile. Peak RSS is VmHWM, "
               "summed over lighttpd and its iipsrv processes.")
    out.append("")
    out.append("Pre-processing a static tile server needs first (tileview serves the file as it is), "
               f"median of {config['prep_runs']} run(s):")
    out.append("")
    out.append("| image | vips tiffsave pyramid TIFF s (for iipsrv) | vips dzsave static pyramid s | "
               "tileview index s (optional: the disk cache of first views) | index / tiffsave |")
    out.append("|---|---:|---:|---:|---:|")
    for image in config["images"]:
        prep = image["prep"]
        index = statistics.median(prep["index"]) if prep.get("index") else None
        if not prep["tiffsave"]:
            # A pyramid TIFF both servers read as it is.
            if index is not None:
                out.append(f"| {image['label']} | - | - | {index:.2f} | - |")
            continue
        tiffsave = statistics.median(prep["tiffsave"])
        out.append(f"| {image['label']} | {tiffsave:.2f} | {statistics.median(prep['dzsave']):.2f} | "
                   f"{'-' if index is None else f'{index:.2f}'} | "
                   f"{'-' if index is None else ratio(index, tiffsave)} |")
    return "\n".join(out)


def main():
    config = json.load(open(sys.argv[1]))
    Server.pid_file = f"{config['out']}/servers.pid"
    become_subreaper()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    errors = Errors()
    results = {"warm": [], "images": []}
    try:
        grids = {}
        for image in config["images"]:
            width, height, grid = grids[image["key"]] = tile_grids(config, image)
            log(f"{image['label']}: {width}x{height}, scale factors both advertise: {sorted(grid)}")
        warm = next(i for i in config["images"] if i["key"] == config["warm_image"])
        results["warm_label"] = warm["label"]
        warm_throughput(config, warm, grids[warm["key"]][2], errors, results)
        for image in config["images"]:
            width, height, grid = grids[image["key"]]
            log(f"time to first tile: {image['label']}, {config['runs']} fresh starts per server")
            first = first_tile(config, image, width, height, grid, errors)
            view = first_view(config, image, width, height, grid, errors)
            cold, rss = cold_levels(config, image, grid, errors)
            results["images"].append({"label": image["label"], "first": first, "view": view, "cold": cold,
                                      "cold_rss": rss})
    finally:
        for server in list(Server.running.values()):
            server.stop()
    print(report(config, results, errors))
    if errors.examples:
        log("bad tiles (first few):\n  " + "\n  ".join(errors.examples))
    wrk_bad = sum(sum(w["bad"][s].values()) for w in results["warm"] for s in SIDES)
    if errors.examples or wrk_bad:
        log(f"errors: {sum(errors.count.values())} bad tiles, {wrk_bad} wrk socket errors or non-2xx/3xx")
        sys.exit(1)


if __name__ == "__main__":
    main()
