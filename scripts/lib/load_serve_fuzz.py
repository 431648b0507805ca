#!/usr/bin/env python3
"""Malformed and random requests against a running `tileview serve` (scripts/load-serve.sh fuzz).

The cases come from a seed: first a fixed list (path traversal in every spelling, every route prefix, wrong
methods, raw malformed HTTP, slow and vanishing clients), then random ones (bogus IIIF parts on real
identifiers, random bytes, huge and negative numbers, empty and very long segments, mutated valid URLs,
odd headers) up to COUNT. They are sent by a few threads, each over one keep-alive connection
(http.client, reconnecting whenever the server closes it); raw ones over their own socket.

A run fails when an answer is a 5xx other than 501, when a refused identifier (anything outside the root,
a dotfile, a FIFO, a symbolic link that leaves the root, a name that is not an image) is answered 2xx or
3xx, when a complete request gets no answer in time, or when the server dies. When it dies, the requests in flight
are written to CANDIDATES (one JSON case a line) and the index to resume at to NEXT, and the run exits 3;
the shell script replays each candidate against a fresh server (`replay`) to name the request that kills
it, and resumes. STATE (JSON) carries the counts and findings across resumed runs; `summary` prints them
and exits 1 on any failure.

Usage:
  load_serve_fuzz.py run BASE PID --count N --seed S --start I --state STATE --candidates FILE --next FILE
      --log LOG --root ROOT --outside PATH --id NAME... [--refused NAME...] [--broken NAME...] [--threads T]
  load_serve_fuzz.py replay BASE PID --state STATE --log LOG --candidates FILE --line N
  load_serve_fuzz.py summary --state STATE
"""
import argparse
import http.client
import json
import os
import random
import re
import socket
import sys
import threading
import time
import urllib.parse

from load_serve import alive, get, host_port, identifier

ANSWER_TIMEOUT = 30  # seconds for a complete request; longer is a hang
RAW_TIMEOUT = 5  # seconds to wait for an answer to raw bytes the server may rightly wait on


def enc(text):
    return urllib.parse.quote(text, safe="")


# --- The cases ------------------------------------------------------------------------------------------
# A case is a dict: kind; either method, path, headers, body (latin-1 text) sent by http.client, or raw
# (latin-1 text of the bytes to send) with complete (whether an answer is due), expect (how many answers),
# slow (send in pieces, seconds) and close_early (close before reading); refused: 200 would be a failure.


def http_case(kind, path, method="GET", headers=None, body=None, refused=False):
    return {"kind": kind, "method": method, "path": path, "headers": headers or {}, "body": body,
            "refused": refused}


def raw_case(kind, raw, complete=True, expect=1, slow=0.0, close_early=False):
    return {"kind": kind, "raw": raw, "complete": complete, "expect": expect, "slow": slow,
            "close_early": close_early, "refused": False}


def routes(ident):
    """A path of every route for an identifier (percent-encoded already)."""
    return [f"/iiif/3/{ident}/info.json", f"/iiif/3/{ident}/full/max/0/default.jpg",
            f"/iiif/3/{ident}/0,0,64,64/64,/0/default.png", f"/iiif/3/{ident}",
            f"/dzi/{ident}.dzi", f"/dzi/{ident}_files/0/0_0.jpg"]


