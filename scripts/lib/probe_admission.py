#!/usr/bin/env python3
"""Admission on a real `tileview serve` on a loopback port (docs/design.md section 18). Exit 0 when every check passes.

  killers   the requests that aborted the server (^16000000,1 and the like) are refused with 400 at once, and it
            goes on answering /healthz and a tile.
  large     CLIENTS (default 16) clients each ask for a different large render of a 4000x3000 PNG at once while a
            probe asks for small tiles: every large answer is 200, 400 or 503 (with Retry-After), the tiles are all
            200 within TILE_LIMIT seconds (default 3), and the server's peak RSS (VmHWM) stays within
            --cache-mb + --work-mb + 64 MiB.
  folders   with --cache-mb 16 --work-mb 64, FOLDER_CLIENTS (default 8) clients at once each open a gallery view of a
            folder of FOLDER_SIZE (40,000) images, step it with its token, and ask for the folder's listing, gallery
            page, manifest and collection: every answer is 200, 201, 400 or 503, at least one gallery opens, and
            the server's peak RSS stays within --cache-mb + --work-mb + 64 MiB.
  ulimit    the server under an address-space limit (RLIMIT_AS of cache + work + 1.5 GiB): the killer requests and
            the large renders are refused or answered, never an abort.
Prints one line per check with its figures. TILEVIEW names the binary (default .build/debug/tileview).
"""
import json, os, resource, socket, struct, subprocess, sys, tempfile, threading, time, urllib.request, zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_common import free_port, pattern_png  # noqa: E402

TV = os.environ.get("TILEVIEW", ".build/debug/tileview")
CACHE_MB, WORK_MB = 64, 128
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, flush=True)


def start(root, limit_as=None, cache_mb=CACHE_MB, work_mb=WORK_MB):
    port = free_port()
    def limits():
        if limit_as:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [TV, "serve", root, "--port", str(port), "--cache-mb", str(cache_mb), "--work-mb", str(work_mb)],
        stdout=subprocess.DEVNULL, stderr=log, preexec_fn=limits)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if get(base + "/healthz")[0] == 200:
                break
        except OSError:
            pass
        time.sleep(0.05)
    return proc, base, log


def get(url, timeout=120):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read(), dict(e.headers)


