#!/usr/bin/env python3
"""Regenerates Tests/Corpus/formats/: WebP, HEIF/HEIC, AVIF, TIFF and GIF files with reference decodes.

Run through scripts/make-format-corpus.sh, which checks the tools and swaps the new folder in:
    python3 scripts/lib/format_corpus.py REPO_ROOT OUT_DIR
Standard library only (no numpy, no Pillow). Every corpus file is written by a real encoder, driven
from here: cwebp / img2webp / webpmux (libwebp), heif-enc (libheif with x265 or aom), libvips
(`vips tiffsave`, `heifsave`, `gifsave`), libtiff's tools (tiffcp, tiffmedian, tiffset) and giflib's
(gif2rgb, gifbuild, giftool). Two HEIC files are written by libheif's own encoder through its C API
(ctypes), because heif-enc 1.15 has no option for irot/imir. Python itself neither crops nor
encodes pixels: it runs the tools, builds a 26-byte Exif block, edits gifbuild's text dump, and
damages copies of valid files for bad/.

The reference pixels of every valid file are libvips' decode (`vips copy FILE[fail_on=warning] x.v`),
reduced to RGBA8 by the rules in RULES below. Each reference is cross-checked against a second
decoder where one is installed (dwebp, heif-convert, tiff2rgba, gif2rgb, djpeg, lcms2's tificc).
The folder's README.md, LICENSES.md and manifest.json are written here too.
"""

import array
import ctypes
import hashlib
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile

ICC_DIR = "/usr/share/color/icc"
ADOBE_ICC = f"{ICC_DIR}/colord/AdobeRGB1998.icc"
CMYK_ICC = f"{ICC_DIR}/ghostscript/default_cmyk.icc"  # has A2B1/B2A1, so the relative intent is its own
REF_MAX = 512  # reference PNGs for images of at most 512x512

SAMPLE_LICENSE = {
    "SampleImages/coffee.png": "CC0-1.0 (scikit-image coffee.png, photo by Rachel Michetti)",
    "SampleImages/chelsea.png": "CC0-1.0 (scikit-image chelsea.png, photo by Stefan van der Walt)",
    "SampleImages/astronaut.png": "public domain (NASA; scikit-image astronaut.png)",
    "SampleImages/retina.jpg": "CC0-1.0 (scikit-image retina.jpg, Mikael Häggström)",
    "Tests/Corpus/png/libpng-rgb-alpha-8.png": "libpng licence v2 (libpng contrib/testpngs)",
    "Tests/Corpus/png/libpng-rgb-alpha-16.png": "libpng licence v2 (libpng contrib/testpngs)",
    "Tests/Corpus/png/libpng-rgb-16.png": "libpng licence v2 (libpng contrib/testpngs)",
    "Tests/Corpus/png/libpng-gray-16.png": "libpng licence v2 (libpng contrib/testpngs)",
}

RULES = {
    "pixels": "sha256_rgba8 is the SHA-256 of width*height*4 bytes: R, G, B, A per pixel, 8 bits each, straight "
              "(not premultiplied) alpha, rows top to bottom, no padding",
    "decoder": "libvips 8.14 loads the file with its loader for the format, failing on any warning: `vips webpload|"
               "heifload|tiffload|gifload FILE out.v --fail-on warning` (webpload = libwebp, heifload = libheif with "
               "libde265 / dav1d, tiffload = libtiff, gifload = libnsgif); only the first frame or page (page 0) is used",
    "gray": "gray is copied to R = G = B",
    "alpha": "no alpha channel: A = 255; gray+alpha: A = the alpha sample",
    "16_bit": "16-bit samples (TIFF) become round(v * 255 / 65535), computed exactly as (v + 128) // 257",
    "high_bit_depth_heif": "10- and 12-bit HEIF/AVIF: libheif hands out n-bit values v, which libvips shifts up to 16 "
                           "bits (v << (16 - n)); the reference is round(v * 255 / (2^n - 1)), computed exactly as "
                           "(510 * v + 2^n - 1) // (2 * (2^n - 1)); heif-bitdepth gives n",
    "palette": "palette (TIFF, GIF) is expanded to its colours; TIFF's 16-bit colormap entries are reduced by libvips "
               "as entry >> 8; a GIF's transparent index gives A = 0 with the palette colour kept in R, G, B as "
               "libnsgif hands it out",
    "orientation": "no orientation is applied to sha256_rgba8 or reference_png: a TIFF Orientation tag or a WebP Exif "
                   "Orientation is left as stored and given in `orientation` (1..8, Exif/TIFF meaning), with "
                   "`oriented_width`/`oriented_height` the upright size a viewer shows",
    "heif_transforms": "HEIF/AVIF: the image as libheif delivers it, with its transformative properties (irot, imir, and "
                       "the grid's crop) applied; `orientation` is then 1. An Exif Orientation inside a HEIF file is "
                       "not a transformation (libheif ignores it) and is reported only in `exif_orientation`",
    "cmyk": "CMYK (TIFF, Photometric Separated): lcms2's own `tificc -t0 FILE out.tif` (the embedded profile to "
            "lcms2's built-in sRGB, 8 bits, in the profile header's intent: perceptual for the profile used), read by "
            "libvips; libvips' own icc_transform (through float Lab) is the cross-check",
    "icc": "RGB files with an ICC profile get two hashes: sha256_rgba8 of the stored values (no colour conversion) and "
           "sha256_rgba8_srgb of `vips icc_transform 'FILE[fail_on=warning]' out.v srgb --embedded --intent relative`",
    "tolerance": "`tolerance` is the largest per-channel difference from the reference that a correct decoder may "
                 "show; 0 means a decoder that calls the same library the same way (libwebp WebPDecodeRGBA or "
                 "WebPAnimDecoder, libheif heif_decode_image to interleaved RGB/RGBA, libtiff TIFFReadEncodedStrip/"
                 "Tile) gets these bytes exactly. `tolerance_srgb` is the same for sha256_rgba8_srgb",
    "errors": "expected `error`: the decoder must fail cleanly (no crash, no hang, no huge allocation). `ok-lossy`: "
              "damaged data that the reference decoder still decodes without an error or warning; any picture of the "
              "stated size, or an error, is acceptable, so there is no hash",
}


# ---------------------------------------------------------------------------------------------------------
# Running tools