class Cases:
    def __init__(self, seed, ids, refused, outside, root, broken=()):
        self.rng = random.Random(seed)
        self.ids = ids  # name -> (width, height, etag)
        self.names = list(ids)
        self.refused = refused
        self.outside = outside
        self.root = root
        self.broken = list(broken)

    def real(self):
        return enc(self.rng.choice(self.names))

    # Identifiers that must never be served, in every spelling.
    def refused_ids(self):
        outside_rel = "../" + os.path.basename(os.path.dirname(self.outside)) + "/" + os.path.basename(self.outside)
        some = self.names[0]
        ids = [enc(outside_rel), enc(outside_rel).replace("2F", "2f"),
               outside_rel.replace(".", "%2E").replace("/", "%2F"),
               outside_rel.replace(".", "%2e").replace("/", "%2f"),
               enc(enc(outside_rel)), enc(enc(enc(outside_rel))),
               enc(self.outside), enc("/" + self.outside.lstrip("/")), enc("//" + self.outside.lstrip("/")),
               enc(os.path.join(self.root, some)), enc("../../../../../../etc/passwd"), enc("/etc/passwd"),
               enc("albums/../" + outside_rel), enc("albums/./../../" + outside_rel.lstrip("./")),
               enc("./" + some), enc("albums//" + some), enc(some + "/"), enc(some + "/."), enc(some + "/.."),
               enc(".."), enc("."), "%2E%2E", "%2e", "", enc("/"), enc("albums"), enc("albums/"),
               enc(some) + "%00", enc(some) + "%00.png", "%00" + enc(some), enc(some.replace(".", "\0.")),
               "%C0%AE%C0%AE%2F" + enc(outside_rel[3:]), "%C0%AE%C0%AE%C0%AF" + enc(outside_rel[3:]),
               "%E0%80%AE%E0%80%AE%2F" + enc(outside_rel[3:]), "%F0%80%80%AE%F0%80%80%AE%2F" + enc(outside_rel[3:]),
               "%C0%2F" + enc(some), "%ED%A0%80" + enc(some), "%FF%FE" + enc(some), "%C1%9C" + enc(some),
               "..%5C" + enc(outside_rel[3:]).replace("%2F", "%5C"), "..%255C" + enc(outside_rel[3:]),
               "%", "%2", "%G0" + enc(some), enc(some) + "%", enc(some) + "%2",
               "%%32%65%%32%65%2F" + enc(outside_rel[3:])]
        ids += [enc(name) for name in self.refused]
        ids += [enc(name.upper()) for name in self.names[:2]]
        return ids

    def fixed(self):
        cases = []
        for ident in self.refused_ids():
            for path in routes(ident):
                cases.append(http_case("traversal", path, refused=True))
        # Traversal in the raw path (several segments: no route takes them).
        outside_rel = "../" + os.path.basename(os.path.dirname(self.outside)) + "/" + os.path.basename(self.outside)
        for path in [f"/iiif/3/{outside_rel}/info.json", f"/iiif/3/..%2f..%2f{outside_rel[3:]}/info.json",
                     "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", f"/dzi/{outside_rel}.dzi",
                     f"/iiif/3/{self.names[0]}/../../../{outside_rel}/info.json", "/./healthz", "//healthz"]:
            cases.append(http_case("traversal", path, refused="passwd" in path or "secret" in path))
        some = self.real()
        for path in ["/", "//", "/iiif", "/iiif/", "/iiif/3", "/iiif/3/", "/iiif/3//", "/iiif/3///info.json",
                     f"/iiif/2/{some}/info.json", f"/iiif/3/{some}/", f"/iiif/3/{some}/info.json/",
                     f"/iiif/3/{some}/info.xml", f"/iiif/3/{some}/full", f"/iiif/3/{some}/full/max",
                     f"/iiif/3/{some}/full/max/0", f"/iiif/3/{some}/full/max/0/default",
                     f"/iiif/3/{some}/full/max/0/default.jpg/extra", f"/iiif/3/{some}//max/0/default.jpg",
                     f"/iiif/3/{some}/full//0/default.jpg", f"/iiif/3/{some}/full/max//default.jpg",
                     f"/iiif/3/{some}/full/max/0/", f"/iiif/3/{some}/full/max/0/.jpg", "/dzi", "/dzi/",
                     f"/dzi/{some}", f"/dzi/{some}.xml", f"/dzi/{some}.dzi/", f"/dzi/{some}_files",
                     f"/dzi/{some}_files/", f"/dzi/{some}_files/0", f"/dzi/{some}_files/0/",
                     f"/dzi/{some}_files/0/0_0", f"/dzi/{some}_files/0/0_0.png", f"/dzi/{some}_files/0/0_0.jpg/x",
                     f"/dzi/{some}_files//0_0.jpg", f"/dzi/{some}_files/0/_.jpg", "/dzi/.dzi", "/dzi/_files/0/0_0.jpg",
                     "/healthz/", "/healthz/x", "/healthzz", "/HEALTHZ", "/metrics/", "/metrics?x=1",
                     "/healthz?" + "a" * 8000, "/favicon.ico", "/robots.txt", "/index.html",
                     f"/iiif/3/{some}/info.json?x=%00", f"/iiif/3/{some}/info.json#frag",
                     f"/iiif/3/{some}/info.json;x=1", f"/iiif/3/{some}/info.json?" + "&".join(["a=b"] * 2000),
                     "/iiif/3/" + "a/" * 2000 + "info.json", "/" * 4000, "/%00", "/%", "/%zz", "?", "/?#"]:
            cases.append(http_case("route", path))
        cases += [http_case("route", "http://127.0.0.1/healthz"), http_case("route", "http://evil.example/healthz"),
                  http_case("route", f"http://x/iiif/3/{some}/info.json")]
        for path in ["/healthz", "/metrics", f"/iiif/3/{some}/info.json", f"/iiif/3/{some}/0,0,64,64/64,/0/default.jpg",
                     f"/iiif/3/{some}", f"/dzi/{some}.dzi", f"/dzi/{some}_files/0/0_0.jpg", "/nope"]:
            for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "HEAD", "PROPFIND",
                           "FOO", "get", "G" * 200]:
                body = self.random_body() if method in ("POST", "PUT", "PATCH") else None
                cases.append(http_case("method", path, method, body=body))
            cases.append(http_case("method", path, "OPTIONS", headers={
                "Origin": "http://example.org", "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "if-none-match"}))
        for name in self.broken:  # files that cannot be decoded: 422, and the server goes on
            cases += [http_case("undecodable", path) for path in routes(enc(name))]
        cases += self.raw_fixed()
        return cases

    def random_body(self):
        n = self.rng.choice([0, 1, 100, 4096, 65536, 300000])
        return "".join(chr(self.rng.randrange(256)) for _ in range(n))

    def raw_fixed(self):
        some = self.real()
        tile = f"/iiif/3/{some}/0,0,128,128/128,/0/default.jpg"
        ok = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        cases = [
            raw_case("raw", "GARBAGE\r\n\r\n"), raw_case("raw", "\r\n\r\n", complete=False),
            raw_case("raw", "GET\r\n\r\n"), raw_case("raw", "GET /healthz\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\n\r\n"), raw_case("raw", "GET /healthz HTTP/1.0\r\n\r\n"),
            raw_case("raw", f"GET {tile} HTTP/1.1\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\n: no name\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\nX: a\0b\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\nX: a\x01\x7f\xff\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "a" * 65536 + "\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "a" * 1048576 + "\r\n\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\n" + "X-A: b\r\n" * 10000 + "\r\n"),
            raw_case("raw", "GET /healthz HTTP/1.1\nHost: x\n\n"),
            raw_case("raw", "GET  /healthz  HTTP/1.1\r\nHost: x\r\n\r\n"),
            raw_case("raw", "GET /heal thz HTTP/1.1\r\nHost: x\r\n\r\n"),
            raw_case("raw", f"GET /iiif/3/\xff\xfe{some}/info.json HTTP/1.1\r\nHost: x\r\n\r\n"),
            raw_case("raw", "GET /iiif/3/\x01\x7f.jpg/info.json HTTP/1.1\r\nHost: x\r\n\r\n"),
            raw_case("raw", "GET /" + "a" * 65536 + " HTTP/1.1\r\nHost: x\r\n\r\n"),
            raw_case("raw", "GET /iiif/3/" + "%41" * 400000 + "/info.json HTTP/1.1\r\nHost: x\r\n\r\n"),
            raw_case("raw", "GET http://evil.example/healthz HTTP/1.1\r\nHost: x\r\n\r\n"),
            raw_case("raw", f"GET http://evil.example/iiif/3/{some}/info.json HTTP/1.1\r\nHost: x\r\n\r\n"),
            raw_case("raw", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"),
            # CONNECT and upgrades this server does not take: the request itself is answered; after it the HTTP
            # layer (SwiftNIO's parser) stops reading the connection as HTTP, so a request after it on the same
            # connection is not (the server's idle timeout closes that connection).
            raw_case("next", "CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n", expect=1),
            raw_case("next", "CONNECT /healthz HTTP/1.1\r\nHost: x\r\n\r\n", expect=1),
            raw_case("raw", "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n"),
            raw_case("raw", "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
                     complete=False),
            raw_case("raw", "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n"
                     "abcdefg"),
            raw_case("raw", "POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "zz\r\nabc\r\n0\r\n\r\n"),
            raw_case("raw", "POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n"
                     "\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", expect=2),
            raw_case("raw", "POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"),
            raw_case("raw", "POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "fffffffffffffffffffff\r\n", complete=False),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n"),
            raw_case("raw", "POST /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n",
                     complete=False),
            raw_case("raw", ok * 50, expect=50),
            raw_case("raw", ok + "GARBAGE\r\n\r\n" + ok, expect=2),
            raw_case("raw", f"GET {tile} HTTP/1.1\r\nHost: x\r\n\r\n" * 8, expect=8),
            raw_case("next", "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                     "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n", expect=1),
            raw_case("next", "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                     "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n", expect=1),
            raw_case("next", f"GET {tile} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\n"
                     "Upgrade: h2c\r\n\r\n", expect=1),
            raw_case("next", "GET /healthz HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\n\r\n" + ok, expect=2),
            raw_case("raw", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + "\0" * 64, complete=False),
            raw_case("raw", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + "".join(
                chr(self.rng.randrange(256)) for _ in range(500)), complete=False),
            raw_case("raw", "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + ok, expect=1),
            # Half a request, then the client goes away (in the request line, the headers, the body).
            raw_case("half", f"GET {tile[:len(tile) // 2]}", complete=False),
            raw_case("half", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-", complete=False),
            raw_case("half", "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789",
                     complete=False),
            raw_case("half", "G", complete=False), raw_case("half", "", complete=False),
            # A slow client that does finish: an answer is due.
            raw_case("slow", f"GET {tile} HTTP/1.1\r\nHost: x\r\n\r\n", slow=2.0),
            # Half a request sent slowly, then gone.
            raw_case("slow", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a" * 40, complete=False, slow=2.0),
            # Gone while the tile renders: the answer has nobody to go to.
            raw_case("abort", f"GET {tile} HTTP/1.1\r\nHost: x\r\n\r\n", close_early=True),
            raw_case("abort", f"GET /iiif/3/{some}/full/max/0/default.png HTTP/1.1\r\nHost: x\r\n\r\n" * 4,
                     close_early=True),
        ]
        return cases

    # --- Random cases -------------------------------------------------------------------------------

    NUMBERS = ["0", "1", "-1", "-0", "+1", "00", "007", "1.5", "1e3", "0x10", " 1", "1 ", "", "9" * 19, "9" * 20,
               "9223372036854775807", "9223372036854775808", "18446744073709551616", "-9223372036854775808",
               "%31", "%EF%BC%91", "%D9%A1", "NaN", "inf", "1" * 5000]

    def number(self):
        r = self.rng.random()
        if r < 0.6:
            return self.rng.choice(self.NUMBERS)
        if r < 0.8:
            return str(self.rng.randrange(0, 5000))
        return str(self.rng.choice([-1, 1]) * self.rng.randrange(1, 1 << 62))

    def region(self):
        valid = ["full", "square", "0,0,64,64", "10,20,100,50", "pct:0,0,50,50", "pct:10.5,20,30.25,40",
                 "0,0,9223372036854775807,9223372036854775807", "pct:0,0,100,100", "100,100,1,1", "%66ull"]
        bogus = ["-1,0,10,10", "0,0,0,0", "0,0,10", "0,0,10,10,10", "a,b,c,d", "1e3,0,10,10", "0x10,0,10,10",
                 "%200,0,1,1", "pct:", "pct:-1,0,1,1", "pct:0,0,0,0", "pct:1.2.3,0,1,1", "pct:nan,0,1,1",
                 "pct:inf,0,1,1", "pct:1e400,0,1,1", "99999999999999999999,0,1,1", "9223372036854775807,0,1,1",
                 "100000,100000,10,10", "pct:100,100,1,1", "pct:1000000,0,1,1", "FULL", "Full", "squares",
                 "full%20", "%EF%BC%91,0,1,1", "0,0,1,1%00", ",,,", "0,0,,1", "pct:0,0,1e-9,1", "pct:.,0,1,1",
                 "pct:0,0," + "9" * 400 + ",1", "0,0," + "1" * 5000 + ",1", "pct:0.000000001,0,0.000000001,1",
                 "!full", "^full", "full,", "pct:0,0,0.0000001,0.0000001", "pct:99.9999999,99.9999999,1,1"]
        bogus.append(",".join(self.number() for _ in range(self.rng.choice([3, 4, 4, 4, 5]))))
        return self.rng.choice(valid) if self.rng.random() < 0.55 else self.rng.choice(bogus)

    def size(self):
        valid = ["max", "^max", "64,", ",64", "pct:10", "!64,64", "^!2000,2000", "^128,", "1,", ",1", "64,64",
                 "^pct:150", "!1,1", "^1000,1", "^1,1000", "pct:0.1"]
        bogus = ["0,", ",0", "0,0", "-1,", ",", "!,", "!64,", "!,64", "^", "^^max", "pct:0", "pct:-5", "pct:",
                 "pct:abc", "max,", "full", "MAX", "^pct:1000000", "99999999999999999999,", "100000,", "^100000,",
                 "^100000,100000", "pct:1e5", "pct:" + "9" * 400, "^pct:" + "9" * 400, "64,,", "6 4,",
                 # Huge sides: nearly Int.max, or Int.max itself, in every size form.
                 "9223372036854775807,", ",9223372036854775807", "^9223372036854775807,", "^,9223372036854775807",
                 "9223372036854775807,9223372036854775807", "^9223372036854775807,9223372036854775807",
                 "!9223372036854775807,9223372036854775807", "^!9223372036854775807,9223372036854775807",
                 "^!9223372036854775807,1", "4611686018427387904,", "^4611686018427387904,", "pct:" + "9" * 300,
                 "^pct:" + "9" * 300, "pct:1" + "0" * 20, "^pct:1" + "0" * 20, "1000000000000,", ",1000000000000"]
        bogus.append(self.rng.choice(["", "^", "!", "^!"]) + self.number() + "," + self.number())
        return self.rng.choice(valid) if self.rng.random() < 0.5 else self.rng.choice(bogus)

    def rotation(self):
        valid = ["0", "90", "180", "270", "360", "!0", "!90", "!180", "!270", "0.0", "90.0", "00090"]
        offered_not = ["22.5", "359.9999", "45", "1", "0.0000001", "!45"]
        bogus = ["-90", "361", "!", "!!90", "90!", "1e2", "nan", "inf", "0x5A", "", "9" * 400, "0." + "0" * 500,
                 ".", "..", "90.0.0", "%2D90", "360.0000000001", "ninety", self.number()]
        r = self.rng.random()
        return self.rng.choice(valid if r < 0.6 else offered_not if r < 0.7 else bogus)

    def quality_format(self):
        valid = ["default.jpg", "color.png", "gray.jpg", "default.png", "color.jpg", "gray.png"]
        offered_not = ["bitonal.jpg", "default.tif", "default.gif", "default.webp", "default.jp2", "default.pdf",
                       "bitonal.png", "gray.webp"]
        bogus = ["default", "default.", ".jpg", "default.jpeg", "DEFAULT.JPG", "native.jpg", "default.jpg.jpg",
                 "default..jpg", "grey.jpg", "default.jpg%00", "default.jpg;x", "d" * 5000 + ".jpg",
                 "default." + "j" * 5000, "default%2Ejpg", ".", "", "%00.jpg", "default.bmp", "color.svg"]
        r = self.rng.random()
        return self.rng.choice(valid if r < 0.6 else offered_not if r < 0.7 else bogus)

    def bogus_iiif(self):
        parts = [self.region(), self.size(), self.rotation(), self.quality_format()]
        return http_case("iiif-parts", f"/iiif/3/{self.real()}/" + "/".join(parts))

    def random_id(self):
        n = self.rng.choice([1, 2, 5, 16, 64, 256])
        raw = bytes(self.rng.randrange(256) for _ in range(n))
        if self.rng.random() < 0.3:
            raw += self.rng.choice([b".jpg", b".png", b".jpeg", b".JPG"])
        ident = urllib.parse.quote(raw, safe=self.rng.choice(["", "~", "-._~!$&'()*+,;=:@"]))
        path = self.rng.choice(routes(ident))
        return http_case("random-id", path, refused=True)

    def deep_zoom(self):
        ident = self.real()
        level, col, row = self.number(), self.number(), self.number()
        ext = self.rng.choice(["jpg"] * 6 + ["png", "JPG", "", "jpg.jpg", "j%00g", "jpeg", "jpg%20"])
        files = f"/dzi/{ident}_files/{level}"
        path = self.rng.choice([f"{files}/{col}_{row}.{ext}", f"{files}/{col}.{ext}",
                                f"{files}/{col}_{row}_{col}.{ext}", f"{files}/{col}_{row}"])
        return http_case("dzi-numbers", path)

    def empty_segments(self):
        ident = self.real()
        parts = ["iiif", "3", ident, "full", "max", "0", "default.jpg"] if self.rng.random() < 0.6 else \
            ["dzi", f"{ident}_files", "0", "0_0.jpg"]
        i = self.rng.randrange(len(parts))
        parts = parts[:i] + [""] * self.rng.choice([1, 1, 2, 5]) + parts[i + (self.rng.random() < 0.5):]
        return http_case("empty-segment", "/" + "/".join(parts) + self.rng.choice(["", "", "/", "//"]))

    def long_segment(self):
        n = self.rng.choice([1024, 4096, 8192, 16384, 65536])
        ident = self.real()
        which = self.rng.randrange(6)
        if which == 0:
            path = f"/iiif/3/{'a' * n}.jpg/info.json"
        elif which == 1:
            path = f"/iiif/3/{ident}/{'1' * n},0,1,1/max/0/default.jpg"
        elif which == 2:
            path = f"/iiif/3/{ident}/full/{'9' * n},/0/default.jpg"
        elif which == 3:
            path = f"/dzi/{'%41' * (n // 3)}.dzi"
        elif which == 4:
            path = f"/iiif/3/{enc('albums/' * (n // 7))}x.jpg/info.json"
        else:
            path = f"/iiif/3/{ident}/info.json?" + "x" * n
        return http_case("long-segment", path)

    def valid_url(self):
        ident = self.real()
        return self.rng.choice([f"/iiif/3/{ident}/info.json", f"/iiif/3/{ident}/0,0,128,128/64,/0/default.jpg",
                                f"/iiif/3/{ident}/full/!96,96/90/gray.png", f"/iiif/3/{ident}/square/32,/!0/color.jpg",
                                f"/dzi/{ident}.dzi", f"/dzi/{ident}_files/8/0_0.jpg", f"/iiif/3/{ident}",
                                f"/iiif/3/{ident}/pct:10,10,50,50/pct:20/180/default.jpg"])

    MUTANTS = ["%", "/", ".", ",", "!", "^", ":", "0", "9", "-", "%00", "%2F", "%2f", "..", "%2e%2e", "%25", "~",
               "pct:", "max", "_", ";", "=", "&", "?", "#", "%C0%AE", "\\", "@", "+", "*"]

    def mutant(self):
        url = self.valid_url()
        for _ in range(self.rng.randint(1, 3)):
            if not url:
                break
            i = self.rng.randrange(len(url) + 1)
            op = self.rng.randrange(5)
            if op == 0:
                url = url[:i] + url[i + 1:]
            elif op == 1:
                url = url[:i] + self.rng.choice(self.MUTANTS) + url[i:]
            elif op == 2:
                url = url[:i]
            elif op == 3:
                segs = url.split("/")
                j = self.rng.randrange(len(segs))
                segs.insert(j, segs[j])
                url = "/".join(segs)
            else:
                segs = url.split("/")
                if len(segs) > 2:
                    a, b = self.rng.sample(range(1, len(segs)), 2)
                    segs[a], segs[b] = segs[b], segs[a]
                url = "/".join(segs)
        if not url.startswith("/"):
            url = "/" + url
        return http_case("mutant", url)

    def odd_headers(self):
        name = self.rng.choice(self.names)
        etag = self.ids[name][2]
        headers = self.rng.choice([
            {"If-None-Match": etag}, {"If-None-Match": "*"}, {"If-None-Match": "W/" + etag},
            {"If-None-Match": ", ".join(['"x"'] * 500) + ", " + etag}, {"If-None-Match": '"' + "a" * 8000 + '"'},
            {"If-None-Match": ",,,"}, {"If-None-Match": ""}, {"If-Modified-Since": "yesterday"},
            {"Range": "bytes=0-10"}, {"Range": "bytes=99999999999999999999-"}, {"Accept": "image/webp"},
            {"Accept-Encoding": "gzip, br"}, {"Origin": "http://evil.example"}, {"Host": ""},
            {"Host": "a" * 8000}, {"Host": '"},{"@id":"evil'}, {"Host": "127.0.0.1:99999"},
            {"Host": "[::1"}, {"Connection": "close"},
            {"X-Forwarded-Host": "evil.example"}, {"Cookie": "a=" + "b" * 4000}])
        path = self.rng.choice([f"/iiif/3/{enc(name)}/info.json", f"/dzi/{enc(name)}.dzi",
                                f"/iiif/3/{enc(name)}/0,0,64,64/64,/0/default.jpg", f"/iiif/3/{enc(name)}"])
        return http_case("headers", path, headers=headers)

    def random_method(self):
        method = self.rng.choice(["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "LINK", "QUERY"])
        body = self.random_body() if method in ("POST", "PUT", "PATCH", "QUERY") and self.rng.random() < 0.5 else None
        return http_case("method", self.valid_url(), method, body=body)

    def random_traversal(self):
        ident = self.rng.choice(self.refused_ids())
        return http_case("traversal", self.rng.choice(routes(ident)), refused=True)

    def random_raw(self):
        r = self.rng.random()
        if r < 0.4:
            junk = "".join(chr(self.rng.randrange(256)) for _ in range(self.rng.choice([1, 16, 200, 4000])))
            return raw_case("raw-random", junk, complete=False)
        line = self.rng.choice(["GET", "POST", "", "G\0T", "GET GET"]) + self.rng.choice([" ", "  ", "\t", ""]) + \
            self.rng.choice(["/healthz", self.valid_url(), "*", "", "/\xff", "/\x00"]) + \
            self.rng.choice([" HTTP/1.1", " HTTP/1.0", " HTTP/1.1 x", " HTTP/11", " HTTPS/1.1", " HTTP/1.1\0", ""])
        return raw_case("raw-random", line + self.rng.choice(["\r\nHost: x\r\n\r\n", "\r\n\r\n", "\n\n"]),
                        complete=False)

    def random(self):
        makers = [(self.bogus_iiif, 34), (self.random_id, 10), (self.deep_zoom, 8), (self.empty_segments, 5),
                  (self.long_segment, 4), (self.mutant, 20), (self.odd_headers, 7), (self.random_method, 5),
                  (self.random_traversal, 5), (self.random_raw, 2)]
        return self.rng.choices([m for m, _ in makers], [w for _, w in makers])[0]()

    def all(self, count):
        cases = self.fixed()
        while len(cases) < count:
            cases.append(self.random())
        return cases


# --- Sending --------------------------------------------------------------------------------------------


def describe(case, limit=300):
    """A case as one line: METHOD path, or raw bytes (repr), cut at `limit` characters."""
    if "raw" in case:
        text = "raw " + repr(case["raw"].encode("latin-1"))
    else:
        text = f"{case['method']} {case['path']}"
        if case["headers"]:
            text += f" {case['headers']}"
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


class Client:
    """One keep-alive connection; reconnects after the server closes it."""

    def __init__(self, base):
        self.host, self.port = host_port(base)
        self.conn = None
        self.reused = False

    def close(self):
        if self.conn:
            self.conn.close()
        self.conn = None

    def send(self, case):
        """(status or a word, body) for one case."""
        if "raw" in case:
            return send_raw(self.host, self.port, case)
        if case["method"] == "CONNECT":
            # An answer to CONNECT may have no length (RFC 9112 section 6.3): read just its status line. (After
            # it the connection is no longer read as HTTP: see the raw CONNECT cases.)
            raw = f"CONNECT {case['path']} HTTP/1.1\r\nHost: x\r\n\r\n"
            return send_raw(self.host, self.port, raw_case(case["kind"], raw, expect=1))
        status, data = self.send_http(case)
        if status == "closed" and self.reused:
            # A kept-alive connection the server had closed (as clients do, try once more on a new one).
            status, data = self.send_http(case)
        return status, data

    def send_http(self, case):
        self.reused = self.conn is not None
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=ANSWER_TIMEOUT)
            headers = dict(case["headers"])
            body = case["body"].encode("latin-1") if case["body"] is not None else None
            skip_host = "Host" in headers
            self.conn.putrequest(case["method"], case["path"], skip_host=skip_host, skip_accept_encoding=True)
            for k, v in headers.items():
                self.conn.putheader(k, v)
            if body is not None and "Content-Length" not in headers:
                self.conn.putheader("Content-Length", str(len(body)))
            self.conn.endheaders(body)
            resp = self.conn.getresponse()
            data = resp.read()
            if resp.will_close:
                self.close()
            return resp.status, data
        except (http.client.InvalidURL, UnicodeEncodeError, ValueError):
            # A path or method http.client will not send: send the same bytes raw.
            self.close()
            raw = f"{case['method']} {case['path']} HTTP/1.1\r\nHost: x\r\n\r\n"
            return send_raw(self.host, self.port, raw_case(case["kind"], raw))
        except socket.timeout:
            self.close()
            return "timeout", b""
        except (http.client.HTTPException, OSError):
            self.close()
            return "closed", b""


def statuses_in(data):
    """The status of every complete answer in bytes read from a connection, each framed by its
    Content-Length (none: no body for 1xx, 204 and 304, else the rest of the data)."""
    out = []
    at = 0
    while True:
        end = data.find(b"\r\n\r\n", at)
        if end < 0:
            return out
        head = data[at:end].split(b"\r\n")
        m = re.match(rb"HTTP/1\.[01] (\d{3})", head[0])
        if not m:
            return out
        status = int(m[1])
        length = None
        for line in head[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length" and value.strip().isdigit():
                length = int(value.strip())
        if length is None:
            length = 0 if status < 200 or status in (204, 304) else len(data) - end - 4
        if end + 4 + length > len(data):
            return out
        out.append(status)
        at = end + 4 + length


def send_raw(host, port, case):
    """Sends raw bytes on a new socket; the first status answered (or `closed`, `no-answer`) and the bytes."""
    data = case["raw"].encode("latin-1")
    try:
        sock = socket.create_connection((host, port), timeout=ANSWER_TIMEOUT)
    except OSError:
        return "closed", b""
    received = b""
    try:
        try:
            if case["slow"] and data:
                pieces = max(1, min(len(data), 20))
                step = -(-len(data) // pieces)
                for i in range(0, len(data), step):
                    sock.sendall(data[i:i + step])
                    time.sleep(case["slow"] / pieces)
            else:
                sock.sendall(data)
        except OSError:
            pass  # the server may answer and close before it has read everything
        if case["close_early"]:
            return "aborted", b""
        # A complete request has ANSWER_TIMEOUT for its first answer; after that, or for bytes the server
        # may rightly wait on, RAW_TIMEOUT of silence ends the wait.
        sock.settimeout(ANSWER_TIMEOUT if case["complete"] else RAW_TIMEOUT)
        timed_out = False
        while len(statuses_in(received)) < case["expect"]:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                timed_out = True
                break
            except OSError:
                break
            if not chunk:
                break
            received += chunk
            if statuses_in(received):
                sock.settimeout(RAW_TIMEOUT)
        found = statuses_in(received)
        if found and timed_out and case["complete"] and len(found) < case["expect"]:
            return "timeout", received  # some requests on the connection answered, then nothing
        if found:
            worst = max(found, key=lambda s: (s >= 500 and s != 501, s))
            return worst, received
        if timed_out:
            return ("timeout" if case["complete"] else "no-answer"), received
        return "closed", received
    finally:
        sock.close()


# --- The run --------------------------------------------------------------------------------------------


CRASH_MARKS = ("Fatal error:", "*** Program crashed", "*** Signal ")


def down(pid, log):
    """Whether the server is dead or dying: a crashing Swift program writes its backtrace (which can take
    a while) before it exits, so once the log says it crashed, wait for the exit."""
    if not alive(pid):
        return True
    try:
        with open(log, errors="replace") as f:
            text = f.read()
    except OSError:
        return False
    if not any(mark in text for mark in CRASH_MARKS):
        return False
    deadline = time.monotonic() + 300
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    return True


def load_state(path):
    if path and os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {"counts": {}, "offending": [], "served_refused": [], "hangs": [], "crashes": [], "sent": 0,
            "seconds": 0.0, "closed": [], "unanswered": []}


def save_state(path, state):
    with open(path, "w") as f:
        json.dump(state, f)


def key(case, status):
    prefix = "raw " if "raw" in case else ""
    return f"{prefix}{status}"


def judge(case, status, body, state):
    """Counts one answer and records what makes it a failure."""
    k = key(case, status)
    state["counts"][k] = state["counts"].get(k, 0) + 1
    line = f"{status} {describe(case)}"
    if isinstance(status, int) and status >= 500 and status != 501:
        state["offending"].append(line + f" -> {body[:200]!r}")
    elif isinstance(status, int) and 200 <= status < 400 and case["refused"]:
        state["served_refused"].append(line)
    elif status == "timeout":
        if "raw" in case and case["expect"] > 1:
            line += f" (answered {len(statuses_in(body))} of {case['expect']})"
        state["hangs"].append(line)
    elif status == "closed" and "raw" not in case:
        state["closed"].append(line)
    elif status == "no-answer":
        state["unanswered"].append(line)


def cmd_run(a):
    ids = {}
    for name in a.id:
        status, headers, body = get(a.base, f"/iiif/3/{identifier(name)}/info.json")
        if status != 200:
            sys.exit(f"info.json of {name}: {status}")
        info = json.loads(body)
        ids[name] = (info["width"], info["height"], headers.get("ETag", '"none"'))
    cases = Cases(a.seed, ids, a.refused, a.outside, a.root, a.broken).all(a.count)
    state = load_state(a.state)
    lock = threading.Lock()
    next_index = [a.start]
    in_flight = {}
    died = threading.Event()
    started = time.monotonic()

    def worker(n):
        client = Client(a.base)
        while not died.is_set():
            with lock:
                i = next_index[0]
                if i >= len(cases):
                    break
                next_index[0] += 1
                in_flight[n] = i
            case = cases[i]
            try:
                status, body = client.send(case)
            except Exception as e:  # a failure of this script, not of the server: count it, go on
                client.close()
                status, body = f"client error {type(e).__name__}", str(e).encode()
            if not alive(a.pid) or (status in ("closed", "timeout", "no-answer") and down(a.pid, a.log)):
                died.set()
                break
            with lock:
                judge(case, status, body, state)
                state["sent"] += 1
                del in_flight[n]
        client.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(a.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    state["seconds"] += time.monotonic() - started
    if died.is_set() or down(a.pid, a.log):
        culprits = [cases[i] for i in sorted(in_flight.values())]
        state["crashes"].append({"at": sorted(in_flight.values()), "confirmed": []})
        save_state(a.state, state)
        with open(a.candidates, "w") as f:
            for case in culprits:
                f.write(json.dumps(case) + "\n")
        with open(a.next, "w") as f:
            f.write(str(next_index[0]))
        print(f"fuzz: the server died after {state['sent']} requests; in flight: "
              f"{len(culprits)} (replayed one by one next)")
        for case in culprits:
            print(f"  {describe(case)}")
        sys.exit(3)
    save_state(a.state, state)
    print(f"fuzz: sent cases {a.start} to {len(cases) - 1} of {len(cases)}")


def cmd_replay(a):
    with open(a.candidates) as f:
        case = json.loads(f.readlines()[a.line])
    status, body = Client(a.base).send(case)
    time.sleep(0.5)
    state = load_state(a.state)
    if down(a.pid, a.log):
        state["crashes"][-1]["confirmed"].append(describe(case, 2000))
        print(f"replay: KILLS the server: {describe(case, 2000)}")
    else:
        print(f"replay: {status}, the server lives: {describe(case)}")
    save_state(a.state, state)


def cmd_summary(a):
    s = load_state(a.state)
    counts = s["counts"]
    order = sorted(counts, key=lambda k: (k.startswith("raw"), not k.split()[-1].isdigit(), k))
    print(f"fuzz counts by status ({s['sent']} answered or closed, {s['seconds']:.1f} s): "
          + ", ".join(f"{k}: {counts[k]}" for k in order))
    failures = 0

    def section(title, lines):
        nonlocal failures
        if lines:
            failures += len(lines)
            print(f"{title}: {len(lines)}" + ("" if len(lines) <= 20 else " (the first 20)"))
            for line in lines[:20]:
                print(f"  {line}")

    section("5xx other than 501", s["offending"])
    section("refused identifiers answered 2xx or 3xx", s["served_refused"])
    section(f"requests left unanswered (for {ANSWER_TIMEOUT} s, or {RAW_TIMEOUT} s after an earlier answer on the "
            f"connection)", s["hangs"])
    for n, crash in enumerate(s["crashes"], 1):
        failures += 1
        confirmed = crash["confirmed"] or ["(none of the requests in flight killed a fresh server alone)"]
        print(f"server crash {n}: " + "; ".join(confirmed))
    if s["unanswered"]:
        print(f"raw requests left unanswered for {RAW_TIMEOUT} s, which the server may wait on (not a failure): "
              f"{len(s['unanswered'])}; the first 10:")
        for line in s["unanswered"][:10]:
            print(f"  {line}")
    if s["closed"]:
        print(f"connections closed without an answer (not a failure): {len(s['closed'])}; the first 5:")
        for line in s["closed"][:5]:
            print(f"  {line}")
    server_errors = sum(v for k, v in counts.items() if k.split()[-1].isdigit() and k.split()[-1] >= "500"
                        and k.split()[-1] != "501")
    print(f"fuzz {'FAIL' if failures else 'ok'}: {s['sent']} requests, {server_errors} 5xx (not 501), "
          f"{len(s['served_refused'])} refused served, {len(s['hangs'])} unanswered, {len(s['crashes'])} crashes")
    sys.exit(1 if failures else 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("base")
    run.add_argument("pid", type=int)
    run.add_argument("--count", type=int, default=10000)
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--start", type=int, default=0)
    run.add_argument("--threads", type=int, default=4)
    run.add_argument("--state", required=True)
    run.add_argument("--log", required=True)
    run.add_argument("--candidates", required=True)
    run.add_argument("--next", required=True)
    run.add_argument("--id", action="append", required=True)
    run.add_argument("--refused", action="append", default=[])
    run.add_argument("--broken", action="append", default=[])
    run.add_argument("--outside", required=True)
    run.add_argument("--root", required=True)
    replay = sub.add_parser("replay")
    replay.add_argument("base")
    replay.add_argument("pid", type=int)
    replay.add_argument("--state", required=True)
    replay.add_argument("--log", required=True)
    replay.add_argument("--candidates", required=True)
    replay.add_argument("--line", type=int, required=True)
    summary = sub.add_parser("summary")
    summary.add_argument("--state", required=True)
    a = parser.parse_args()
    {"run": cmd_run, "replay": cmd_replay, "summary": cmd_summary}[a.command](a)


if __name__ == "__main__":
    main()