def hwm(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


KILLERS = [
    "big.png/full/%5E16000000,1/0/default.jpg", "big.png/full/%5E1000000,1/0/default.jpg",
    "big.png/full/%5E1,16000000/0/default.png", "big.png/full/12000,1/0/default.jpg",
    "big.png/full/4000,1/0/default.png", "small.png/full/%5E16000000,1/0/default.jpg",
]


def killers(base, proc):
    codes = []
    started = time.time()
    for path in KILLERS:
        status, body, _ = get(f"{base}/iiif/3/{path}")
        codes.append(status)
        check(status in (200, 400), f"killer {path}: {status} {body[:200]!r}")
    check(proc.poll() is None, "the server is alive after the killer requests")
    check(get(base + "/healthz")[0] == 200, "healthz after the killer requests")
    check(get(base + "/iiif/3/big.png/0,0,512,512/256,/0/default.jpg")[0] == 200, "a tile after the killer requests")
    print(f"killers ok: {codes} in {time.time() - started:.2f} s", flush=True)


def large(base, proc, clients):
    results, tiles = [], []
    stop = threading.Event()
    def client(i):
        width = 1800 + 37 * i
        status, body, headers = get(f"{base}/iiif/3/big.png/full/{width},/0/default.png")
        results.append((status, len(body), headers.get("Retry-After")))
    def probe():
        k = 0
        while not stop.is_set():
            x, y = (k * 512) % 3584, ((k * 512) // 3584 * 512) % 2560
            t = time.time()
            status = get(f"{base}/iiif/3/big.png/{x},{y},512,512/256,/0/default.jpg")[0]
            tiles.append((status, time.time() - t))
            k += 1
            time.sleep(0.05)
    before = time.time()
    for k in range(5):
        get(f"{base}/iiif/3/big.png/{k * 512},2560,512,440/256,/0/default.jpg")
    quiet = (time.time() - before) / 5
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    p = threading.Thread(target=probe)
    p.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    p.join()
    peak = hwm(proc.pid)
    bound = (CACHE_MB + WORK_MB + 64) << 20
    codes = sorted(r[0] for r in results)
    check(all(c in (200, 400, 503) for c in codes), f"large answers: {codes}")
    check(all(r[2] for r in results if r[0] == 503), "every 503 has Retry-After")
    check(codes.count(200) >= 1, f"at least one large render answered: {codes}")
    limit = float(os.environ.get("TILE_LIMIT", "3"))
    slow = [round(t, 2) for s, t in tiles if s != 200 or t > limit]
    check(tiles and not slow, f"tiles during large renders: {len(tiles)} asked, slow or failed {slow}")
    check(peak <= bound, f"peak RSS {peak >> 20} MiB over {bound >> 20} MiB")
    lat = sorted(t for _, t in tiles)
    print(f"large ok: {clients} clients {dict((c, codes.count(c)) for c in set(codes))}, tiles {len(tiles)} "
          f"p50 {lat[len(lat) // 2] * 1000:.0f} ms max {lat[-1] * 1000:.0f} ms (quiet {quiet * 1000:.0f} ms), "
          f"peak RSS {peak >> 20} MiB (bound {bound >> 20} MiB)", flush=True)


def request(url, body=None, timeout=120):
    """(status, JSON or None) of a GET, or of a POST of `body` as JSON."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, text = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, None


def folders(root):
    """Clients at once open, step and list a folder of many images under a small budget: the folder's reading, its
    pages and its documents are planned before they are read, and the views kept are bounded in bytes."""
    cache_mb, work_mb = 16, 64
    folder = os.path.join(root, "many")
    os.makedirs(folder)
    for n in range(int(os.environ.get("FOLDER_SIZE", "40000"))):
        os.link(os.path.join(root, "small.png"), os.path.join(folder, f"photo-{n:05d}.png"))
    proc, base, log = start(root, cache_mb=cache_mb, work_mb=work_mb)
    statuses = []
    def client(i):
        status, view = request(f"{base}/api/views", {"folder": "many", "viewport": {"width": 320, "height": 240}})
        statuses.append(("open", status))
        if status == 201:
            statuses.append(("step", request(f"{base}/api/views/{view['view']}/moves", {"move": "next"})[0]))
        for path in ("/browse/many", "/gallery/many", "/iiif/presentation/3/many/manifest.json",
                     "/iiif/presentation/3/many/collection.json"):
            statuses.append((path, get(base + path)[0]))
    try:
        threads = [threading.Thread(target=client, args=(i,)) for i in range(int(os.environ.get("FOLDER_CLIENTS", "8")))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        alive = proc.poll() is None
        peak = hwm(proc.pid)
        bound = (cache_mb + work_mb + 64) << 20
        if not alive:
            log.seek(0)
            print(log.read().decode(errors="replace")[-3000:], flush=True)
        check(alive and peak > 0, f"folders: the server is alive (exit {proc.poll()})")
        check(all(s in (200, 201, 400, 503) for _, s in statuses), f"folder answers: {statuses}")
        check(("open", 201) in statuses, f"no gallery opened: {statuses}")
        check(peak <= bound, f"folders: peak RSS {peak >> 20} MiB over {bound >> 20} MiB")
        counts = {}
        for what, s in statuses:
            counts.setdefault(what, []).append(s)
        print(f"folders ok: {len(os.listdir(folder))} images; " + ", ".join(f"{w} {sorted(c)}" for w, c in counts.items())
              + f"; peak RSS {peak >> 20} MiB (bound {bound >> 20} MiB)", flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "all"
    clients = int(os.environ.get("CLIENTS", "16"))
    with tempfile.TemporaryDirectory() as root:
        pattern_png(os.path.join(root, "big.png"), 4000, 3000)
        pattern_png(os.path.join(root, "small.png"), 64, 48)
        if mode in ("all", "killers", "large"):
            proc, base, log = start(root)
            try:
                if mode in ("all", "killers"):
                    killers(base, proc)
                if mode in ("all", "large"):
                    large(base, proc, clients)
            finally:
                proc.terminate()
                proc.wait(timeout=30)
        if mode in ("all", "folders"):
            folders(root)
        if mode in ("all", "ulimit"):
            limit = (CACHE_MB + WORK_MB + 1536) << 20
            proc, base, log = start(root, limit_as=limit)
            try:
                check(get(base + "/healthz")[0] == 200, "the server starts under RLIMIT_AS")
                killers(base, proc)
                status = get(f"{base}/iiif/3/big.png/full/2000,/0/default.png")[0]
                check(status in (200, 400, 503), f"a large render under RLIMIT_AS: {status}")
                check(proc.poll() is None, "alive under RLIMIT_AS")
                print(f"ulimit ok: RLIMIT_AS {limit >> 20} MiB, large render {status}", flush=True)
            finally:
                proc.terminate()
                proc.wait(timeout=30)
                log.seek(0)
                text = log.read().decode(errors="replace")
                check("Fatal error" not in text and "failed to allocate" not in text, "no abort in the log")
    print("admission probe: " + ("ok" if not failures else f"{len(failures)} checks failed"), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
