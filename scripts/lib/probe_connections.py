#!/usr/bin/env python3
"""Connections of a real `tileview serve` on a loopback port (docs/design.md section 18). Exit 0 when every check passes.

  drain     three clients each ask for an answer of over 20 MB and read it slowly; SIGTERM comes while the bytes
            are on their way: every body arrives whole (its Content-Length), and the server exits 0.
  deadline  with --drain-seconds 2, a client that never reads its 21 MB answer: after SIGTERM the server exits 0
            within seconds all the same.
  http10    an HTTP/1.0 request without keep-alive is answered with `Connection: close` and the connection is
            closed at once (not held for the idle timeout); an HTTP/1.1 one is kept alive.
  halfopen  under `ulimit -n 1024`, 1,100 connections that send half a request: /healthz still answers within 1 s,
            and the server spends under 2 s of processor time meanwhile (no spinning on EMFILE).
  tls       with a self-signed certificate made by openssl: HTTPS answers /healthz and info.json (TLS 1.2+), and
            plain HTTP on the same port gets no answer.
  held      a client that stops reading a 21 MB answer (an image, a view's frame.png) keeps its bytes counted in
            --work-mb (/metrics tileview_work_bytes) until it goes, then they are free again.
  swap      for SWAP_SECONDS (10) a file under ROOT is swapped for a link out of ROOT and back every half
            millisecond, while clients ask for its info.json, a rendering and an open view's frame: no answer describes
            the outside file, and the view's frame never changes.
TILEVIEW names the binary (default .build/debug/tileview).
"""
import os, resource, shutil, signal, socket, ssl, struct, subprocess, sys, tempfile, threading, time, zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_common import free_port, noise_png  # noqa: E402

TV = os.environ.get("TILEVIEW", ".build/debug/tileview")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, flush=True)


def start(root, *extra, nofile=None):
    port = free_port()
    def limits():
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([TV, "serve", root, "--port", str(port), *extra], stdout=subprocess.DEVNULL, stderr=log,
                            preexec_fn=limits)
    for _ in range(300):
        try:
            if raw_get(port, "/healthz", timeout=2)[0] == 200:
                break
        except OSError:
            pass
        time.sleep(0.05)
    return proc, port, log


def read_answer(sock, slow=0.0):
    """Reads one HTTP answer: (status, headers, body, closed-after)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
    length = int(headers.get("content-length", "-1"))
    while length < 0 or len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
        if slow:
            time.sleep(slow)
    return status, headers, body


def raw_get(port, path, timeout=10, version="1.1", keep=False):
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        conn = "" if keep else "Connection: close\r\n"
        s.sendall(f"GET {path} HTTP/{version}\r\nHost: 127.0.0.1:{port}\r\n{conn}\r\n".encode())
        status, headers, body = read_answer(s)
        return status, headers, body


def post_json(port, path, value):
    """(status, parsed JSON or the raw body) of a POST of `value` as JSON."""
    import json
    body = json.dumps(value).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n".encode()
                  + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
        status, _, answer = read_answer(s)
    try:
        return status, json.loads(answer)
    except ValueError:
        return status, answer


def work_bytes(port):
    """/metrics' tileview_work_bytes: what renders and answers being written hold now."""
    text = raw_get(port, "/metrics")[2].decode()
    return int(next(l.split()[1] for l in text.splitlines() if l.startswith("tileview_work_bytes ")))