class Ctx:
    def __init__(self, root, out, tmp):
        self.root, self.out, self.tmp = root, out, tmp
        self.recipe = []  # commands run for the file being made

    def show(self, arg):
        s = str(arg)
        s = s.replace(self.tmp + "/", "$TMP/").replace(self.out + "/", "").replace(self.root + "/", "")
        return shlex.quote(s) if not re.fullmatch(r"[\w@%+=:,./$\[\]-]+", s) else s

    def run(self, cmd, stdin=None, stdout=None, log=True, ok=(0,)):
        """Runs `cmd` (list); `stdin`/`stdout`: file paths for redirection. Returns stdout bytes."""
        if log:
            line = " ".join(self.show(c) for c in cmd)
            if stdin:
                line += " < " + self.show(stdin)
            if stdout:
                line += " > " + self.show(stdout)
            self.recipe.append(line)
        fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
        try:
            p = subprocess.run(cmd, stdin=fin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        finally:
            if stdin:
                fin.close()
        if p.returncode not in ok:
            raise SystemExit(f"format corpus: command failed ({p.returncode}): {' '.join(map(str, cmd))}\n"
                             f"{p.stderr.decode(errors='replace')}")
        if stdout:
            with open(stdout, "wb") as f:
                f.write(p.stdout)
        return p.stdout

    def note(self, text):
        self.recipe.append(text)

    def take_recipe(self):
        r, self.recipe = self.recipe, []
        return r

    def t(self, name):
        return os.path.join(self.tmp, name)

    def o(self, rel):
        return os.path.join(self.out, rel)


def try_run(cmd):
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def sha256(data):
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------------------------------------
# libvips images (.v files) and the RGBA8 rules

class Img:
    def __init__(self, width, height, bands, fmt, interp, data):
        self.width, self.height, self.bands, self.fmt, self.interp, self.data = width, height, bands, fmt, interp, data


def read_v(path):
    d = open(path, "rb").read()
    if d[:4] != b"\xb6\xa6\xf2\x08":
        raise SystemExit(f"{path}: not a little-endian libvips .v file")
    width, height, bands, _, fmt, coding, interp = struct.unpack("<7i", d[4:32])
    if coding != 0 or fmt not in (0, 2):
        raise SystemExit(f"{path}: unexpected libvips format {fmt} / coding {coding}")
    size = width * height * bands * (2 if fmt == 2 else 1)
    data = d[64 : 64 + size]
    if len(data) != size:
        raise SystemExit(f"{path}: short pixel data")
    return Img(width, height, bands, fmt, interp, data)


def vips_load(ctx, src, log=False, loader=None):
    """libvips' decode of `src` as raw samples: `vips LOADER src out.v --fail-on warning`, or without a loader
    `vips copy src out.v` (for the script's own PNGs and TIFFs)."""
    out = ctx.t("load.v")
    if os.path.exists(out):
        os.remove(out)
    if loader:
        ctx.run(["vips", loader, src, out, "--fail-on", "warning"], log=log)
    else:
        ctx.run(["vips", "copy", src, out], log=log)
    return read_v(out)


LOADERS = {"webp": "webpload", "heif": "heifload", "avif": "heifload", "tiff": "tiffload", "gif": "gifload"}


def clean_message(text, ctx):
    """libvips' stderr, made reproducible: GLib's '(vips:PID): VIPS-WARNING **: HH:MM:SS.mmm: ' prefixes shortened,
    paths made relative, repeated lines dropped."""
    text = re.sub(r"\((?:vips|vipsheader):\d+\): VIPS-WARNING \*\*: [\d:.]+: ", "VIPS-WARNING: ", text)
    text = text.replace(ctx.out + "/", "").replace(ctx.tmp + "/", "$TMP/")
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if line and line not in lines:
            lines.append(line)
    return " / ".join(lines)[:500]


T16 = bytes((v + 128) // 257 for v in range(65536))


def table_bits(bits):
    """A 65536-entry table: libvips' 16-bit sample (the `bits`-bit value shifted up) -> 8 bits by rounding."""
    shift, top = 16 - bits, (1 << bits) - 1
    return bytes((510 * (v >> shift) + top) // (2 * top) for v in range(65536))


def to_rgba8(img, bits=16):
    """The RGBA8 rules (RULES) applied to a libvips image of 1-4 bands, uchar or ushort."""
    if img.fmt == 2:
        a = array.array("H")
        a.frombytes(img.data)
        table = T16 if bits == 16 else table_bits(bits)
        data = bytes(map(table.__getitem__, a))
    else:
        data = img.data
    n = img.width * img.height
    out = bytearray(n * 4)
    b = img.bands
    if b == 1:
        out[0::4] = out[1::4] = out[2::4] = data
        out[3::4] = b"\xff" * n
    elif b == 2:
        out[0::4] = out[1::4] = out[2::4] = data[0::2]
        out[3::4] = data[1::2]
    elif b == 3:
        out[0::4], out[1::4], out[2::4] = data[0::3], data[1::3], data[2::3]
        out[3::4] = b"\xff" * n
    elif b == 4:
        out[:] = data
    else:
        raise SystemExit(f"{b} bands")
    assert len(out) == n * 4
    return bytes(out)


def max_diff(a, b, mask_alpha=None):
    """The largest per-byte difference of two equal-length byte strings (optionally only where the RGBA
    reference `mask_alpha` has A = 255, comparing RGB)."""
    if len(a) != len(b):
        raise SystemExit("size mismatch in a comparison")
    if a == b:
        return 0
    m = 0
    if mask_alpha is None:
        for x, y in zip(a, b):
            d = x - y if x > y else y - x
            if d > m:
                m = d
        return m
    for i in range(0, len(a), 4):
        if mask_alpha[i + 3] != 255:
            continue
        for k in range(3):
            d = abs(a[i + k] - b[i + k])
            if d > m:
                m = d
    return m


def write_ref_png(ctx, rgba, width, height, rel):
    """reference/REL.png: an RGBA8 PNG of the reference pixels, written by libvips (libpng), read back to check."""
    raw = ctx.t("ref.raw")
    with open(raw, "wb") as f:
        f.write(rgba)
    path = ctx.o(rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    ctx.run(["vips", "rawload", raw, path + "[compression=9,strip]", str(width), str(height), "4"], log=False)
    back = vips_load(ctx, path)
    if back.bands != 4 or to_rgba8(back) != rgba:
        raise SystemExit(f"{rel}: the PNG does not hold the reference pixels")


def vipsheader_field(path, field):
    rc, out, _ = try_run(["vipsheader", "-f", field, path])
    return out.decode().strip() if rc == 0 else None


# ---------------------------------------------------------------------------------------------------------
# Container parsers (for the manifest and for damaging files)


def parse_tiff(data):
    """IFDs of a TIFF or BigTIFF: a list of pages, each a dict tag -> tuple of values (offsets for large
    values resolved), plus '_sub' (list of SubIFD pages) and '_offset'."""
    bo = "<" if data[:2] == b"II" else ">"
    magic = struct.unpack(bo + "H", data[2:4])[0]
    big = magic == 43
    first = struct.unpack(bo + ("Q" if big else "I"), data[8:16] if big else data[4:8])[0]
    sizes = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8}
    codes = {1: "B", 2: "B", 3: "H", 4: "I", 5: "I", 6: "b", 7: "B", 8: "h", 9: "i", 10: "i", 11: "f", 12: "d",
             13: "I", 16: "Q", 17: "q", 18: "Q"}
    seen = set()

    def read_ifd(off):
        if off in seen or off + 8 > len(data):
            return None, 0
        seen.add(off)
        n = struct.unpack(bo + ("Q" if big else "H"), data[off : off + (8 if big else 2)])[0]
        pos = off + (8 if big else 2)
        esize, inline = (20, 8) if big else (12, 4)
        tags = {"_offset": off}
        for i in range(n):
            e = data[pos + i * esize : pos + (i + 1) * esize]
            tag, typ = struct.unpack(bo + "HH", e[:4])
            count = struct.unpack(bo + ("Q" if big else "I"), e[4 : 12 if big else 8])[0]
            vbytes = e[12:] if big else e[8:]
            size = sizes.get(typ, 1) * count
            if size > inline:
                voff = struct.unpack(bo + ("Q" if big else "I"), vbytes)[0]
                raw = data[voff : voff + size]
            else:
                raw = vbytes[:size]
            n_items = count * (2 if typ in (5, 10) else 1)
            if typ == 2:
                tags[tag] = (raw.rstrip(b"\0").decode("latin1"),)
            elif typ == 7:
                tags[tag] = (raw,)
            elif len(raw) == size:
                tags[tag] = struct.unpack(bo + codes.get(typ, "B") * n_items, raw)
        nxt_pos = pos + n * esize
        nxt = struct.unpack(bo + ("Q" if big else "I"), data[nxt_pos : nxt_pos + (8 if big else 4)])[0]
        return tags, nxt

    def chain(off):
        pages = []
        while off:
            tags, off = read_ifd(off)
            if tags is None:
                break
            tags["_sub"] = []
            for sub in tags.get(330, ()):
                tags["_sub"] += chain(sub)
            pages.append(tags)
        return pages

    return {"big": big, "order": bo, "pages": chain(first)}


TIFF_COMPRESSION = {1: "none", 5: "lzw", 7: "jpeg", 8: "deflate", 32946: "deflate", 32773: "packbits", 4: "ccitt-g4"}


def webp_chunks(data):
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        raise ValueError("not a WebP file")
    pos, out = 12, []
    while pos + 8 <= len(data):
        fourcc, size = data[pos : pos + 4], struct.unpack("<I", data[pos + 4 : pos + 8])[0]
        out.append((fourcc.decode("latin1"), pos + 8, size))
        pos += 8 + size + (size & 1)
    return out


def webp_info(data):
    chunks = webp_chunks(data)
    names = [c[0] for c in chunks]
    info = {"chunks": names, "frames": max(1, names.count("ANMF"))}
    if "ANMF" in names:
        anmf = [c for c in chunks if c[0] == "ANMF"][0]
        sub = data[anmf[1] + 16 : anmf[1] + anmf[2]]
        inner = [sub[i : i + 4] for i in range(0, len(sub) - 4) if sub[i : i + 4] in (b"VP8 ", b"VP8L")]
        info["compression"] = "lossless (VP8L)" if inner and inner[0] == b"VP8L" else "lossy (VP8)"
    else:
        info["compression"] = "lossless (VP8L)" if "VP8L" in names else "lossy (VP8)"
    if "ALPH" in names:
        info["compression"] += " + ALPH"
    info["icc"] = None
    info["exif_orientation"] = None
    for name, start, size in chunks:
        if name == "ICCP":
            info["icc"] = data[start : start + size]
        if name == "EXIF":
            info["exif_orientation"] = exif_orientation(data[start : start + size])
    return info


def exif_orientation(blob):
    if blob.startswith(b"Exif\0\0"):
        blob = blob[6:]
    try:
        t = parse_tiff(blob)
        return t["pages"][0].get(274, (None,))[0]
    except Exception:
        return None


def exif_blob(orientation):
    """A minimal little-endian Exif (TIFF) block, as a WebP EXIF chunk or after 'Exif\\0\\0' in JPEG APP1:
    IFD0 with one entry, Orientation (0x0112, SHORT) = orientation."""
    return b"II*\0" + struct.pack("<IH", 8, 1) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)


def boxes(data, start, end):
    pos = start
    while pos + 8 <= end:
        size, typ = struct.unpack(">I4s", data[pos : pos + 8])
        hdr = 8
        if size == 1:
            size, hdr = struct.unpack(">Q", data[pos + 8 : pos + 16])[0], 16
        elif size == 0:
            size = end - pos
        if size < hdr:
            break
        yield typ.decode("latin1"), pos, pos + hdr, min(pos + size, end)
        pos += size


def heif_info(data):
    """ftyp brand, items (id -> type), primary id, properties, associations (and which are essential), and each
    item's extents in the file (iloc construction method 0: (offset, length) pairs), for the manifest and for
    scripts/make-heif-grid.py."""
    info = {"brand": None, "items": {}, "props": [], "assoc": {}, "essential": {}, "extents": {}, "primary": None,
            "mdat": None}
    top = {t: (s, b, e) for t, s, b, e in boxes(data, 0, len(data))}
    if "ftyp" in top:
        _, b, _ = top["ftyp"]
        info["brand"] = data[b : b + 4].decode("latin1")
    if "mdat" in top:
        info["mdat"] = top["mdat"][1:]
    if "meta" not in top:
        return info
    _, mb, me = top["meta"]
    for t, s, b, e in boxes(data, mb + 4, me):
        if t == "pitm":
            info["primary"] = struct.unpack(">H", data[b + 4 : b + 6])[0]
        elif t == "iinf":
            ver = data[b]
            skip = 4 + (4 if ver else 2)
            for t2, s2, b2, e2 in boxes(data, b + skip, e):
                if t2 == "infe" and data[b2] >= 2:
                    iid = struct.unpack(">H", data[b2 + 4 : b2 + 6])[0]
                    info["items"][iid] = data[b2 + 8 : b2 + 12].decode("latin1")
        elif t == "iprp":
            for t2, s2, b2, e2 in boxes(data, b, e):
                if t2 == "ipco":
                    for t3, s3, b3, e3 in boxes(data, b2, e2):
                        info["props"].append((t3, b3, e3))
                elif t2 == "ipma":
                    ver, flags = data[b2], int.from_bytes(data[b2 + 1 : b2 + 4], "big")
                    pos = b2 + 4
                    n = struct.unpack(">I", data[pos : pos + 4])[0]
                    pos += 4
                    for _ in range(n):
                        if ver < 1:
                            iid = struct.unpack(">H", data[pos : pos + 2])[0]
                            pos += 2
                        else:
                            iid = struct.unpack(">I", data[pos : pos + 4])[0]
                            pos += 4
                        cnt = data[pos]
                        pos += 1
                        lst, essential = [], []
                        for _ in range(cnt):
                            if flags & 1:
                                v = struct.unpack(">H", data[pos : pos + 2])[0]
                                pos += 2
                                lst.append(v & 0x7FFF)
                                essential.append(v >> 15)
                            else:
                                lst.append(data[pos] & 0x7F)
                                essential.append(data[pos] >> 7)
                                pos += 1
                        info["assoc"][iid] = lst
                        info["essential"][iid] = essential
        elif t == "iloc":
            info["extents"] = iloc_extents(data, b, e)
    return info


def iloc_extents(data, b, e):
    """item id -> [(offset, length)] in the file, for items of construction method 0 (the others are left out)."""
    ver = data[b]
    offset_size, length_size = data[b + 4] >> 4, data[b + 4] & 15
    base_size, index_size = data[b + 5] >> 4, (data[b + 5] & 15 if ver >= 1 else 0)
    pos = b + 6

    def number(size):
        nonlocal pos
        value = int.from_bytes(data[pos : pos + size], "big") if size else 0
        pos += size
        return value

    extents = {}
    for _ in range(number(2 if ver < 2 else 4)):
        iid = number(2 if ver < 2 else 4)
        method = number(2) & 15 if ver >= 1 else 0
        number(2)
        base = number(base_size)
        parts = []
        for _ in range(number(2)):
            number(index_size)
            offset = number(offset_size)
            parts.append((base + offset, number(length_size)))
        if method == 0:
            extents[iid] = parts
    return extents


def heif_props_of(data, info, iid):
    return [info["props"][i - 1] for i in info["assoc"].get(iid, []) if 0 < i <= len(info["props"])]


def heif_describe(data):
    """(primary item type, coded size from its ispe, transformative property names, ICC profile bytes or None)."""
    info = heif_info(data)
    pid = info["primary"]
    props = heif_props_of(data, info, pid)
    ispe = None
    transforms, icc, nclx = [], None, None
    for t, b, e in props:
        if t == "ispe":
            ispe = struct.unpack(">II", data[b + 4 : b + 12])
        elif t == "irot":
            transforms.append(f"irot {data[b] & 3} (x90 ccw)")
        elif t == "imir":
            transforms.append(f"imir axis {data[b] & 1}")
        elif t == "colr":
            kind = data[b : b + 4]
            if kind in (b"prof", b"rICC"):
                icc = data[b + 4 : e]
            elif kind == b"nclx":
                nclx = struct.unpack(">HHHB", data[b + 4 : b + 11])
    return {"type": info["items"].get(pid), "ispe": ispe, "transforms": transforms, "icc": icc, "nclx": nclx,
            "brand": info["brand"], "order": [t for t, _, _ in props], "items": info["items"], "mdat": info["mdat"]}


def gif_info(data):
    """Screen size, frames, interlace flags, transparency, and the byte range of the first image's LZW data."""
    if data[:3] != b"GIF":
        raise ValueError("not a GIF")
    sw, sh, flags = struct.unpack("<HHB", data[6:11])
    pos = 13 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
    frames, interlaced, transparent, lzw = 0, [], None, None
    while pos < len(data):
        b = data[pos]
        if b == 0x3B:
            break
        if b == 0x21:
            label = data[pos + 1]
            pos += 2
            if label == 0xF9 and frames == 0 and data[pos + 1] & 1:
                transparent = data[pos + 4]
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
        elif b == 0x2C:
            x, y, w, h, f = struct.unpack("<HHHHB", data[pos + 1 : pos + 10])
            interlaced.append(bool(f & 0x40))
            pos += 10 + (3 * (2 << (f & 7)) if f & 0x80 else 0)
            start = pos + 1
            pos += 1
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
            if frames == 0:
                lzw = (start, pos)
            frames += 1
        else:
            raise ValueError(f"bad GIF block {b:#x}")
    return {"version": data[:6].decode("latin1"), "width": sw, "height": sh, "frames": frames,
            "interlaced": interlaced, "transparent_index": transparent, "lzw": lzw}


def icc_describe(profile):
    n = struct.unpack(">I", profile[128:132])[0]
    for i in range(n):
        sig, off, size = struct.unpack(">4sII", profile[132 + 12 * i : 144 + 12 * i])
        if sig != b"desc":
            continue
        t = profile[off : off + size]
        if t[:4] == b"desc":
            (length,) = struct.unpack(">I", t[8:12])
            return t[12 : 12 + length].rstrip(b"\0").decode("latin1").strip()
        if t[:4] == b"mluc":
            length, offset = struct.unpack(">II", t[20:28])
            return t[offset : offset + length].decode("utf-16-be").strip()
    return "?"


def read_pam(data):
    """dwebp -pam output: (width, height, RGBA bytes)."""
    end = data.index(b"ENDHDR\n") + 7
    head = dict(line.split(" ", 1) for line in data[:end].decode().splitlines()[1:-1])
    w, h = int(head["WIDTH"]), int(head["HEIGHT"])
    assert head["DEPTH"] == "4" and head["MAXVAL"] == "255"
    return w, h, data[end : end + w * h * 4]


# ---------------------------------------------------------------------------------------------------------
# libheif's encoder through its C API (for irot/imir: heif-enc 1.15 has no option for them)


class HeifError(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("subcode", ctypes.c_int), ("message", ctypes.c_char_p)]


def libheif_encode_oriented(rgb, width, height, orientation, quality, path):
    """Encodes 8-bit RGB as HEVC with libheif (x265) and heif_encoding_options.image_orientation =
    `orientation` (options version 5, libheif >= 1.14), so libheif itself writes irot/imir."""
    lib = ctypes.CDLL("libheif.so.1")
    vp, ci = ctypes.c_void_p, ctypes.c_int
    lib.heif_get_version.restype = ctypes.c_char_p
    lib.heif_context_alloc.restype = vp
    lib.heif_context_free.argtypes = [vp]
    lib.heif_context_get_encoder_for_format.restype = HeifError
    lib.heif_context_get_encoder_for_format.argtypes = [vp, ci, ctypes.POINTER(vp)]
    lib.heif_encoder_set_lossy_quality.restype = HeifError
    lib.heif_encoder_set_lossy_quality.argtypes = [vp, ci]
    lib.heif_encoder_release.argtypes = [vp]
    lib.heif_image_create.restype = HeifError
    lib.heif_image_create.argtypes = [ci, ci, ci, ci, ctypes.POINTER(vp)]
    lib.heif_image_add_plane.restype = HeifError
    lib.heif_image_add_plane.argtypes = [vp, ci, ci, ci, ci]
    lib.heif_image_get_plane.restype = ctypes.POINTER(ctypes.c_uint8)
    lib.heif_image_get_plane.argtypes = [vp, ci, ctypes.POINTER(ci)]
    lib.heif_image_release.argtypes = [vp]
    lib.heif_encoding_options_alloc.restype = ctypes.POINTER(ctypes.c_uint8)
    lib.heif_encoding_options_free.argtypes = [ctypes.POINTER(ctypes.c_uint8)]
    lib.heif_context_encode_image.restype = HeifError
    lib.heif_context_encode_image.argtypes = [vp, vp, vp, vp, vp]
    lib.heif_context_write_to_file.restype = HeifError
    lib.heif_context_write_to_file.argtypes = [vp, ctypes.c_char_p]

    def check(err, what):
        if err.code:
            raise SystemExit(f"libheif {what}: {err.code}/{err.subcode} {err.message.decode()}")

    version = lib.heif_get_version().decode()
    ctx = lib.heif_context_alloc()
    enc = vp()
    check(lib.heif_context_get_encoder_for_format(ctx, 1, ctypes.byref(enc)), "get encoder")  # 1 = HEVC
    check(lib.heif_encoder_set_lossy_quality(enc, quality), "set quality")
    img = vp()
    check(lib.heif_image_create(width, height, 1, 10, ctypes.byref(img)), "image create")  # RGB, interleaved RGB
    check(lib.heif_image_add_plane(img, 10, width, height, 8), "add plane")
    stride = ci()
    plane = lib.heif_image_get_plane(img, 10, ctypes.byref(stride))
    base = ctypes.addressof(plane.contents)
    for y in range(height):
        ctypes.memmove(base + y * stride.value, rgb[y * width * 3 : (y + 1) * width * 3], width * 3)
    opts = lib.heif_encoding_options_alloc()
    if opts[0] < 5:
        raise SystemExit(f"libheif {version}: encoding options version {opts[0]} has no image_orientation")
    # struct heif_encoding_options (x86-64): uint8 version, save_alpha_channel, macOS_compatibility_workaround,
    # save_two_colr_boxes...; pointer output_nclx_profile at 8; uint8 macOS_..._no_nclx_profile at 16;
    # enum heif_orientation image_orientation at 20.
    ctypes.cast(base_of(opts) + 20, ctypes.POINTER(ctypes.c_int))[0] = orientation
    check(lib.heif_context_encode_image(ctx, img, enc, ctypes.cast(opts, vp), None), "encode")
    check(lib.heif_context_write_to_file(ctx, path.encode()), "write")
    lib.heif_encoding_options_free(opts)
    lib.heif_image_release(img)
    lib.heif_encoder_release(enc)
    lib.heif_context_free(ctx)
    return version


def base_of(ptr):
    return ctypes.addressof(ptr.contents)


# ---------------------------------------------------------------------------------------------------------
# The corpus


class Corpus:
    def __init__(self, ctx):
        self.ctx = ctx
        self.records = []
        self.checks = []  # cross-check lines for the README
        self.missing = []  # what could not be made
        self.by_file = {}
        self.ref_pngs = {}  # sha256 of RGBA8 pixels -> reference PNG already written for them

    # -- bookkeeping -------------------------------------------------------------------------------------------

    def add(self, rec):
        rec["recipe"] = self.ctx.take_recipe() + rec.get("recipe", [])
        path = self.ctx.o(rec["file"])
        data = open(path, "rb").read()
        rec["bytes"] = len(data)
        rec["file_sha256"] = sha256(data)
        self.records.append(rec)
        self.by_file[rec["file"]] = rec
        return rec

    def reference(self, rel, fmt, bits=16, cmyk=False, icc=False):
        """Loads `rel` with libvips, returns (img, rgba, rec-fields)."""
        ctx = self.ctx
        fields = {}
        if cmyk:
            img = self.cmyk_to_srgb(rel)
        else:
            img = vips_load(ctx, ctx.o(rel), loader=LOADERS[fmt])
        rgba = to_rgba8(img, bits)
        fields["width"], fields["height"] = img.width, img.height
        fields["sha256_rgba8"] = sha256(rgba)
        fields["reference_png"] = self.ref_png(rgba, img.width, img.height, f"reference/{rel}.png")
        if icc:
            simg = self.icc_to_srgb(rel)
            srgb = to_rgba8(simg, bits)
            fields["sha256_rgba8_srgb"] = sha256(srgb)
            fields["reference_png_srgb"] = self.ref_png(srgb, simg.width, simg.height, f"reference/{rel}.srgb.png")
            fields["_srgb"] = srgb
        fields["_img"], fields["_rgba"] = img, rgba
        return fields

    def cmyk_to_srgb(self, rel):
        """lcms2's own tificc with the profile header's intent (-t0, perceptual for the profile used), the embedded
        profile to lcms2's built-in sRGB, 8 bits: the conversion docs/design.md section 14 makes."""
        ctx = self.ctx
        ctx.run(["tificc", "-t0", ctx.o(rel), ctx.t("cmyk-srgb.tif")], log=False)
        return vips_load(ctx, ctx.t("cmyk-srgb.tif"), loader="tiffload")

    def ref_png(self, rgba, width, height, refrel):
        """The reference PNG for these pixels: an earlier file's if it had the very same pixels, else a new one."""
        if width > REF_MAX or height > REF_MAX:
            return None
        key = sha256(rgba)
        if key not in self.ref_pngs:
            write_ref_png(self.ctx, rgba, width, height, refrel)
            self.ref_pngs[key] = refrel
        return self.ref_pngs[key]

    def icc_to_srgb(self, rel):
        """`vips icc_transform 'FILE[fail_on=warning]' out.v srgb --embedded --intent relative`; refuses to go on if
        libvips warns (it falls back to its own default profile when the embedded one lacks the intent)."""
        out = self.ctx.t("icc.v")
        rc, _, err = try_run(["vips", "icc_transform", self.ctx.o(rel) + "[fail_on=warning]", out, "srgb",
                              "--embedded", "--intent", "relative"])
        if rc != 0 or "WARNING" in err:
            raise SystemExit(f"{rel}: vips icc_transform: {err}")
        return read_v(out)

    def finish(self, rec):
        for k in [k for k in rec if k.startswith("_")]:
            del rec[k]
        return rec

    # -- cross-checks ------------------------------------------------------------------------------------------

    def check(self, rel, line):
        self.checks.append(f"`{rel}`: {line}")

    def cross_dwebp(self, rel, rgba, frame_of=None):
        ctx = self.ctx
        src = ctx.o(rel)
        if frame_of:
            src = ctx.t("frame1.webp")
            ctx.run(["webpmux", "-get", "frame", "1", ctx.o(rel), "-o", src], log=False)
        pam = ctx.t("d.pam")
        ctx.run(["dwebp", "-pam", src, "-o", pam], log=False)
        w, h, px = read_pam(open(pam, "rb").read())
        d = max_diff(px, rgba)
        how = "dwebp -pam" + (" of `webpmux -get frame 1`" if frame_of else "")
        self.check(rel, f"{how} (libwebp, fancy upsampling): max difference {d}")
        return d

    def cross_heif_convert(self, rel, rgba, bits):
        ctx = self.ctx
        png = ctx.t("hc.png")
        ctx.run(["heif-convert", "--quiet", ctx.o(rel), png], log=False)
        img = vips_load(ctx, png)
        got = to_rgba8(img, 16)
        d = max_diff(got, rgba)
        self.check(rel, f"heif-convert to PNG (libheif {'16-bit PNG, reduced by (v+128)//257' if img.fmt == 2 else '8-bit'}): "
                        f"max difference {d}")
        return d

    def cross_tiff2rgba(self, rel, rgba, has_alpha):
        """libtiff's TIFFReadRGBAImage (tiff2rgba -c none); its output is associated (premultiplied) alpha:
        compare against the reference premultiplied as libtiff does it, (v * a + 127) // 255."""
        ctx = self.ctx
        out = ctx.t("t2r.tif")
        ctx.run(["tiff2rgba", "-c", "none", ctx.o(rel), out], log=False)
        data = open(out, "rb").read()
        t = parse_tiff(data)
        p = t["pages"][0]
        px = b"".join(data[o : o + c] for o, c in zip(p[273], p[279]))
        w, h = p[256][0], p[257][0]
        spp = p[277][0]
        got = bytearray(w * h * 4)
        if spp == 4:
            got[:] = px[: w * h * 4]
        else:
            got[0::4], got[1::4], got[2::4] = px[0::3], px[1::3], px[2::3]
            got[3::4] = b"\xff" * (w * h)
        exp = bytearray(rgba)
        if has_alpha:
            for i in range(0, len(exp), 4):
                a = exp[i + 3]
                if a != 255:
                    for k in range(3):
                        exp[i + k] = (exp[i + k] * a + 127) // 255
        if spp != 4:
            exp[3::4] = b"\xff" * (w * h)
        d = max_diff(bytes(got), bytes(exp))
        self.check(rel, f"tiff2rgba (libtiff TIFFReadRGBAImage{', premultiplied alpha' if has_alpha else ''}): "
                        f"max difference {d}")
        return d

    def cross_gif2rgb(self, rel, rgba):
        ctx = self.ctx
        out = ctx.t("g.rgb")
        ctx.run(["gif2rgb", "-1", "-o", out, ctx.o(rel)], log=False)
        px = open(out, "rb").read()
        n = len(rgba) // 4
        if len(px) != n * 3:
            self.check(rel, f"gif2rgb (giflib) wrote {len(px)} bytes, not {n * 3}: not compared")
            return None
        got = bytearray(rgba)
        got[0::4], got[1::4], got[2::4] = px[0::3], px[1::3], px[2::3]
        opaque = sum(1 for a in rgba[3::4] if a == 255)
        d = max_diff(bytes(got), rgba, mask_alpha=rgba)
        self.check(rel, f"gif2rgb (giflib), RGB of the {opaque} opaque pixels: max difference {d}")
        return d

    def cross_tificc(self, rel, srgb):
        """lcms2's own tificc (embedded profile -> its built-in sRGB, relative intent) on the stored values as
        libvips decodes them (copied into a TIFF with the profile, by vips tiffsave)."""
        ctx = self.ctx
        tin, tout = ctx.t("cc-in.tif"), ctx.t("cc-out.tif")
        ctx.run(["vips", "tiffsave", ctx.o(rel) + "[fail_on=warning]", tin], log=False)
        ctx.run(["tificc", "-t1", tin, tout], log=False)
        got = to_rgba8(vips_load(ctx, tout))
        d = max_diff(got, srgb)
        self.check(rel, f"lcms2's tificc -t1 (relative intent) from the embedded profile to sRGB, against "
                        f"sha256_rgba8_srgb: max difference {d}")
        return d

    def jpeg_tiff_alternatives(self, rel, rgba):
        """Rebuilds each JPEG tile (JPEGTables + tile) of page 0 as a JPEG file and decodes it with djpeg,
        with fancy upsampling (libjpeg's default) and without (-nosmooth), and with the float IDCT: how far
        other libjpeg settings land from the reference. Returns {setting: max difference}."""
        ctx = self.ctx
        data = open(ctx.o(rel), "rb").read()
        p = parse_tiff(data)["pages"][0]
        w, h = p[256][0], p[257][0]
        tw, th = p[322][0], p[323][0]
        tables = p[347][0]
        offs, counts = p[324], p[325]
        across = (w + tw - 1) // tw
        results = {}
        for label, extra in [("djpeg (ISLOW, fancy upsampling)", []), ("djpeg -nosmooth", ["-nosmooth"]),
                             ("djpeg -dct float", ["-dct", "float"]), ("djpeg -dct fast -nosmooth",
                                                                       ["-dct", "fast", "-nosmooth"])]:
            full = bytearray(w * h * 4)
            for i, (o, c) in enumerate(zip(offs, counts)):
                jpg = tables[:-2] + data[o + 2 : o + c]
                path = ctx.t("tile.jpg")
                with open(path, "wb") as f:
                    f.write(jpg)
                ppm = ctx.run(["djpeg", "-pnm", *extra, path], log=False)
                m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", ppm)
                tw2, th2 = int(m.group(1)), int(m.group(2))
                px = ppm[m.end() :]
                x0, y0 = (i % across) * tw, (i // across) * th
                for y in range(min(th, h - y0)):
                    row = px[y * tw2 * 3 : y * tw2 * 3 + min(tw, w - x0) * 3]
                    dst = ((y0 + y) * w + x0) * 4
                    seg = bytearray(len(row) // 3 * 4)
                    seg[0::4], seg[1::4], seg[2::4] = row[0::3], row[1::3], row[2::3]
                    seg[3::4] = b"\xff" * (len(row) // 3)
                    full[dst : dst + len(seg)] = seg
            results[label] = max_diff(bytes(full), rgba)
        return results

    # -- sources -------------------------------------------------------------------------------------------------

    def make_sources(self):
        """Intermediate pictures in $TMP (not part of the corpus): crops of the repository's images."""
        ctx = self.ctx
        S = {}

        def crop_shrink(name, src, x, y, w, h, shrink=2):
            out = ctx.t(f"{name}.v")
            if shrink > 1:
                t1 = ctx.t(f"{name}-crop.v")
                ctx.run(["vips", "crop", os.path.join(ctx.root, src), t1, str(x), str(y), str(w), str(h)])
                ctx.run(["vips", "shrink", t1, out, str(shrink), str(shrink)])
            else:
                ctx.run(["vips", "crop", os.path.join(ctx.root, src), out, str(x), str(y), str(w), str(h)])
            png = ctx.t(f"{name}.png")
            ctx.run(["vips", "pngsave", out, png, "--strip"])
            S[name] = {"v": out, "png": png, "source": src, "recipe": ctx.take_recipe()}

        # 128x96 photos: 2x2 box averages (vips shrink) of 256x192 crops
        crop_shrink("coffee", "SampleImages/coffee.png", 172, 8, 256, 192)
        crop_shrink("chelsea", "SampleImages/chelsea.png", 100, 40, 256, 192)
        crop_shrink("astronaut", "SampleImages/astronaut.png", 128, 64, 256, 192)
        crop_shrink("alpha8", "Tests/Corpus/png/libpng-rgb-alpha-8.png", 64, 64, 128, 96, 1)
        crop_shrink("alpha16", "Tests/Corpus/png/libpng-rgb-alpha-16.png", 0, 0, 64, 48, 1)
        crop_shrink("rgb16", "Tests/Corpus/png/libpng-rgb-16.png", 64, 64, 128, 96, 1)
        crop_shrink("gray16", "Tests/Corpus/png/libpng-gray-16.png", 64, 64, 128, 96, 1)
        crop_shrink("odd17x9", "SampleImages/chelsea.png", 210, 120, 17, 9, 1)
        crop_shrink("odd255x3", "SampleImages/coffee.png", 170, 200, 255, 3, 1)
        crop_shrink("one", "SampleImages/coffee.png", 300, 150, 1, 1, 1)
        crop_shrink("retina", "SampleImages/retina.jpg", 105, 255, 1200, 900, 1)
        # gray: libvips' colourspace b-w of the coffee crop
        g = ctx.t("coffee-gray.v")
        ctx.run(["vips", "colourspace", S["coffee"]["v"], g, "b-w"])
        S["gray8"] = {"v": g, "source": "SampleImages/coffee.png", "recipe": S["coffee"]["recipe"] + ctx.take_recipe()}
        # Adobe RGB: the coffee crop (untagged: sRGB) converted into the space by lcms2 through libvips
        a = ctx.t("coffee-adobergb.v")
        ctx.run(["vips", "icc_transform", S["coffee"]["v"], a, ADOBE_ICC, "--intent", "relative"])
        ap = ctx.t("coffee-adobergb.png")
        ctx.run(["vips", "pngsave", a, ap, "--strip"])
        S["adobergb"] = {"v": a, "png": ap, "source": "SampleImages/coffee.png",
                         "recipe": S["coffee"]["recipe"] + ctx.take_recipe()}
        for k in S:
            S[k].setdefault("license", SAMPLE_LICENSE[S[k]["source"]])
        self.S = S

    def src(self, key):
        s = self.S[key]
        self.ctx.recipe = list(s["recipe"]) + self.ctx.recipe
        return s

    def base(self, rel, fmt, key, category, notes, **extra):
        s = self.S[key]
        rec = {"file": rel, "format": fmt, "expected": "ok", "category": category, "notes": notes,
               "source": s["source"], "license": s["license"]}
        rec.update(extra)
        return rec

    # -- WebP ------------------------------------------------------------------------------------------------------

    def webp_record(self, rel, key, category, notes):
        ctx = self.ctx
        data = open(ctx.o(rel), "rb").read()
        info = webp_info(data)
        ref = self.reference(rel, "webp", icc=info["icc"] is not None)
        img = ref["_img"]
        orient = info["exif_orientation"] or 1
        rec = self.base(rel, "webp", key, category, notes)
        rec.update({k: v for k, v in ref.items()})
        swap = orient in (5, 6, 7, 8)
        rec.update({
            "orientation": orient,
            "oriented_width": img.height if swap else img.width,
            "oriented_height": img.width if swap else img.height,
            "bit_depth": 8,
            "has_alpha": img.bands == 4 and any(a != 255 for a in ref["_rgba"][3::4]),
            "frames": info["frames"],
            "compression": info["compression"],
            "icc": icc_describe(info["icc"]) if info["icc"] else None,
            "tolerance": 0,
            "webp_chunks": info["chunks"],
        })
        rec["color"] = "rgba" if rec["has_alpha"] else "rgb"
        if img.bands == 4 and not rec["has_alpha"]:
            rec["notes"] += " libvips hands out 4 bands (the animation canvas is RGBA); every A is 255."
        d = self.cross_dwebp(rel, ref["_rgba"], frame_of=info["frames"] > 1)
        if d:
            raise SystemExit(f"{rel}: dwebp disagrees with libvips by {d}")
        if info["icc"]:
            rec["tolerance_srgb"] = max(2, self.cross_tificc(rel, ref["_srgb"]))
        self.add(rec)
        return self.finish(rec)

    def make_webp(self):
        ctx = self.ctx
        os.makedirs(ctx.o("webp"), exist_ok=True)
        s = self.src("coffee")
        ctx.run(["cwebp", "-quiet", "-q", "80", s["png"], "-o", ctx.o("webp/lossy-q80.webp")])
        self.webp_record("webp/lossy-q80.webp", "coffee", "lossy",
                         "Simple-format lossy WebP (RIFF + one VP8 chunk), cwebp -q 80, 4:2:0.")
        s = self.src("coffee")
        ctx.run(["cwebp", "-quiet", "-lossless", s["png"], "-o", ctx.o("webp/lossless.webp")])
        self.webp_record("webp/lossless.webp", "coffee", "lossless", "Simple-format lossless WebP (one VP8L chunk).")
        s = self.src("alpha8")
        ctx.run(["cwebp", "-quiet", "-q", "80", s["png"], "-o", ctx.o("webp/lossy-alpha.webp")])
        self.webp_record("webp/lossy-alpha.webp", "alpha8", "lossy+alpha",
                         "Extended format: VP8X, ALPH (the alpha plane: lossless compression, horizontal filter), "
                         "VP8. cwebp's default "
                         "(no -exact) may change RGB under fully transparent pixels; the reference is what libwebp "
                         "decodes.")
        s = self.src("alpha8")
        ctx.run(["cwebp", "-quiet", "-lossless", s["png"], "-o", ctx.o("webp/lossless-alpha.webp")])
        self.webp_record("webp/lossless-alpha.webp", "alpha8", "lossless+alpha",
                         "Lossless with alpha (VP8L carries the alpha itself; no ALPH chunk). Without -exact, RGB "
                         "under A = 0 is not kept.")
        # animation: three different pictures
        frames = [self.S[k]["png"] for k in ("coffee", "chelsea", "astronaut")]
        ctx.recipe = (self.S["coffee"]["recipe"] + self.S["chelsea"]["recipe"] + self.S["astronaut"]["recipe"]
                      + ctx.recipe)
        ctx.run(["img2webp", "-loop", "0", "-d", "500", "-lossy", "-q", "80", *frames,
                 "-o", ctx.o("webp/animated-3frames.webp")])
        rec = self.webp_record("webp/animated-3frames.webp", "coffee", "animated",
                               "Animated WebP: VP8X with the animation flag, ANIM, three ANMF frames (coffee, the cat, "
                               "the astronaut; 500 ms each, loop forever). Only the first frame is the reference "
                               "(libvips: WebPAnimDecoder, frame 1 on a transparent canvas).")
        rec["source"] = "SampleImages/coffee.png (frame 1), SampleImages/chelsea.png, SampleImages/astronaut.png"
        rec["license"] = "CC0-1.0 (coffee, chelsea); public domain (astronaut)"
        # Exif orientation 6
        s = self.src("coffee")
        exif = ctx.t("orient6.exif")
        with open(exif, "wb") as f:
            f.write(exif_blob(6))
        ctx.note("# $TMP/orient6.exif: 26 bytes, little-endian TIFF header + IFD0 {Orientation (0x0112) SHORT 6}")
        ctx.run(["cwebp", "-quiet", "-q", "80", s["png"], "-o", ctx.t("plain.webp")])
        ctx.run(["webpmux", "-set", "exif", exif, ctx.t("plain.webp"), "-o", ctx.o("webp/exif-orientation-6.webp")])
        self.webp_record("webp/exif-orientation-6.webp", "coffee", "orientation",
                         "lossy-q80.webp's VP8 data with VP8X + EXIF chunk (payload starts with the TIFF header "
                         "'II*\\0', no 'Exif\\0\\0' prefix, as the WebP container spec says). Orientation 6: shown "
                         "rotated 90 degrees clockwise, 96x128.")
        # ICC
        s = self.src("adobergb")
        ctx.run(["cwebp", "-quiet", "-q", "80", s["png"], "-o", ctx.t("adobe.webp")])
        ctx.run(["webpmux", "-set", "icc", ADOBE_ICC, ctx.t("adobe.webp"), "-o", ctx.o("webp/icc-adobergb.webp")])
        self.webp_record("webp/icc-adobergb.webp", "adobergb", "icc",
                         "The photo converted into Adobe RGB (vips icc_transform, relative intent), cwebp -q 80, then "
                         "VP8X + ICCP chunk holding colord's AdobeRGB1998.icc (18,604 B). Stored values look "
                         "desaturated if the profile is ignored.")
        s = self.src("odd17x9")
        ctx.run(["cwebp", "-quiet", "-q", "80", s["png"], "-o", ctx.o("webp/odd-17x9.webp")])
        self.webp_record("webp/odd-17x9.webp", "odd17x9", "odd-size",
                         "17x9 lossy: odd width and height, so the 4:2:0 chroma planes are 9x5.")

    # -- HEIF / AVIF -----------------------------------------------------------------------------------------------

    def heif_record(self, rel, fmt, key, category, notes, tolerance=0, exif_orientation=None, cross=True):
        ctx = self.ctx
        data = open(ctx.o(rel), "rb").read()
        desc = heif_describe(data)
        bits = int(vipsheader_field(ctx.o(rel), "heif-bitdepth") or 8)
        ref = self.reference(rel, fmt, bits=bits, icc=desc["icc"] is not None)
        img = ref["_img"]
        rec = self.base(rel, fmt, key, category, notes)
        rec.update(ref)
        has_alpha = img.bands == 4
        rec.update({
            "orientation": 1,
            "oriented_width": img.width,
            "oriented_height": img.height,
            "bit_depth": bits,
            "has_alpha": has_alpha,
            "frames": 1,
            "compression": {"hvc1": "hevc", "av01": "av1", "grid": "grid of " + "/".join(
                sorted(set(v for v in desc["items"].values() if v in ("hvc1", "av01"))))}.get(desc["type"], desc["type"]),
            "color": "rgba" if has_alpha else "rgb",
            "icc": icc_describe(desc["icc"]) if desc["icc"] else None,
            "tolerance": tolerance if bits == 8 else max(tolerance, 1),
            "heif_brand": desc["brand"],
            "heif_primary_item": desc["type"],
            "heif_properties": desc["order"],
            "coded_width": desc["ispe"][0] if desc["ispe"] else None,
            "coded_height": desc["ispe"][1] if desc["ispe"] else None,
        })
        if desc["nclx"]:
            rec["nclx"] = dict(zip(("colour_primaries", "transfer_characteristics", "matrix_coefficients",
                                    "full_range_flag"), desc["nclx"]))
            rec["nclx"]["full_range_flag"] >>= 7
        if exif_orientation is not None:
            rec["exif_orientation"] = exif_orientation
        if cross:
            d = self.cross_heif_convert(rel, ref["_rgba"], bits)
            if d > (0 if bits == 8 else 1):
                raise SystemExit(f"{rel}: heif-convert disagrees with libvips by {d}")
        if desc["icc"]:
            rec["tolerance_srgb"] = max(2, self.cross_tificc(rel, ref["_srgb"]))
        self.add(rec)
        return self.finish(rec)

    def make_heif(self):
        ctx = self.ctx
        os.makedirs(ctx.o("heif"), exist_ok=True)
        os.makedirs(ctx.o("avif"), exist_ok=True)
        # HEIC ---------------------------------------------------------------------------------------------
        s = self.src("coffee")
        ctx.run(["heif-enc", "-q", "80", "-o", ctx.o("heif/plain.heic"), s["png"]])
        self.heif_record("heif/plain.heic", "heif", "coffee", "plain",
                         "HEIC (x265 via heif-enc -q 80), 8-bit 4:2:0, one hvc1 item; no colr box (heif-enc 1.15 "
                         "writes none here), so the YCbCr->RGB conversion is libheif's default for HEVC.")
        s = self.src("alpha8")
        ctx.run(["heif-enc", "-q", "80", "-o", ctx.o("heif/alpha.heic"), s["png"]])
        self.heif_record("heif/alpha.heic", "heif", "alpha8", "alpha",
                         "HEIC with alpha: a second hvc1 item (monochrome) linked by an auxl reference, auxC "
                         "urn:mpeg:hevc:2015:auxid:1; not premultiplied.")
        s = self.src("rgb16")
        ctx.run(["heif-enc", "-b", "10", "-q", "80", "-o", ctx.o("heif/10bit.heic"), s["png"]])
        self.heif_record("heif/10bit.heic", "heif", "rgb16", "10-bit",
                         "10-bit HEIC (HEVC Main 10) from a 16-bit PNG (heif-enc -b 10). Reference: the 10-bit values "
                         "reduced by round(v*255/1023); tolerance 1 covers a decoder that takes the top 8 bits.")
        s = self.src("adobergb")
        ctx.run(["vips", "heifsave", s["v"], ctx.o("heif/icc-adobergb.heic"), "--Q", "80", "--bitdepth", "8",
                 "--compression", "hevc"])
        self.heif_record("heif/icc-adobergb.heic", "heif", "adobergb", "icc",
                         "The photo converted into Adobe RGB, written by libvips' heifsave (libheif + x265), which "
                         "keeps the image's ICC profile: a colr box of type rICC (restricted ICC, not prof) holding "
                         "colord's AdobeRGB1998.icc; libvips also adds a small Exif item. A reader that only looks "
                         "for colr 'prof' misses the profile.")
        # Exif orientation in a HEIC (no irot): a JPEG with Exif Orientation 6 through heif-enc (copies the Exif)
        s = self.src("coffee")
        jpg = ctx.t("coffee.jpg")
        ctx.run(["vips", "jpegsave", s["v"], jpg, "--Q", "95", "--strip"])
        raw = open(jpg, "rb").read()
        app1 = b"Exif\0\0" + exif_blob(6)
        with open(ctx.t("coffee-exif6.jpg"), "wb") as f:
            f.write(raw[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + raw[2:])
        ctx.note("# $TMP/coffee-exif6.jpg: coffee.jpg with an APP1 'Exif\\0\\0' + the 26-byte Orientation=6 "
                 "block inserted after SOI")
        ctx.run(["heif-enc", "-q", "80", "-o", ctx.o("heif/exif-orientation-6.heic"), ctx.t("coffee-exif6.jpg")])
        self.heif_record("heif/exif-orientation-6.heic", "heif", "coffee", "orientation",
                         "HEIC with an Exif item whose IFD0 Orientation is 6 (heif-enc copies the JPEG's Exif) and no "
                         "irot/imir. In HEIF only the transformative properties rotate; libheif ignores the Exif "
                         "tag, so the reference is upright 128x96 (orientation 1). A viewer that rotates by the Exif "
                         "tag shows it sideways.", exif_orientation=6)
        # irot / imir through libheif's API
        for orient, name, what in [(6, "irot-6.heic", "irot (orientation 6: rotate 90 cw)"),
                                   (5, "irot-imir-5.heic", "irot + imir (orientation 5: transpose)")]:
            self.src("coffee")
            ctx.run(["vips", "rawsave", self.S["coffee"]["v"], ctx.t("coffee.rgb")])
            pixels = open(ctx.t("coffee.rgb"), "rb").read()
            rel = f"heif/{name}"
            version = libheif_encode_oriented(pixels, 128, 96, orient, 80, ctx.o(rel))
            ctx.note(f"# libheif {version} C API (ctypes, scripts/lib/format_corpus.py libheif_encode_oriented): "
                     f"heif_image_create 128x96 interleaved RGB from $TMP/coffee.rgb, x265 quality 80, "
                     f"heif_encoding_options.image_orientation = {orient}, heif_context_encode_image, "
                     f"heif_context_write_to_file")
            rec = self.heif_record(rel, "heif", "coffee", "orientation-irot", "")
            match = self.which_transform(rel)
            data = open(ctx.o(rel), "rb").read()
            desc = heif_describe(data)
            rec["notes"] = (
                f"HEIC with {what}, written by libheif {version}'s own encoder (heif_encoding_options.image_orientation"
                f" = {orient}; heif-enc 1.15 has no option for it). The item's properties, in ipma order: "
                f"{', '.join(desc['order'])} ({'; '.join(desc['transforms'])}). The reference is libheif's decode "
                f"with the transformations applied, in ipma order ({img_size(rec)}): it matches the stored 128x96 "
                f"picture {match}."
                + (" imir axis 1 means the left and right parts are exchanged (ISO/IEC 23008-12:2022's reading, "
                   "followed by libheif, libavif >= 1.0 and Chrome; the 2017 wording was read the other way by some "
                   "decoders)." if "imir" in what else "")
                + f" Writer quirks of libheif 1.15, kept as made: its ispe says {desc['ispe'][0]}x{desc['ispe'][1]} "
                f"(the displayed size) although the HEVC stream is 128x96 (HEIF defines ispe as the size before "
                f"transformations), and the transformative properties come before ispe in ipma. libheif 1.15 reads "
                f"it back consistently; a decoder that rotates ispe's size to predict the output gets "
                f"{desc['ispe'][1]}x{desc['ispe'][0]} and must trust the decoded stream instead.")
            rec["coded_width"], rec["coded_height"] = 128, 96
            rec["ispe_width"], rec["ispe_height"] = desc["ispe"]
        # grid (odd size): heif-enc wraps an odd-sized picture in a 1x1 grid
        s = self.src("odd17x9")
        ctx.run(["heif-enc", "-q", "80", "-o", ctx.o("heif/odd-17x9-grid.heic"), s["png"]])
        data = open(ctx.o("heif/odd-17x9-grid.heic"), "rb").read()
        desc = heif_describe(data)
        tiles = [k for k, v in desc["items"].items() if v == "hvc1"]
        info = heif_info(data)
        tile_ispe = [struct.unpack(">II", data[b + 4 : b + 12]) for t, b, e in heif_props_of(data, info, tiles[0])
                     if t == "ispe"][0]
        self.heif_record("heif/odd-17x9-grid.heic", "heif", "odd17x9", "grid+odd-size",
                         f"17x9. libheif 1.15 (heif-enc) cannot store an odd-sized 4:2:0 HEVC image, so it encodes a "
                         f"{tile_ispe[0]}x{tile_ispe[1]} hvc1 tile (the picture padded) and makes the primary item a "
                         f"1x1 'grid' (ImageGrid in an idat, dimg reference) whose output size 17x9 crops it. A "
                         f"decoder must honour the grid's output size.")
        # AVIF ---------------------------------------------------------------------------------------------
        s = self.src("coffee")
        ctx.run(["heif-enc", "-A", "-q", "70", "-o", ctx.o("avif/plain.avif"), s["png"]])
        self.heif_record("avif/plain.avif", "avif", "coffee", "plain",
                         "AVIF (aom via heif-enc -A -q 70), 8-bit 4:2:0, one av01 item.")
        s = self.src("alpha8")
        ctx.run(["heif-enc", "-A", "-q", "70", "-o", ctx.o("avif/alpha.avif"), s["png"]])
        self.heif_record("avif/alpha.avif", "avif", "alpha8", "alpha",
                         "AVIF with an alpha auxiliary item (auxC urn:mpeg:mpegB:cicp:systems:auxiliary:alpha).")
        s = self.src("rgb16")
        ctx.run(["heif-enc", "-A", "-b", "10", "-p", "chroma=422", "-q", "70", "-o", ctx.o("avif/10bit-422.avif"),
                 s["png"]])
        self.heif_record("avif/10bit-422.avif", "avif", "rgb16", "10-bit",
                         "10-bit AVIF, 4:2:2 (AV1 profile 2, Professional), from a 16-bit PNG (heif-enc -A -b 10 -p "
                         "chroma=422; 10-bit 4:2:0 or 4:4:4 could not be made, see README). nclx colr box. "
                         "Reference: round(v*255/1023) of the 10-bit values; tolerance 1.")
        s = self.src("rgb16")
        ctx.run(["heif-enc", "-A", "-b", "12", "-q", "70", "-o", ctx.o("avif/12bit.avif"), s["png"]])
        self.heif_record("avif/12bit.avif", "avif", "rgb16", "12-bit",
                         "12-bit AVIF, 4:2:0 (AV1 profile 2), from a 16-bit PNG (heif-enc -A -b 12). Reference: "
                         "round(v*255/4095) of the 12-bit values ((510*v + 4095) // 8190); tolerance 1.")
        s = self.src("adobergb")
        ctx.run(["vips", "heifsave", s["v"], ctx.o("avif/icc-adobergb.avif"), "--Q", "70", "--bitdepth", "8",
                 "--compression", "av1"])
        self.heif_record("avif/icc-adobergb.avif", "avif", "adobergb", "icc",
                         "The photo converted into Adobe RGB, libvips heifsave --compression av1 (libheif + aom): a "
                         "colr box of type rICC with colord's AdobeRGB1998.icc (and no nclx colr), plus a small Exif "
                         "item.")
        s = self.src("odd17x9")
        ctx.run(["heif-enc", "-A", "-q", "70", "-o", ctx.o("avif/odd-17x9.avif"), s["png"]])
        self.heif_record("avif/odd-17x9.avif", "avif", "odd17x9", "odd-size",
                         "17x9 AVIF: AV1 codes odd sizes directly (no grid).")

    def which_transform(self, rel):
        """Which rotation/mirroring of the stored coffee picture libheif's decode of `rel` matches best."""
        ctx = self.ctx
        got = vips_load(ctx, ctx.o(rel), loader="heifload")
        best = None
        for label, cmd in [("rotated 90 degrees clockwise", ["rot", "d90"]),
                           ("rotated 90 degrees counter-clockwise", ["rot", "d270"]),
                           ("transposed (rotated 90 cw, then mirrored left-right)", ["rot", "d90", "flip"]),
                           ("transversed (rotated 90 ccw, then mirrored left-right)", ["rot", "d270", "flip"])]:
            out = ctx.t("tr.v")
            ctx.run(["vips", "rot", self.S["coffee"]["v"], out, cmd[1]], log=False)
            if len(cmd) == 3:
                ctx.run(["vips", "flip", out, ctx.t("tr2.v"), "horizontal"], log=False)
                out = ctx.t("tr2.v")
            ref = read_v(out)
            if (ref.width, ref.height) != (got.width, got.height):
                continue
            mad = sum(abs(a - b) for a, b in zip(ref.data, got.data)) / len(ref.data)
            if best is None or mad < best[0]:
                best = (mad, label)
        return f"{best[1]} (mean |difference| {best[0]:.2f} from the lossy coding)"

    # -- TIFF ------------------------------------------------------------------------------------------------------

    def tiff_record(self, rel, key, category, notes, tolerance=0, cross=True, color=None, cmyk=False,
                    tolerance_note=None):
        ctx = self.ctx
        data = open(ctx.o(rel), "rb").read()
        t = parse_tiff(data)
        p0 = t["pages"][0]
        bits = p0.get(258, (1,))[0]
        photometric = p0.get(262, (None,))[0]
        spp = p0.get(277, (1,))[0]
        extra = p0.get(338, ())
        orient = p0.get(274, (1,))[0]
        icc = p0.get(34675, (None,))[0]
        ref = self.reference(rel, "tiff", cmyk=cmyk, icc=(icc is not None and not cmyk))
        img = ref["_img"]
        rec = self.base(rel, "tiff", key, category, notes)
        rec.update(ref)
        has_alpha = bool(extra)
        if color is None:
            color = {0: "gray", 1: "gray", 2: "rgb", 3: "palette", 5: "cmyk", 6: "rgb (YCbCr in JPEG)"}.get(photometric)
            if has_alpha:
                color += "a" if color in ("gray", "rgb") else "+alpha"
        swap = orient in (5, 6, 7, 8)
        layout = (f"tiled {p0[322][0]}x{p0[323][0]}" if 322 in p0 else f"strips of {p0.get(278, (p0[257][0],))[0]} rows")
        rec.update({
            "orientation": orient,
            "oriented_width": img.height if swap else img.width,
            "oriented_height": img.width if swap else img.height,
            "bit_depth": bits,
            "has_alpha": has_alpha,
            "frames": len(t["pages"]),
            "compression": TIFF_COMPRESSION.get(p0.get(259, (1,))[0], str(p0.get(259))) +
                           (f", predictor {p0[317][0]}" if 317 in p0 and p0[317][0] != 1 else ""),
            "layout": layout + (", BigTIFF" if t["big"] else "") + (f", {'little' if t['order'] == '<' else 'big'}-endian"),
            "color": color,
            "icc": icc_describe(icc) if icc else None,
            "tolerance": tolerance if bits <= 8 else max(tolerance, 1),
        })
        if tolerance_note:
            rec["tolerance_note"] = tolerance_note
        reduced = [pg for pg in t["pages"][1:] if pg.get(254, (0,))[0] & 1]
        subs = p0["_sub"]
        if reduced or subs:
            rec["levels"] = [[pg[256][0], pg[257][0]] for pg in (reduced or subs)]
            # Each reduced copy's pixels as libvips decodes it (a further page, or a SubIFD of page 0).
            hashes = []
            for k in range(1, len(rec["levels"]) + 1):
                option = f"[page={k}]" if reduced else f"[subifd={k - 1}]"
                out = self.ctx.t("level.v")
                self.ctx.run(["vips", "copy", self.ctx.o(rel) + option, out], log=False)
                hashes.append(sha256(to_rgba8(read_v(out), bits)))
            rec["levels_sha256_rgba8"] = hashes
        if cross and not cmyk and orient == 1:
            d = self.cross_tiff2rgba(rel, ref["_rgba"], has_alpha)
            lim = 0 if bits <= 8 else 1
            if d > lim:
                raise SystemExit(f"{rel}: tiff2rgba disagrees with libvips by {d}")
        if icc is not None and not cmyk:
            rec["tolerance_srgb"] = max(2, self.cross_tificc(rel, ref["_srgb"]))
        self.add(rec)
        return self.finish(rec)

    def make_tiff(self):
        ctx = self.ctx
        os.makedirs(ctx.o("tiff"), exist_ok=True)
        o = ctx.o
        s = self.src("coffee")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/rgb8-strip-none.tif"), "--strip"])
        self.tiff_record("tiff/rgb8-strip-none.tif", "coffee", "rgb8", "8-bit RGB, uncompressed strips (libvips).")
        self.src("coffee")
        ctx.run(["vips", "tiffsave", self.S["coffee"]["v"], ctx.t("c.tif"), "--strip"])
        ctx.run(["tiffcp", "-c", "lzw:2", "-r", "16", ctx.t("c.tif"), o("tiff/rgb8-strip-lzw.tif")])
        self.tiff_record("tiff/rgb8-strip-lzw.tif", "coffee", "rgb8+lzw",
                         "tiffcp -c lzw:2: LZW with horizontal differencing (Predictor 2), 16-row strips.")
        self.src("coffee")
        ctx.run(["vips", "tiffsave", self.S["coffee"]["v"], ctx.t("c.tif"), "--strip"])
        ctx.run(["tiffcp", "-c", "packbits", "-r", "32", ctx.t("c.tif"), o("tiff/rgb8-strip-packbits.tif")])
        self.tiff_record("tiff/rgb8-strip-packbits.tif", "coffee", "rgb8+packbits", "tiffcp -c packbits, 32-row strips.")
        s = self.src("coffee")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/rgb8-tile-deflate.tif"), "--strip", "--tile", "--tile-width",
                 "48", "--tile-height", "32", "--compression", "deflate", "--predictor", "horizontal"])
        self.tiff_record("tiff/rgb8-tile-deflate.tif", "coffee", "rgb8+tiles+deflate",
                         "48x32 tiles (3x3; the right column is 32 pixels of picture in a 48-wide tile), Deflate "
                         "(Adobe, 8) with Predictor 2.")
        s = self.src("coffee")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/rgb8-tile-jpeg.tif"), "--strip", "--tile", "--tile-width", "64",
                 "--tile-height", "64", "--compression", "jpeg", "--Q", "85"])
        rec = self.tiff_record("tiff/rgb8-tile-jpeg.tif", "coffee", "rgb8+tiles+jpeg",
                               "64x64 tiles, JPEG compression (7, 'new-style' with shared JPEGTables), Q 85, "
                               "Photometric YCbCr with 2x2 chroma subsampling; libvips (libtiff) decodes with "
                               "JPEGCOLORMODE_RGB, i.e. libjpeg's own upsampling and YCbCr->RGB.")
        self.jpeg_tolerance(rec)
        s = self.src("alpha8")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/rgba8-strip-lzw.tif"), "--strip", "--compression", "lzw"])
        self.tiff_record("tiff/rgba8-strip-lzw.tif", "alpha8", "rgba8",
                         "8-bit RGBA, ExtraSamples = 2 (unassociated alpha), LZW with Predictor 2.")
        s = self.src("rgb16")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/rgb16-strip-deflate.tif"), "--strip", "--compression",
                 "deflate"])
        self.tiff_record("tiff/rgb16-strip-deflate.tif", "rgb16", "rgb16",
                         "16-bit RGB, Deflate with Predictor 2 (16-bit differencing). Reference: (v+128)//257; "
                         "tolerance 1 covers a decoder that keeps the high byte.")
        s = self.src("alpha16")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/rgba16-tile-none.tif"), "--strip", "--tile", "--tile-width",
                 "32", "--tile-height", "32"])
        self.tiff_record("tiff/rgba16-tile-none.tif", "alpha16", "rgba16",
                         "16-bit RGBA (unassociated alpha), uncompressed 32x32 tiles, 64x48 (the second tile row is "
                         "half empty).")
        s = self.src("gray8")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/gray8-strip-packbits.tif"), "--strip", "--compression",
                 "packbits"])
        self.tiff_record("tiff/gray8-strip-packbits.tif", "gray8", "gray8",
                         "8-bit gray (MinIsBlack), PackBits; libvips colourspace b-w of the coffee crop.")
        s = self.src("gray16")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/gray16-strip-lzw.tif"), "--strip", "--compression", "lzw"])
        self.tiff_record("tiff/gray16-strip-lzw.tif", "gray16", "gray16", "16-bit gray, LZW with Predictor 2.")
        self.src("coffee")
        ctx.run(["vips", "tiffsave", self.S["coffee"]["v"], ctx.t("c.tif"), "--strip"])
        ctx.run(["tiffmedian", "-c", "none", "-C", "256", ctx.t("c.tif"), o("tiff/palette8-strip-none.tif")])
        self.tiff_record("tiff/palette8-strip-none.tif", "coffee", "palette8",
                         "8-bit palette (Photometric 3) made by libtiff's tiffmedian (median cut, 256 colours, no "
                         "dithering); ColorMap entries are 16-bit (8-bit colour * 257), uncompressed.")
        s = self.src("coffee")
        ctx.run(["vips", "icc_transform", s["v"], ctx.t("cmyk.v"), CMYK_ICC, "--intent", "relative"])
        ctx.run(["vips", "tiffsave", ctx.t("cmyk.v"), o("tiff/cmyk8-strip-lzw.tif"), "--compression", "lzw"])
        rec = self.tiff_record("tiff/cmyk8-strip-lzw.tif", "coffee", "cmyk", "", cmyk=True, tolerance=0,
                               tolerance_note="the reference is lcms2's own 8-bit transform (tificc); libvips' "
                                              "icc_transform, which goes through float Lab, is the cross-check")
        d = self.cross_tificc_cmyk("tiff/cmyk8-strip-lzw.tif")
        rec["notes"] = ("8-bit CMYK (Photometric 5, InkSet 1; 0 = no ink), LZW, with the profile embedded "
                        "(ICC tag 34675): ghostscript's default_cmyk.icc (\"Artifex CMYK SWOP Profile\", ICC v2 "
                        "output class, LUT-based with A2B0/A2B1/A2B2, 187,484 B). Made by vips icc_transform (relative "
                        "intent) from the sRGB photo. sha256_rgba8 is the sRGB picture: `tificc -t0 "
                        "'tiff/cmyk8-strip-lzw.tif' cc.tif` then read by vips: lcms2's own program, "
                        "with the profile header's intent (perceptual), as section 14 converts. libvips' "
                        "`icc_transform --embedded --intent perceptual` (through float Lab) lands within "
                        f"{d} of it. Shown as naive RGB (255 - C, ...) or "
                        "with another profile, it looks wrong.")
        s = self.src("adobergb")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/icc-adobergb.tif"), "--compression", "deflate"])
        self.tiff_record("tiff/icc-adobergb.tif", "adobergb", "icc",
                         "The photo converted into Adobe RGB; ICC profile tag (34675) with colord's AdobeRGB1998.icc, "
                         "Deflate.")
        self.src("coffee")
        ctx.run(["vips", "tiffsave", self.S["coffee"]["v"], ctx.t("c.tif"), "--strip"])
        ctx.run(["tiffcp", "-c", "lzw", ctx.t("c.tif"), o("tiff/orientation-6.tif")])
        ctx.run(["tiffset", "-s", "274", "6", o("tiff/orientation-6.tif")])
        self.tiff_record("tiff/orientation-6.tif", "coffee", "orientation",
                         "Orientation tag (274) = 6 set with tiffset: stored 128x96, shown rotated 90 degrees "
                         "clockwise (96x128). Pixels are as stored.")
        # multi-page: two different pictures of the same size
        self.src("coffee")
        self.src("chelsea")
        ctx.run(["vips", "tiffsave", self.S["coffee"]["v"], ctx.t("p1.tif"), "--strip"])
        ctx.run(["vips", "tiffsave", self.S["chelsea"]["v"], ctx.t("p2.tif"), "--strip"])
        ctx.run(["tiffcp", "-c", "lzw:2", ctx.t("p1.tif"), ctx.t("p2.tif"), o("tiff/multipage-2.tif")])
        rec = self.tiff_record("tiff/multipage-2.tif", "coffee", "multi-page",
                               "Two IFDs of the same size, neither a reduced copy (NewSubfileType 0 on both): page 1 "
                               "the coffee, page 2 the cat. Only page 1 is the reference; showing page 2, or a mix, "
                               "is wrong.")
        rec["source"] = "SampleImages/coffee.png (page 1), SampleImages/chelsea.png (page 2)"
        rec["license"] = "CC0-1.0"
        s = self.src("odd255x3")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/odd-255x3.tif"), "--strip", "--compression", "lzw"])
        self.tiff_record("tiff/odd-255x3.tif", "odd255x3", "odd-size", "255x3 RGB, LZW: odd width, three rows.")
        s = self.src("coffee")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/bigtiff-rgb8.tif"), "--strip", "--bigtiff", "--compression",
                 "deflate"])
        self.tiff_record("tiff/bigtiff-rgb8.tif", "coffee", "bigtiff",
                         "BigTIFF (version 43, 8-byte offsets), 8-bit RGB, Deflate.")
        # pyramids
        s = self.src("retina")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/pyramid-jpeg.tif"), "--strip", "--tile", "--pyramid",
                 "--compression", "jpeg", "--Q", "75", "--tile-width", "256", "--tile-height", "256"])
        rec = self.tiff_record("tiff/pyramid-jpeg.tif", "retina", "pyramid",
                               "Tiled pyramid (libvips): page 1 is the 1200x900 picture in 256x256 JPEG tiles (Q 75); "
                               "the further pages are reduced copies (NewSubfileType 1), each half the size, down to "
                               "one tile. `frames` counts all pages; `levels` lists the reduced ones. The reference "
                               "is page 1.")
        self.jpeg_tolerance(rec)
        s = self.src("retina")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/pyramid-subifd-jpeg.tif"), "--strip", "--tile", "--pyramid",
                 "--subifd", "--compression", "jpeg", "--Q", "75", "--tile-width", "256", "--tile-height", "256"])
        rec = self.tiff_record("tiff/pyramid-subifd-jpeg.tif", "retina", "pyramid-subifd",
                               "The same pyramid with the reduced copies as SubIFDs (tag 330) of the one top-level "
                               "IFD, as OME-TIFF and many slide scanners do: frames is 1, `levels` lists the SubIFDs.")
        self.jpeg_tolerance(rec)
        s = self.src("retina")
        ctx.run(["vips", "tiffsave", s["v"], o("tiff/pyramid-rgb-jpeg-q90.tif"), "--strip", "--tile", "--pyramid",
                 "--compression", "jpeg", "--Q", "90", "--tile-width", "256", "--tile-height", "256"])
        rec = self.tiff_record("tiff/pyramid-rgb-jpeg-q90.tif", "retina", "pyramid-rgb-jpeg",
                               "The same pyramid at Q 90, where libvips stores the JPEG tiles as RGB (Photometric 2, "
                               "no chroma subsampling; each tile's stream carries an Adobe APP14 marker) instead of "
                               "YCbCr.")
        self.jpeg_tolerance(rec)

    def cross_tificc_cmyk(self, rel):
        ctx = self.ctx
        got = to_rgba8(self._cmyk_ref(rel))
        want = to_rgba8(self.cmyk_to_srgb(rel))
        d = max_diff(got, want)
        self.check(rel, f"libvips icc_transform --embedded --intent perceptual (float Lab) against the reference, "
                        f"lcms2's tificc -t0: max difference {d}")
        return d

    def _cmyk_ref(self, rel):
        ctx = self.ctx
        out = ctx.t("icc2.v")
        # The profile's own rendering intent (its header's, bytes 64..67: perceptual here), as tileview converts
        # (docs/design.md section 14) and as the JPEG colour corpus' CMYK file is made.
        ctx.run(["vips", "icc_transform", ctx.o(rel) + "[fail_on=warning]", out, "srgb", "--embedded", "--intent",
                 "perceptual"], log=False)
        return read_v(out)

    def jpeg_tolerance(self, rec):
        rel = rec["file"]
        want = to_rgba8(vips_load(self.ctx, self.ctx.o(rel), loader="tiffload"))
        alts = self.jpeg_tiff_alternatives(rel, want)
        default = alts["djpeg (ISLOW, fancy upsampling)"]
        fancy = max(v for k, v in alts.items() if "nosmooth" not in k)
        plain = max(v for k, v in alts.items() if "nosmooth" in k)
        rec["tolerance"] = max(fancy, 1)
        rec["tolerance_without_fancy_upsampling"] = plain
        rec["tolerance_note"] = (
            "each JPEG tile rebuilt as a JPEG file (JPEGTables + tile) and decoded with djpeg 2.1.5: "
            + ", ".join(f"{k}: max difference {v}" for k, v in alts.items())
            + ". The reference is libjpeg's default decode (ISLOW IDCT, fancy upsampling), as libtiff runs it with "
              "JPEGCOLORMODE_RGB" + (" (exactly)" if default == 0 else f" (within {default})")
            + f"; `tolerance` allows another IDCT. A decoder that upsamples chroma by replication (no fancy "
              f"upsampling) lands up to {plain} away at colour edges: `tolerance_without_fancy_upsampling`.")
        self.check(rel, rec["tolerance_note"])

    # -- GIF -------------------------------------------------------------------------------------------------------

    def gif_record(self, rel, key, category, notes):
        ctx = self.ctx
        data = open(ctx.o(rel), "rb").read()
        info = gif_info(data)
        ref = self.reference(rel, "gif")
        img = ref["_img"]
        rec = self.base(rel, "gif", key, category, notes)
        rec.update(ref)
        has_alpha = img.bands == 4 and any(a != 255 for a in ref["_rgba"][3::4])
        rec.update({
            "orientation": 1, "oriented_width": img.width, "oriented_height": img.height,
            "bit_depth": 8, "has_alpha": has_alpha, "frames": info["frames"],
            "compression": "lzw" + (", interlaced" if info["interlaced"] and info["interlaced"][0] else ""),
            "color": "palette" + ("+transparency" if has_alpha else ""),
            "icc": None, "tolerance": 0, "gif_version": info["version"],
        })
        if info["transparent_index"] is not None:
            rec["transparent_index"] = info["transparent_index"]
        if info["frames"] == 1:
            d = self.cross_gif2rgb(rel, ref["_rgba"])
            if d:
                raise SystemExit(f"{rel}: gif2rgb disagrees with libvips by {d}")
        self.add(rec)
        return self.finish(rec)

    def make_gif(self):
        ctx = self.ctx
        os.makedirs(ctx.o("gif"), exist_ok=True)
        o = ctx.o
        s = self.src("coffee")
        ctx.run(["vips", "rawsave", s["v"], ctx.t("coffee.rgb")])
        ctx.run(["gif2rgb", "-s", "128", "96"], stdin=ctx.t("coffee.rgb"), stdout=o("gif/still.gif"))
        self.gif_record("gif/still.gif", "coffee", "still",
                        "GIF87a written by giflib's gif2rgb (its own median-cut quantiser, 256 colours, no dithering), "
                        "one image, global colour table, not interlaced.")
        # transparent index: still.gif through gifbuild's text form, with a graphics control block added
        self.src("coffee")
        ctx.run(["vips", "rawsave", self.S["coffee"]["v"], ctx.t("coffee.rgb")])
        ctx.run(["gif2rgb", "-s", "128", "96"], stdin=ctx.t("coffee.rgb"), stdout=ctx.t("still.gif"))
        ctx.run(["gifbuild", "-d", ctx.t("still.gif")], stdout=ctx.t("still.txt"))
        text = open(ctx.t("still.txt")).read()
        hexrows = text.split("image bits", 1)[1].split("\n", 1)[1]
        counts = {}
        for line in hexrows.splitlines():
            if not re.fullmatch(r"[0-9a-f]+", line.strip()):
                break
            for i in range(0, len(line.strip()), 2):
                counts[line[i : i + 2]] = counts.get(line[i : i + 2], 0) + 1
        index = int(max(sorted(counts), key=lambda k: counts[k]), 16)
        gcb = ("graphics control\n\tdisposal mode 0\n\tuser input flag off\n\tdelay 0\n"
               f"\ttransparent index {index}\nend\n\n")
        with open(ctx.t("transparent.txt"), "w") as f:
            f.write(text.replace("image # 1", gcb + "image # 1", 1))
        ctx.note(f"# $TMP/transparent.txt: still.txt with a 'graphics control' block (transparent index {index}, the "
                 f"most used index) before 'image # 1'")
        ctx.run(["gifbuild", ctx.t("transparent.txt")], stdout=o("gif/transparent.gif"))
        self.gif_record("gif/transparent.gif", "coffee", "transparency",
                        f"still.gif's image with a Graphics Control Extension (GIF89a) whose transparent colour index "
                        f"is {index}, the index of the most pixels ({counts[format(index, '02x')]} of 12288): those "
                        f"pixels have A = 0. Made by giflib's gifbuild from gifbuild -d's dump.")
        self.src("coffee")
        ctx.run(["vips", "rawsave", self.S["coffee"]["v"], ctx.t("coffee.rgb")])
        ctx.run(["gif2rgb", "-s", "128", "96"], stdin=ctx.t("coffee.rgb"), stdout=ctx.t("still.gif"))
        ctx.run(["giftool", "-i", "1"], stdin=ctx.t("still.gif"), stdout=o("gif/interlaced.gif"))
        rec = self.gif_record("gif/interlaced.gif", "coffee", "interlaced",
                              "still.gif re-written interlaced by giflib's giftool -i 1 (rows stored in the four "
                              "passes 0,8,16..; 4,12..; 2,6..; 1,3..): it must decode to still.gif's pixels.")
        if rec["sha256_rgba8"] != self.by_file["gif/still.gif"]["sha256_rgba8"]:
            raise SystemExit("interlaced.gif does not decode to still.gif's pixels")
        # animation (cgif through libvips)
        ctx.recipe = (self.S["coffee"]["recipe"] + self.S["chelsea"]["recipe"] + self.S["astronaut"]["recipe"]
                      + ctx.recipe)
        tall = ctx.t("tall.v")
        # (PNG inputs: libvips 8.14's arrayjoin crashes on .v inputs)
        ctx.run(["vips", "arrayjoin", " ".join(self.S[k]["png"] for k in ("coffee", "chelsea", "astronaut")), tall,
                 "--across", "1"])
        ctx.run(["vips", "gifsave", tall, o("gif/animated-3frames.gif"), "--page-height", "96", "--strip"])
        rec = self.gif_record("gif/animated-3frames.gif", "coffee", "animated",
                              "Three 128x96 frames (coffee, the cat, the astronaut) written by libvips' gifsave (cgif "
                              "0.3), with a NETSCAPE2.0 application extension; frame 1 uses the global colour table, "
                              "frames 2 and 3 their own local tables. Only frame 1 is the reference (libnsgif through "
                              "libvips, page 0).")
        rec["source"] = "SampleImages/coffee.png (frame 1), SampleImages/chelsea.png, SampleImages/astronaut.png"
        rec["license"] = "CC0-1.0 (coffee, chelsea); public domain (astronaut)"
        s = self.src("odd17x9")
        ctx.run(["vips", "gifsave", s["v"], o("gif/odd-17x9.gif"), "--strip"])
        self.gif_record("gif/odd-17x9.gif", "odd17x9", "odd-size",
                        "17x9, written by libvips' gifsave (cgif). cgif writes a Graphics Control Extension with "
                        "transparent index 0 that no pixel uses, so every A is 255.")
        s = self.src("one")
        ctx.run(["vips", "rawsave", s["v"], ctx.t("one.rgb")])
        ctx.run(["gif2rgb", "-s", "1", "1"], stdin=ctx.t("one.rgb"), stdout=o("gif/1x1.gif"))
        self.gif_record("gif/1x1.gif", "one", "odd-size", "1x1 GIF87a (giflib gif2rgb).")

    # -- bad -------------------------------------------------------------------------------------------------------

    def vips_verdict(self, path, fmt):
        """What libvips says when it decodes `path` with the format's loader and --fail-on warning:
        (ok, message, img)."""
        ctx = self.ctx
        out = ctx.t("bad.v")
        if os.path.exists(out):
            os.remove(out)
        rc, _, err = try_run(["vips", LOADERS[fmt], path, out, "--fail-on", "warning"])
        msg = clean_message(err, ctx)
        if rc == 0:
            return True, msg, read_v(out)
        return False, msg, None

    def header_verdict(self, path, fmt):
        rc, out, err = try_run(["vipsheader", path])
        size = None
        m = re.search(r": (\d+)x(\d+) ", out.decode(errors="replace"))
        if rc == 0 and m:
            size = (int(m.group(1)), int(m.group(2)))
        return rc == 0, clean_message(out.decode(errors="replace") + err, self.ctx), size

    def bad_record(self, rel, fmt, of, category, notes, expected, load=True, claimed=None):
        ctx = self.ctx
        base = self.by_file[of]
        rec = {"file": rel, "format": fmt, "expected": expected, "category": category, "notes": notes,
               "source": base["source"], "license": base["license"], "damaged_from": of}
        img = None
        loader = LOADERS[fmt]
        if load:
            ok, msg, img = self.vips_verdict(ctx.o(rel), fmt)
            rec["decoder_message"] = (f"vips {loader} --fail-on warning: " +
                                      ("decoded, " + (msg or "no message") if ok else "error: " + msg))
            if expected == "flipped":
                rec["expected"] = "ok-lossy" if ok else "error"
                rec["notes"] += (" libvips (--fail-on warning) decodes it with no error or warning, so it is "
                                 "ok-lossy: any picture of the stated size, or an error, is acceptable." if ok else
                                 " libvips (--fail-on warning) refuses it.")
            rec["width"], rec["height"] = (img.width, img.height) if ok else (base["width"], base["height"])
        else:
            ok, msg, size = self.header_verdict(ctx.o(rel), fmt)
            rec["decoder_message"] = "vipsheader (header only): " + msg
            rec["width"], rec["height"] = claimed
            if ok and size and size[0] * size[1] <= 4096 * 4096:
                # the loader ignored the claim, so decoding is safe: see what it makes of it
                ok, msg, img = self.vips_verdict(ctx.o(rel), fmt)
                rec["decoder_message"] += (f"; vips {loader} --fail-on warning: " +
                                           ("decoded, " + (msg or "no message") if ok else "error: " + msg))
        if img is not None and rec["expected"] == "error":
            rgba = to_rgba8(img)
            rec["lenient_width"], rec["lenient_height"] = img.width, img.height
            rec["lenient_sha256_rgba8"] = sha256(rgba)
            rec["notes"] += (f" libvips still returns a {img.width}x{img.height} picture for it "
                             "(`lenient_sha256_rgba8`); the corpus policy is error, as for truncated PNG/JPEG in "
                             "../README.md.")
        rec.update({"orientation": None, "oriented_width": None, "oriented_height": None, "bit_depth": base["bit_depth"],
                    "has_alpha": base["has_alpha"], "frames": base["frames"], "compression": base["compression"],
                    "color": base["color"], "icc": base["icc"], "sha256_rgba8": None, "tolerance": None,
                    "reference_png": None})
        self.add(rec)
        return rec

    def make_bad(self):
        ctx = self.ctx
        os.makedirs(ctx.o("bad"), exist_ok=True)

        def save(rel, data):
            with open(ctx.o(rel), "wb") as f:
                f.write(data)

        def flip(data, at, n=8):
            return data[:at] + bytes(b ^ 0xFF for b in data[at : at + n]) + data[at + n :]

        def truncated(fmt, of, ext):
            data = open(ctx.o(of), "rb").read()
            rel = f"bad/{fmt}-truncated.{ext}"
            save(rel, data[: len(data) // 2])
            ctx.note(f"# head -c {len(data) // 2} {of} > {rel}   (the first half of {len(data)} bytes)")
            self.bad_record(rel, fmt if fmt != "heic" else "heif", of, "truncated",
                            f"The first half ({len(data) // 2} of {len(data)} bytes) of {of}.", "error")

        def flipped(fmt, of, ext, start, end, what):
            data = open(ctx.o(of), "rb").read()
            at = (start + end) // 2
            rel = f"bad/{fmt}-flipped.{ext}"
            save(rel, flip(data, at))
            ctx.note(f"# {rel}: {of} with bytes {at}..{at + 7} XORed with 0xFF (the middle of {what}, bytes "
                     f"{start}..{end - 1})")
            self.bad_record(rel, fmt if fmt != "heic" else "heif", of, "corrupt-data",
                            f"{of} with 8 bytes inverted (XOR 0xFF) at offset {at}, the middle of {what}.", "flipped")

        def renamed(fmt, of, ext):
            rel = f"bad/{fmt}-named.{ext}"
            shutil.copyfile(ctx.o(of), ctx.o(rel))
            ctx.note(f"# cp {of} {rel}")
            base = self.by_file[of]
            rec = {k: v for k, v in base.items() if k not in ("recipe", "bytes", "file_sha256", "file")}
            rec.update({"file": rel, "category": "misleading-extension",
                        "notes": f"A byte-for-byte copy of {of} under a .{ext} name: the format comes from the content "
                                 f"(magic bytes), not the extension. Same pixels as {of} (its reference_png).",
                        "damaged_from": of})
            self.add(rec)

        # WebP
        truncated("webp", "webp/lossy-q80.webp", "webp")
        data = open(ctx.o("webp/lossy-q80.webp"), "rb").read()
        name, start, size = [c for c in webp_chunks(data) if c[0] == "VP8 "][0]
        flipped("webp", "webp/lossy-q80.webp", "webp", start + 10, start + size, "the VP8 chunk's compressed data")
        data = open(ctx.o("webp/lossy-alpha.webp"), "rb").read()
        name, start, size = [c for c in webp_chunks(data) if c[0] == "VP8X"][0]
        huge = data[: start + 4] + (0xFFFFFF).to_bytes(3, "little") * 2 + data[start + 10 :]
        save("bad/webp-huge.webp", huge)
        ctx.note("# bad/webp-huge.webp: webp/lossy-alpha.webp with the VP8X canvas width-1 and height-1 fields "
                 "(24 bits each) set to 0xFFFFFF")
        self.bad_record("bad/webp-huge.webp", "webp", "webp/lossy-alpha.webp", "huge-claim",
                        "webp/lossy-alpha.webp with its VP8X canvas set to 16777216x16777216 (the largest the field "
                        "holds; 2^48 pixels) while the VP8 frame stays 128x96. Must be refused before any allocation.",
                        "error", load=False, claimed=(16777216, 16777216))
        renamed("webp", "webp/lossy-q80.webp", "png")

        # HEIC and AVIF
        for fmt, of, ext, rn in [("heic", "heif/plain.heic", "heic", "jpg"), ("avif", "avif/plain.avif", "avif", "heic")]:
            truncated(fmt, of, ext)
            data = open(ctx.o(of), "rb").read()
            desc = heif_describe(data)
            mstart, mend = desc["mdat"]
            flipped(fmt, of, ext, mstart, mend, "the mdat box's payload (the coded image)")
            info = heif_info(data)
            props = heif_props_of(data, info, info["primary"])
            b = [b for t, b, e in props if t == "ispe"][0]
            huge = data[: b + 4] + struct.pack(">II", 100000, 100000) + data[b + 12 :]
            rel = f"bad/{fmt}-huge.{ext}"
            save(rel, huge)
            ctx.note(f"# {rel}: {of} with the primary item's ispe set to 100000x100000")
            self.bad_record(rel, "heif" if fmt == "heic" else "avif", of, "huge-claim",
                            f"{of} with the primary item's ispe property saying 100000x100000 (10^10 pixels) while "
                            f"the coded image stays 128x96.", "error", load=False, claimed=(100000, 100000))
            renamed(fmt, of, rn)

        # TIFF
        truncated("tiff", "tiff/rgb8-strip-lzw.tif", "tif")
        data = open(ctx.o("tiff/rgb8-strip-lzw.tif"), "rb").read()
        p = parse_tiff(data)["pages"][0]
        offs, counts = p[273], p[279]
        mid = len(offs) // 2
        flipped("tiff", "tiff/rgb8-strip-lzw.tif", "tif", offs[mid], offs[mid] + counts[mid],
                f"strip {mid} of {len(offs)} (LZW data)")
        shutil.copyfile(ctx.o("tiff/rgb8-strip-none.tif"), ctx.o("bad/tiff-huge.tif"))
        ctx.run(["tiffset", "-s", "256", "100000", ctx.o("bad/tiff-huge.tif")])
        ctx.run(["tiffset", "-s", "257", "100000", ctx.o("bad/tiff-huge.tif")])
        ctx.recipe.insert(0, "# cp tiff/rgb8-strip-none.tif bad/tiff-huge.tif")
        self.bad_record("bad/tiff-huge.tif", "tiff", "tiff/rgb8-strip-none.tif", "huge-claim",
                        "tiff/rgb8-strip-none.tif with ImageWidth and ImageLength set to 100000 by tiffset (10^10 "
                        "pixels, 30 GB as RGB8), while the strips still hold 128x96 pixels. Must be refused before "
                        "any allocation.", "error", load=False, claimed=(100000, 100000))
        renamed("tiff", "tiff/rgb8-strip-lzw.tif", "jpg")

        # GIF
        truncated("gif", "gif/still.gif", "gif")
        data = open(ctx.o("gif/still.gif"), "rb").read()
        s, e = gif_info(data)["lzw"]
        flipped("gif", "gif/still.gif", "gif", s, e, "the first image's LZW data")
        huge = data[:6] + struct.pack("<HH", 65535, 65535) + data[10:]
        save("bad/gif-huge.gif", huge)
        ctx.note("# bad/gif-huge.gif: gif/still.gif with the logical screen width and height (bytes 6..9) set to "
                 "65535")
        self.bad_record("bad/gif-huge.gif", "gif", "gif/still.gif", "huge-claim",
                        "gif/still.gif with its logical screen set to 65535x65535 (the largest a GIF can say; 17 GB as "
                        "RGBA8) while the one image stays 128x96 at (0,0). A decoder that allocates the canvas first "
                        "must refuse it by its pixel budget.", "error", load=False, claimed=(65535, 65535))
        renamed("gif", "gif/still.gif", "webp")


def img_size(rec):
    return f"{rec['width']}x{rec['height']}"


# ---------------------------------------------------------------------------------------------------------
# Tool versions, README, LICENSES, manifest


def dpkg_version(pkg):
    rc, out, _ = try_run(["dpkg-query", "-W", "-f", "${Version}", pkg])
    return out.decode().strip() if rc == 0 and out.strip() else None


def tool_versions():
    v = {}
    v["libvips"] = try_run(["vips", "--version"])[1].decode().strip()
    v["libwebp (cwebp, dwebp, img2webp, webpmux)"] = try_run(["cwebp", "-version"])[1].decode().strip()
    heif = re.search(r"libheif version: (\S+)", try_run(["heif-enc", "--help"])[2] + try_run(["heif-enc", "--help"])[1].decode())
    v["libheif (heif-enc, heif-convert)"] = heif.group(1) if heif else "?"
    enc = try_run(["heif-enc", "--list-encoders"])[1].decode()
    m = re.search(r"x265 HEVC encoder \(([^)]+)\)", enc)
    v["x265"] = m.group(1) if m else "?"
    m = re.search(r"AV1 Encoder (v[\d.]+)", enc)
    v["aom (AV1 encoder)"] = m.group(1) if m else "?"
    dec = try_run(["heif-convert", "--list-decoders"])[1].decode()
    m = re.search(r"libde265 HEVC decoder, version ([\d.]+)", dec)
    v["libde265 (HEVC decoder in libheif)"] = m.group(1) if m else "?"
    m = re.search(r"dav1d (v[\d.]+)", dec)
    v["dav1d (AV1 decoder in libheif)"] = (dpkg_version("libdav1d6") or "?") + (f" (API {m.group(1)})" if m else "")
    m = re.search(r"Version ([\d.]+)", try_run(["tiffinfo"])[2] + try_run(["tiffinfo"])[1].decode())
    v["libtiff (tiffcp, tiffset, tiffmedian, tiff2rgba)"] = m.group(1) if m else "?"
    v["giflib (gif2rgb, gifbuild, giftool)"] = dpkg_version("giflib-tools") or "5.2"
    v["cgif (libvips gifsave)"] = dpkg_version("libcgif0") or "?"
    v["libjpeg-turbo (djpeg; libtiff's JPEG codec)"] = (try_run(["djpeg", "-version"])[2].strip().splitlines() or ["?"])[0]
    v["lcms2 (libvips icc_transform, tificc)"] = dpkg_version("liblcms2-2") or "?"
    v["python"] = sys.version.split()[0]
    return v


LICENSES = """# Licences of the format corpus

This folder is the package's own (not part of the upstream conformance corpus that `../README.md` describes):
`scripts/make-format-corpus.sh` remakes it, and a refresh of the upstream corpus leaves it alone.

## The files

Made for this package by `scripts/make-format-corpus.sh` (see `README.md`); our part of them (the encoding, the
damaged copies in `bad/`, the manifest and the reference PNGs) is dedicated to the public domain (CC0-1.0). Their
pixels come from images already in the repository; each record's `source` and `license` fields name the file:

| source pixels | used in | licence | where the licence is recorded |
|---|---|---|---|
| `SampleImages/coffee.png` (scikit-image; photo by Rachel Michetti, courtesy of Pikolo Espresso Bar) | most files: the 128x96 coffee crop, the 255x3 and 1x1 crops, first frames, page 1 | CC0-1.0 | `SampleImages/LICENSES.md` |
| `SampleImages/chelsea.png` (scikit-image; photo by Stefan van der Walt) | `*/odd-17x9.*`, frame 2 of the animations, page 2 of `tiff/multipage-2.tif` | CC0-1.0 | `SampleImages/LICENSES.md` |
| `SampleImages/astronaut.png` (scikit-image; NASA) | frame 3 of the animations | public domain | `SampleImages/LICENSES.md` |
| `SampleImages/retina.jpg` (scikit-image; Mikael Häggström, Wikimedia Commons) | `tiff/pyramid-*.tif` (1200x900 crop) | CC0-1.0 | `SampleImages/LICENSES.md` |
| `Tests/Corpus/png/libpng-rgb-alpha-8.png`, `libpng-rgb-alpha-16.png`, `libpng-rgb-16.png`, `libpng-gray-16.png` (libpng `contrib/testpngs`) | the alpha and high-bit-depth files (`*/alpha.*`, `webp/*alpha*`, `tiff/rgba*`, `heif/10bit.heic`, `avif/10bit-422.avif`, `avif/12bit.avif`, `tiff/rgb16-*`, `tiff/gray16-*`) | PNG Reference Library License version 2 | `Tests/Corpus/LICENSES.md` (full text) |

The files built from the libpng test images are crops of them, re-encoded, and carry the libpng licence: its
notice and text are in `Tests/Corpus/LICENSES.md`, which travels with this folder.

## ICC profiles embedded in some files

Embedded whole and unmodified, from Debian 12's packages:

- colord-data 1.4.6 (`/usr/share/color/icc/colord/AdobeRGB1998.icc`), CC0-1.0 ("Copyright: © 2012 Richard Hughes",
  "License: CC0-1.0"; the profile's own notice: "This profile is free of known copyright restrictions"):
  in `webp/icc-adobergb.webp`, `heif/icc-adobergb.heic`, `avif/icc-adobergb.avif`, `tiff/icc-adobergb.tif`.
- Ghostscript's `default_cmyk.icc` ("Artifex CMYK SWOP Profile"; libgs-common 10.0.0,
  `/usr/share/color/icc/ghostscript/`, "Copyright Artifex Software 2011"), under the GNU Affero General Public
  License, version 3 or later: in `tiff/cmyk8-strip-lzw.tif` only. It is embedded whole and unmodified, so the embedded bytes are also its complete source form;
  Ghostscript's sources are at https://www.ghostscript.com and in Debian's `ghostscript` source package. The
  licence notice is the one quoted in `../color/LICENSES.md`:

```
Copyright (C) 2001-2022 Artifex Software, Inc.

GPL Ghostscript is free software; you can redistribute it and/or modify it
under the terms of the GNU Affero General Public License as published by
the Free Software Foundation, either version 3 of the License, or (at your
option) any later version.

This program is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
FITNESS FOR A PARTICULAR PURPOSE. See the GNU Affero General Public License
(https://www.gnu.org/licenses/agpl-3.0.html) for more details.
```
"""


NOTES = [
    "HEIC from heif-enc 1.15 has no colr box, while AVIF gets an nclx colr (2/2/6, full range). libvips warns "
    "\"heifload: ignoring nclx profile\" for every AVIF: that only means it attaches no ICC profile to the image; "
    "the pixels are libheif's own YCbCr->RGB conversion either way.",
    "Any odd-sized HEIC that heif-enc 1.15 writes is a 1x1 grid (`heif/odd-17x9-grid.heic`): a decoder without grid "
    "support cannot show a 17x9 HEIC from this encoder at all.",
    "libvips' heifsave stores ICC profiles as colr 'rICC', not 'prof'; both carry a complete ICC profile.",
    "`heif/exif-orientation-6.heic` carries Exif Orientation 6 without irot: HEIF readers (libheif, browsers) show it "
    "upright; rotating by the Exif tag is wrong for HEIF.",
    "The animated WebP's first frame decodes (through WebPAnimDecoder) to the same pixels as `webp/lossy-q80.webp`: "
    "img2webp coded it with the same settings. libvips hands out 4 bands for it, all A = 255.",
    "Flipping 8 bytes in the middle of VP8, HEVC or AV1 data gives no error from libwebp or libheif's HEVC and AV1 "
    "decoders (garbled pixels only), so those files are `ok-lossy`; LZW damage in TIFF and GIF is detected.",
    "libnsgif (libvips' gifload) ignores a logical screen larger than the image: `bad/gif-huge.gif` decodes to the "
    "128x96 image (`lenient_sha256_rgba8`). The corpus still expects `error`, from a pixel budget on the claimed "
    "size.",
    "JPEG-in-TIFF: libtiff with JPEGCOLORMODE_RGB lets libjpeg upsample the chroma with its default (fancy, "
    "triangular) filter; a decoder that replicates chroma instead is 30 levels away at colour edges "
    "(`tolerance_without_fancy_upsampling`).",
]


def write_readme(out, corpus, versions):
    recs = corpus.records
    ok = [r for r in recs if r["expected"] == "ok" and not r["file"].startswith("bad/")]
    lines = []
    A = lines.append
    A("# Format corpus: WebP, HEIF/HEIC, AVIF, TIFF, GIF")
    A("")
    A("Files in the input formats beyond PNG and JPEG, each with a reference decode, for the decoders tileview is "
      "gaining. **Generated**: `scripts/make-format-corpus.sh` (the work is in `scripts/lib/format_corpus.py`) remakes "
      "this whole folder from scratch into a temporary directory and then replaces it; nothing else writes here. "
      "Every file is the output of a real encoder (libwebp's tools, libheif with x265 or aom, libvips, libtiff's "
      "tools, giflib's tools, cgif); the script only chooses the pixels and the options, and damages copies for "
      "`bad/`. The pixels are small crops of images already in the repository (`LICENSES.md`).")
    A("")
    A("## Layout")
    A("")
    A("| path | what | count |")
    A("|---|---|---|")
    for folder, what in [("webp/", "lossy, lossless, alpha (both), animated, Exif orientation, ICC, odd size"),
                         ("heif/", "HEIC (x265): plain, alpha, 10-bit, ICC, Exif orientation without irot, irot, "
                                   "irot+imir, a 1x1 grid (odd size)"),
                         ("avif/", "AVIF (aom): plain, alpha, 10-bit, ICC, odd size"),
                         ("tiff/", "8/16-bit RGB, RGBA, gray, palette, CMYK; strips and tiles; none, LZW, Deflate, "
                                   "PackBits, JPEG; Orientation 6; two pages; ICC; BigTIFF; two JPEG pyramids"),
                         ("gif/", "still, transparent index, interlaced, animated, 17x9, 1x1"),
                         ("bad/", "per format: truncated, bytes flipped in the coded data, a huge claimed size, and "
                                  "a valid file under a wrong extension")]:
        n = sum(1 for r in recs if r["file"].startswith(folder))
        A(f"| `{folder}` | {what} | {n} |")
    nref = sum(1 for r in recs for k in ("reference_png", "reference_png_srgb") if r.get(k) and not r["file"].startswith("bad/"))
    nfiles = len(set(r[k] for r in recs for k in ("reference_png", "reference_png_srgb") if r.get(k)))
    A(f"| `reference/` | RGBA8 PNGs of the reference pixels (`reference/DIR/FILE.png`; `FILE.srgb.png` for the ICC "
      f"files), for every valid file of at most {REF_MAX}x{REF_MAX}. Files with identical pixels share one PNG, "
      f"named after the first of them (all lossless 8-bit RGB TIFFs use `reference/webp/lossless.webp.png`) | "
      f"{nfiles} PNGs for {nref} references |")
    A(f"| `manifest.json` | one record per file | {len(recs)} records |")
    A("")
    A("## manifest.json")
    A("")
    A("`rules` gives the decoding rules, `tools` the versions that made the files and the hashes. Each record of "
      "`files`:")
    A("")
    A("| field | meaning |")
    A("|---|---|")
    for k, v in [
        ("file", "path relative to this folder"),
        ("format", "`webp`, `heif`, `avif`, `tiff` or `gif`, from the content (magic bytes), not the extension"),
        ("expected", "`ok` (must decode to the reference), `error` (must fail cleanly), `ok-lossy` (damaged, but the "
                     "reference decoder accepts it: no hash; any picture of that size, or an error, will do)"),
        ("width, height", "the decoded size before any orientation (HEIF: after libheif's transformations). For error "
                          "files, the size the header claims"),
        ("orientation, oriented_width, oriented_height", "TIFF Orientation tag / WebP Exif Orientation (1..8; 1 when "
                                                         "absent) and the upright size; HEIF is always 1 (see rules)"),
        ("bit_depth, has_alpha, frames, compression, color, icc", "what the file holds: bits per sample, whether any "
                                                                   "pixel is not opaque (for alpha files), frame or "
                                                                   "page count, codec, colour model, the embedded "
                                                                   "profile's description"),
        ("levels", "pyramids: [width, height] of each reduced copy (further pages, or SubIFDs)"),
        ("levels_sha256_rgba8", "pyramids: the SHA-256 of each reduced copy's pixels as libvips decodes it (`FILE[page=K]`, "
                                "or `FILE[subifd=K-1]`), by the rules above"),
        ("sha256_rgba8", "SHA-256 of the reference pixels (rules); for CMYK the sRGB conversion"),
        ("sha256_rgba8_srgb, reference_png_srgb, tolerance_srgb", "ICC-tagged RGB files: the reference converted to "
                                                                  "sRGB by the embedded profile"),
        ("tolerance, tolerance_note", "largest per-channel difference allowed against reference_png, and why"),
        ("reference_png", "RGBA8 PNG of the reference pixels (files up to 512x512)"),
        ("bytes, file_sha256", "size and hash of the file"),
        ("category, notes, source, license", "what the file tests, where its pixels come from, and their licence"),
        ("recipe", "the commands that made the file ($TMP is the script's scratch folder; intermediate files there are "
                   "crops of the source)"),
        ("decoder_message, damaged_from", "bad files: what libvips said, and the valid file it was made from"),
        ("coded_width, coded_height, heif_*, nclx, exif_orientation, webp_chunks, layout, gif_version, "
         "transparent_index", "format details, for information"),
    ]:
        A(f"| `{k}` | {v} |" if "," not in k else "| " + ", ".join(f"`{x.strip()}`" for x in k.split(",")) + f" | {v} |")
    A("")
    A("## Reference decoding rules")
    A("")
    for k, v in RULES.items():
        A(f"- **{k}**: {v}.")
    A("")
    A("Tolerances: 0 for every lossless file and for every lossy file decoded through the same library call as "
      "libvips makes (libwebp, libheif, libtiff). 1 for 16-bit TIFF and 10/12-bit HEIF/AVIF (rounding versus "
      "the high bits). JPEG-compressed TIFF: measured, see the file's `tolerance_note`. CMYK: 2 or what lcms2's tificc "
      "measured, whichever is larger. ICC sRGB references (`tolerance_srgb`): 2 or the measured tificc difference.")
    A("")
    A("## Files")
    A("")
    A("| file | size | format | W x H | what |")
    A("|---|---|---|---|---|")
    for r in recs:
        if r["file"].startswith("bad/"):
            continue
        A(f"| `{r['file']}` | {r['bytes']:,} B | {r['format']} {r['compression']}, {r['color']}, {r['bit_depth']}-bit"
          f"{', ' + str(r['frames']) + ' frames' if r['frames'] > 1 else ''} | {r['width']}x{r['height']}"
          f"{' (orientation ' + str(r['orientation']) + ')' if r['orientation'] not in (1, None) else ''} | "
          f"{r['notes']} |")
    A("")
    A("### bad/")
    A("")
    A("| file | size | expected | what | reference decoder |")
    A("|---|---|---|---|---|")
    for r in recs:
        if not r["file"].startswith("bad/"):
            continue
        A(f"| `{r['file']}` | {r['bytes']:,} B | {r['expected']} | {r['notes']} | "
          f"{r.get('decoder_message', '') or 'decodes (same pixels as ' + r['damaged_from'] + ')'} |")
    A("")
    A("## How the files were made")
    A("")
    A("Tools (Debian 12 packages):")
    A("")
    for k, v in versions.items():
        A(f"- {k}: {v}")
    A("")
    A("The exact commands for each file are in its `recipe` in `manifest.json`. In outline:")
    A("")
    A("- **Source pixels** (in `$TMP`, not kept): `vips crop` + `vips shrink 2 2` (2x2 box average) of 256x192 "
      "regions of `SampleImages/coffee.png`, `chelsea.png`, `astronaut.png` give the 128x96 photos; plain crops of "
      "the libpng test images give the alpha and 16-bit sources; `retina.jpg` gives the 1200x900 pyramid picture; "
      "`vips icc_transform ... AdobeRGB1998.icc --intent relative` makes the Adobe RGB copy (the crops have no "
      "profile, so libvips treats them as sRGB); `vips colourspace ... b-w` the gray one. Intermediate PNGs are "
      "written with `--strip`, so no encoder sees a profile or Exif it was not meant to.")
    A("- **WebP**: `cwebp -q 80` / `cwebp -lossless`; `img2webp -loop 0 -d 500 -lossy -q 80` for the animation; "
      "`webpmux -set exif` / `webpmux -set icc` for the metadata chunks.")
    A("- **HEIF/AVIF**: `heif-enc -q 80` (x265), `heif-enc -A -q 70` (aom), `-b 10` from 16-bit PNGs; "
      "`vips heifsave --bitdepth 8` for the ICC files (libvips keeps the profile, in a colr box of type rICC); "
      "libheif's C API for irot/imir (see What could not be made).")
    A("- **TIFF**: `vips tiffsave` (strips, tiles, compressions, bit depths, BigTIFF, pyramids, CMYK with its "
      "profile), `tiffcp -c lzw:2|packbits` (re-compression, two-page file), `tiffmedian` (palette), `tiffset -s 274 6` "
      "(orientation).")
    A("- **GIF**: giflib's `gif2rgb -s W H` (RGB to GIF, its own quantiser), `gifbuild -d` / `gifbuild` (to add a "
      "graphics control block with a transparent index), `giftool -i 1` (interlace); libvips' `gifsave` (cgif) for "
      "the animation and the 17x9 file. Pillow is not used.")
    A("- **References**: libvips, then the RGBA8 rules, then `vips rawload ... W H 4` to write the PNG (read back "
      "and compared).")
    A("")
    A("## Notes for decoder writers")
    A("")
    for n in NOTES:
        A(f"- {n}")
    A("")
    A("## What could not be made")
    A("")
    for m in corpus.missing:
        A(f"- {m}")
    A("")
    A("## Cross-checks made by the script")
    A("")
    A("Each reference was compared with a second decoder (the script stops if a lossless or same-library decode "
      "differs):")
    A("")
    for c in corpus.checks:
        A(f"- {c}")
    A("")
    A("Licences: `LICENSES.md` in this folder.")
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main(root, out):
    root, out = os.path.abspath(root), os.path.abspath(out)
    if os.path.exists(out):
        raise SystemExit(f"{out} exists")
    os.makedirs(out)
    tmp = tempfile.mkdtemp(prefix="format-corpus-")
    try:
        ctx = Ctx(root, out, tmp)
        corpus = Corpus(ctx)
        corpus.make_sources()
        corpus.make_webp()
        corpus.make_heif()
        corpus.make_tiff()
        corpus.make_gif()
        corpus.make_bad()
        corpus.missing += [
            "**A spec-clean irot/imir HEIF.** heif-enc 1.15 has no option for it and libvips' heifsave writes none. "
            "libheif's own encoder writes irot/imir when asked through its C API (heif_encoding_options."
            "image_orientation, used for `heif/irot-6.heic` and `heif/irot-imir-5.heic`), but libheif 1.15 puts the "
            "*displayed* size in ispe and lists irot/imir before ispe; see those files' notes.",
            "**A multi-tile HEIF grid.** No tool here writes one: heif-enc 1.15 and libvips' heifsave write single "
            "images, and libheif 1.15's API has no grid encoder. The only grid is the 1x1 grid that heif-enc makes for "
            "odd sizes (`heif/odd-17x9-grid.heic`). No AVIF grid either (aom codes odd sizes directly).",
            "**10-bit AVIF in 4:2:0 or 4:4:4.** libaom 3.6.0, as libheif 1.15 drives it, aborts (assertion "
            "`seq_params->subsampling_x == 1 && seq_params->subsampling_y == 0` in write_color_config: it picks "
            "profile 2, where 10 bits means 4:2:2) from heif-enc -A -b 10 and from vips heifsave --compression av1 "
            "--bitdepth 10 alike. Made instead: `avif/10bit-422.avif` (10-bit 4:2:2) and `avif/12bit.avif` (12-bit "
            "4:2:0).",
            "**A CMYK TIFF with ghostscript's small ps_cmyk.icc** (the profile of ../color/cmyk.jpg): it has only "
            "A2B0/B2A0, and `vips icc_transform --embedded --intent relative` then warns \"profile does not support "
            "relative input intent\" and quietly uses libvips' own default CMYK profile instead (72 levels away from "
            "lcms2's tificc). `tiff/cmyk8-strip-lzw.tif` therefore embeds ghostscript's default_cmyk.icc (SWOP, with "
            "A2B1), and the script stops on any icc_transform warning.",
            "**irot in AVIF**: not made (the same libheif writer quirk as the HEIC files would apply).",
            "**Premultiplied-alpha TIFF (ExtraSamples 1)**: not made; libvips writes unassociated alpha by default and "
            "the reference for associated alpha would depend on the unpremultiply rounding.",
            "**GIF transparency via giftool -t**: giflib 5.2.1's giftool rejects its own documented -t option, so the "
            "transparent GIF goes through gifbuild's text form instead.",
        ]
        manifest = {
            "description": "tileview format conformance corpus: WebP, HEIF/HEIC, AVIF, TIFF and GIF files made by real "
                           "encoders from images in the repository, each with libvips' decode reduced to RGBA8. "
                           "Generated by scripts/make-format-corpus.sh; see README.md.",
            "rules": RULES,
            "tools": tool_versions(),
            "files": corpus.records,
        }
        with open(os.path.join(out, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1, ensure_ascii=False)
            f.write("\n")
        write_readme(out, corpus, manifest["tools"])
        with open(os.path.join(out, "LICENSES.md"), "w") as f:
            f.write(LICENSES)
        total = 0
        for dirpath, _, names in os.walk(out):
            total += sum(os.path.getsize(os.path.join(dirpath, n)) for n in names)
        print(f"{len(corpus.records)} records, {total:,} bytes in {out}")
        for c in corpus.checks:
            print("check:", c)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: format_corpus.py REPO_ROOT OUT_DIR")
    main(sys.argv[1], sys.argv[2])