def held(root):
    """A reader that stopped keeps its large answer's bytes counted until it goes: an IIIF answer of the 3000x2400
    noise image and an image view's frame.png of it at fit (scale 1), each about 21 MB, more than the sockets'
    buffers take. Once the answer has begun its render is over, so what the budget holds then is the answer."""
    proc, port, log = start(root, "--cache-mb", "16", "--work-mb", "512")
    try:
        status, view = post_json(port, "/api/views", {"image": "noise.png", "viewport": {"width": 3000, "height": 2400}})
        check(status == 201, f"held: view created: {status} {str(view)[:200]}")
        paths = [("an image answer", "/iiif/3/noise.png/full/max/0/default.png")]
        if status == 201:
            paths.append(("a view's frame", f"/api/views/{view['view']}/frame.png"))
        for what, path in paths:
            # A small receive buffer, set before connecting: loopback's own grows to 32 MB here and would take the
            # whole answer.
            with socket.socket() as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
                s.settimeout(120)
                s.connect(("127.0.0.1", port))
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                first = s.recv(1024)  # the answer has begun; the rest waits
                length = [int(l.split(b":")[1]) for l in first.split(b"\r\n") if l.lower().startswith(b"content-length")]
                time.sleep(0.5)
                during = work_bytes(port)
            # What the server's socket may take itself (tcp_wmem's largest send buffer): an answer larger than that
            # and the reader's buffer together stays partly in the server, counted whole.
            with open("/proc/sys/net/ipv4/tcp_wmem") as f:
                kernel = int(f.read().split()[2]) + 2 * 65536
            check(length and length[0] > 20_000_000, f"held: {what} of {length} bytes")
            if length and length[0] > kernel + (1 << 20):
                check(during == length[0], f"held: {what} of {length} bytes, {during} held while its reader stopped")
            else:
                print(f"held: {what} not checked: the kernel's send buffers ({kernel} bytes) may take it all",
                      flush=True)
            after = during
            for _ in range(100):
                after = work_bytes(port)
                if after == 0:
                    break
                time.sleep(0.1)
            check(after == 0, f"held: {after} bytes still held after the reader of {what} went")
            print(f"held: {what} of {length[0] if length else '?'} bytes held {during} while unread, {after} after",
                  flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def drain(root):
    proc, port, log = start(root, "--cache-mb", "16", "--work-mb", "512")
    results = [None] * 3
    started = threading.Barrier(4)
    def client(i):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
                # Three answers at the image's own size (a copy, not a resampling: quick even in a debug build).
                path = ["full/max/0/default.png", "full/max/0/color.png", "full/3000,/0/default.png"][i]
                s.sendall(f"GET /iiif/3/noise.png/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                s.settimeout(120)
                first = s.recv(65536)
                started.wait()
                rest = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    rest += chunk
                    time.sleep(0.002)
                data = first + rest
                head, _, body = data.partition(b"\r\n\r\n")
                length = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")]
                results[i] = (length[0] if length else -1, len(body))
        except Exception as e:  # noqa: BLE001
            results[i] = (-1, repr(e))
            try:
                started.wait(timeout=1)
            except threading.BrokenBarrierError:
                pass
    threads = [threading.Thread(target=client, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    started.wait()
    proc.send_signal(signal.SIGTERM)
    for t in threads:
        t.join()
    code = proc.wait(timeout=60)
    for i, r in enumerate(results):
        check(r and r[0] > 20_000_000 and r[0] == r[1], f"drain: answer {i} whole: {r}")
    check(code == 0, f"drain: exit status {code}")
    print(f"drain ok: bodies {[r[1] for r in results]} bytes, exit {code}", flush=True)


def deadline(root):
    """--drain-seconds 2: neither a client that never reads its 21 MB answer nor one whose answer is still being
    rendered (a resampling of the 7 MP image, many seconds in a debug build) holds the server past the drain:
    SIGTERM, and it exits 0 within the drain and a few seconds."""
    for case, path in (("a reader that stopped", "full/max/0/default.png"), ("a render running", "full/2999,/0/default.png")):
        proc, port, log = start(root, "--cache-mb", "16", "--work-mb", "512", "--drain-seconds", "2")
        with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
            s.sendall(f"GET /iiif/3/noise.png/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            if case == "a reader that stopped":
                s.recv(1024)  # the answer has begun; the rest is never read
            time.sleep(0.5)
            t = time.time()
            proc.send_signal(signal.SIGTERM)
            try:
                code = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = None
            took = time.time() - t
        check(code == 0 and took < 8, f"deadline: exit {code} after {took:.1f} s with {case}")
        print(f"deadline ok: exit {code} {took:.1f} s after SIGTERM (--drain-seconds 2, {case})", flush=True)


def http10(root):
    proc, port, log = start(root)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            t = time.time()
            status, headers, body = read_answer(s)
            s.settimeout(5)
            closed = s.recv(1) == b""
            elapsed = time.time() - t
        check(status == 200 and headers.get("connection", "").lower() == "close", f"http10: {status} {headers}")
        check(closed and elapsed < 2, f"http10: closed {closed} after {elapsed:.2f} s")
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            for _ in range(2):
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                status, headers, body = read_answer(s)
                check(status == 200, f"http11 keep-alive: {status}")
        print(f"http10 ok: closed after {elapsed * 1000:.0f} ms; HTTP/1.1 kept alive", flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def halfopen(root):
    proc, port, log = start(root, nofile=1024)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1300:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    socks = []
    try:
        cpu0 = cpu_seconds(proc.pid)
        t0 = time.time()
        for i in range(1100):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(b"GET /iiif/3/noise.png/info.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                socks.append(s)
            except OSError:
                pass
        time.sleep(1)
        t = time.time()
        status = raw_get(port, "/healthz", timeout=5)[0]
        health = time.time() - t
        time.sleep(2)
        cpu = cpu_seconds(proc.pid) - cpu0
        check(status == 200 and health < 1, f"halfopen: healthz {status} in {health:.2f} s")
        check(cpu < 2, f"halfopen: {cpu:.2f} s of processor time")
        check(proc.poll() is None, "halfopen: the server is alive")
        print(f"halfopen ok: {len(socks)} half-sent requests, healthz in {health * 1000:.0f} ms, "
              f"server CPU {cpu:.2f} s over {time.time() - t0:.1f} s", flush=True)
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.wait(timeout=30)


def tls(root):
    with tempfile.TemporaryDirectory() as d:
        cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                       check=True, capture_output=True)
        port = free_port()
        log = tempfile.TemporaryFile()
        proc = subprocess.Popen([TV, "serve", root, "--port", str(port), "--tls-cert", cert, "--tls-key", key],
                                stdout=subprocess.DEVNULL, stderr=log)
        try:
            context = ssl.create_default_context(cafile=cert)
            context.minimum_version = ssl.TLSVersion.TLSv1_2
            got, version = None, None
            for _ in range(200):
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
                        with context.wrap_socket(raw, server_hostname="127.0.0.1") as s:
                            version = s.version()
                            s.sendall(f"GET /iiif/3/noise.png/info.json HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
                            got = read_answer(s)
                            break
                except (ConnectionRefusedError, FileNotFoundError):
                    time.sleep(0.05)
            check(got is not None and got[0] == 200 and b'"width"' in got[2], f"tls: {got and got[0]}")
            check(version in ("TLSv1.2", "TLSv1.3"), f"tls: version {version}")
            try:
                plain = raw_get(port, "/healthz", timeout=3)[0]
            except OSError:
                plain = 0
            check(plain != 200, f"tls: plain HTTP answered {plain}")
            print(f"tls ok: {version}, info.json over HTTPS, plain HTTP refused", flush=True)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def png_size(data):
    """(width, height) of a PNG's IHDR, or None."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", data[16:24])
    return None


def swap(root):
    """For SWAP_SECONDS (default 10) a thread swaps ROOT/swap.png between an image inside ROOT and a symbolic link
    to one outside it (other dimensions) every half millisecond, while two clients ask for its info.json and a
    rendering, and an image view opened before the swapping asks for its frame: no answer may describe the outside
    image, and the view's frame stays the inside image's."""
    import json
    seconds = float(os.environ.get("SWAP_SECONDS", "10"))
    outside = tempfile.mkdtemp()
    secret = os.path.join(outside, "secret.png")
    noise_png(secret, 500, 100, seed=7)
    stash = os.path.join(root, ".stash.png")
    noise_png(stash, 300, 200, seed=3)
    target = os.path.join(root, "swap.png")
    os.link(stash, target)
    proc, port, log = start(root)
    stop = threading.Event()
    counts = {"swaps": 0, "inside": 0, "outside": 0, "refused": 0, "frames": 0, "frames_changed": 0}
    lock = threading.Lock()
    def count(key):
        with lock:
            counts[key] += 1
    try:
        status, answer = post_json(port, "/api/views", {"image": "swap.png", "viewport": {"width": 120, "height": 80}})
        check(status == 201, f"swap: view created: {status} {str(answer)[:200]}")
        view = answer["view"] if status == 201 else None
        first_frame = raw_get(port, f"/api/views/{view}/frame.png")[2] if view else b""
        def swapper():
            k = 0
            while not stop.is_set():
                tmp = os.path.join(root, f".swap-{k % 2}")
                try:
                    os.remove(tmp)
                except FileNotFoundError:
                    pass
                if k % 2:
                    os.symlink(secret, tmp)
                else:
                    os.link(stash, tmp)
                os.replace(tmp, target)
                k += 1
                count("swaps")
                time.sleep(0.0005)
        def client(kind):
            while not stop.is_set():
                if kind == "info":
                    status, _, data = raw_get(port, "/iiif/3/swap.png/info.json")
                    size = None
                    if status == 200:
                        doc = json.loads(data)
                        size = (doc["width"], doc["height"])
                elif kind == "image":
                    status, _, data = raw_get(port, "/iiif/3/swap.png/full/max/0/default.png")
                    size = png_size(data) if status == 200 else None
                else:
                    status, _, data = raw_get(port, f"/api/views/{view}/frame.png")
                    count("frames")
                    if data != first_frame:
                        count("frames_changed")
                    continue
                count("refused" if size is None else "outside" if size == (500, 100) else "inside")
        threads = [threading.Thread(target=swapper)] + [
            threading.Thread(target=client, args=(k,)) for k in ("info", "image", "frame" if view else "info")]
        for t in threads:
            t.start()
        time.sleep(seconds)
        stop.set()
        for t in threads:
            t.join()
        check(counts["outside"] == 0, f"swap: {counts['outside']} answers described the file outside ROOT")
        check(counts["inside"] > 20, f"swap: only {counts['inside']} answers described the inside file")
        check(counts["frames_changed"] == 0, f"swap: the view's frame changed {counts['frames_changed']} times")
        check(proc.poll() is None, "swap: the server is alive")
        print(f"swap ok: {counts['swaps']} swaps in {seconds:.0f} s; answers inside {counts['inside']}, refused "
              f"{counts['refused']}, outside {counts['outside']}; view frames {counts['frames']}, all the first",
              flush=True)
    finally:
        stop.set()
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(outside, ignore_errors=True)


def main():
    modes = sys.argv[1:] or ["all"]
    with tempfile.TemporaryDirectory() as root:
        noise_png(os.path.join(root, "noise.png"), 3000, 2400)
        for mode in ("http10", "halfopen", "tls", "held", "swap", "drain", "deadline"):
            if "all" in modes or mode in modes:
                globals()[mode](root)
    print("connections probe: " + ("ok" if not failures else f"{len(failures)} checks failed"), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
