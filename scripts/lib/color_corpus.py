#!/usr/bin/env python3
"""Regenerates Tests/Corpus/color/: colour-tagged JPEGs and PNGs and their sRGB references.

Run through scripts/make-color-corpus.sh. Needs Python 3 with numpy, liblcms2 (called through ctypes:
the references are lcms2's own transforms, built the way a decoder builds them) and its tificc (a
cross-check of every reference), libjpeg-turbo's cjpeg/djpeg, and libvips (`vips`: writes and reads the
CMYK JPEG, checks that its libjpeg decode of every JPEG is djpeg's, and makes TIFFs for tificc). The
profiles come from /usr/share/color/icc (colord, icc-profiles-free, ghostscript). Everything is
deterministic for given versions of those tools: no timestamps, no random numbers.

What each file is and how its reference is made is written to README.md beside them (write_readme).
The module also serves scripts/lib/measure_color.py: read_png.
"""

import ctypes
import ctypes.util
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np

ICC = "/usr/share/color/icc"
PROFILES = {
    "adobergb": f"{ICC}/colord/AdobeRGB1998.icc",
    "applergb": f"{ICC}/colord/AppleRGB.icc",
    "widegamut": f"{ICC}/colord/WideGamutRGB.icc",
    "prophoto": f"{ICC}/colord/ProPhotoRGB.icc",
    "srgb": f"{ICC}/colord/sRGB.icc",
    "romm": f"{ICC}/ghostscript/rommrgb.icc",
    "gray": f"{ICC}/Gray.icc",  # icc-profiles-free: gray, linear (gamma 1.0)
    "sgray": f"{ICC}/ghostscript/sgray.icc",  # ghostscript: gray, gamma 1.8
    "cmyk": f"{ICC}/ghostscript/ps_cmyk.icc",
}

# The source photo: SampleImages/coffee.png (600x400, 8-bit RGB, no colour chunk: sRGB), its 432x288 crop on
# the cup, the saucer and the spoon, halved by 2x2 box averages to 216x144. The size keeps the folder (22 PNGs
# of photo pixels, one of them 16-bit) near 1.5 MB.
SOURCE = "SampleImages/coffee.png"
CROP = (84, 56, 432, 288)  # left, top, width, height; then halved
JPEG_QUALITY = 92
TRUNCATED_BYTES = 300


# ---------------------------------------------------------------------------------------------------------
# PNG


def read_png(path):
    """Decodes a non-interlaced PNG (gray, gray+alpha, RGB, RGBA; 8 or 16 bits) to a numpy array
    (H, W, C) of uint8 or uint16, and a dict of its ancillary chunks (type -> list of payloads)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, chunks, ihdr = 8, [], {}, None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        ctype = data[pos + 4 : pos + 8]
        payload = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", payload)
        elif ctype == b"IDAT":
            idat.append(payload)
        elif ctype == b"IEND":
            break
        else:
            chunks.setdefault(ctype.decode("latin1"), []).append(payload)
    width, height, depth, ctype, _, _, interlace = ihdr
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    if channels is None or depth not in (8, 16) or interlace != 0:
        raise ValueError(f"{path}: unsupported PNG (colour type {ctype}, depth {depth}, interlace {interlace})")
    bpp = channels * depth // 8
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    out = np.zeros((height, stride), np.uint8)
    prev = np.zeros(stride, np.int32)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) & 255
        elif f in (1, 3, 4):
            cur = line.copy()
            for x in range(stride):  # sequential: each byte depends on the one bpp before it
                a = cur[x - bpp] if x >= bpp else 0
                if f == 1:
                    p = a
                elif f == 3:
                    p = (a + prev[x]) >> 1
                else:
                    b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[x] = (cur[x] + p) & 255
        else:
            raise ValueError(f"{path}: bad filter {f}")
        out[y] = cur
        prev = cur
    if depth == 16:
        pixels = out.view(">u2").astype(np.uint16).reshape(height, width, channels)
    else:
        pixels = out.reshape(height, width, channels)
    return pixels, chunks


def _chunk(ctype, payload):
    body = ctype + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def _filter_rows(rows, bpp):
    """Per row, the filter (0-4) whose output has the smallest sum of absolute signed bytes (libpng's
    heuristic); returns the filtered bytes."""
    height, stride = rows.shape
    r = rows.astype(np.int32)
    out = bytearray()
    prev = np.zeros(stride, np.int32)
    for y in range(height):
        cur = r[y]
        left = np.concatenate([np.zeros(bpp, np.int32), cur[:-bpp]])
        upleft = np.concatenate([np.zeros(bpp, np.int32), prev[:-bpp]])
        pa, pb, pc = np.abs(prev - upleft), np.abs(left - upleft), np.abs(left + prev - 2 * upleft)
        paeth = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, prev, upleft))
        candidates = [cur, cur - left, cur - prev, cur - ((left + prev) >> 1), cur - paeth]
        best, best_cost = 0, None
        for f, c in enumerate(candidates):
            c = c & 255
            cost = int(np.minimum(c, 256 - c).sum())
            if best_cost is None or cost < best_cost:
                best, best_cost = f, cost
        out.append(best)
        out += (candidates[best] & 255).astype(np.uint8).tobytes()
        prev = cur
    return bytes(out)


def write_png(path, pixels, chunks=()):
    """Writes (H, W) or (H, W, C) uint8/uint16 pixels as a PNG, with `chunks` ((type, payload) pairs)
    between IHDR and IDAT. zlib level 9 (Z_FILTERED), adaptive row filters: the same input gives the same bytes."""
    if pixels.ndim == 2:
        pixels = pixels[:, :, None]
    height, width, channels = pixels.shape
    depth = 16 if pixels.dtype == np.uint16 else 8
    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    if depth == 16:
        rows = pixels.astype(">u2").view(np.uint8).reshape(height, width * channels * 2)
    else:
        rows = pixels.astype(np.uint8).reshape(height, width * channels)
    bpp = channels * depth // 8
    data = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, ctype, 0, 0, 0))
    for t, payload in chunks:
        data += _chunk(t, payload)
    deflate = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_FILTERED)
    idat = deflate.compress(_filter_rows(rows, bpp)) + deflate.flush()
    data += _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def iccp_chunk(name, profile):
    return (b"iCCP", name.encode("latin1") + b"\0\0" + zlib.compress(profile, 9))


# ---------------------------------------------------------------------------------------------------------
# lcms2 through ctypes

_lcms = None


def lcms():
    global _lcms
    if _lcms is None:
        lib = ctypes.CDLL(ctypes.util.find_library("lcms2") or "liblcms2.so.2")
        vp, u32, dbl = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_double
        lib.cmsOpenProfileFromMem.restype = vp
        lib.cmsOpenProfileFromMem.argtypes = [ctypes.c_char_p, u32]
        lib.cmsCreate_sRGBProfile.restype = vp
        lib.cmsCreateTransform.restype = vp
        lib.cmsCreateTransform.argtypes = [vp, u32, vp, u32, u32, u32]
        lib.cmsDoTransform.argtypes = [vp, ctypes.c_char_p, ctypes.c_char_p, u32]
        lib.cmsDeleteTransform.argtypes = [vp]
        lib.cmsCloseProfile.argtypes = [vp]
        lib.cmsBuildGamma.restype = vp
        lib.cmsBuildGamma.argtypes = [vp, dbl]
        lib.cmsCreateRGBProfile.restype = vp
        lib.cmsCreateRGBProfile.argtypes = [vp, vp, ctypes.POINTER(vp)]
        lib.cmsGetEncodedCMMversion.restype = ctypes.c_int
        _lcms = lib
    return _lcms


def _fmt(colorspace, channels, nbytes):
    # COLORSPACE_SH(s) | CHANNELS_SH(c) | BYTES_SH(b): PT_GRAY 3, PT_RGB 4, PT_CMYK 6
    return (colorspace << 16) | (channels << 3) | nbytes


TYPE = {
    "gray8": _fmt(3, 1, 1),
    "rgb8": _fmt(4, 3, 1),
    "rgb16": _fmt(4, 3, 2),
    "cmyk8": _fmt(6, 4, 1),
}
INTENT_PERCEPTUAL, INTENT_RELATIVE = 0, 1


def profile_intent(profile):
    """The rendering intent in the profile header (bytes 64..67): 0 perceptual, 1 relative, 2 saturation,
    3 absolute."""
    return struct.unpack(">I", profile[64:68])[0]


def open_profile(profile):
    """A cmsHPROFILE for `profile` (bytes), or for lcms2's built-in sRGB when `profile` is None."""
    lib = lcms()
    handle = lib.cmsCreate_sRGBProfile() if profile is None else lib.cmsOpenProfileFromMem(profile, len(profile))
    if not handle:
        raise ValueError("lcms2 cannot open the profile")
    return handle


def transform(pixels, src, src_type, dst, dst_type, intent):
    """lcms2's cmsCreateTransform(src, src_type, dst, dst_type, intent, 0) (no black point compensation,
    default optimisation) applied to `pixels` (H, W[, C]). `src`, `dst`: profile bytes, None for lcms2's
    built-in sRGB, or an open cmsHPROFILE (int)."""
    lib = lcms()
    hs = src if isinstance(src, int) else open_profile(src)
    hd = dst if isinstance(dst, int) else open_profile(dst)
    xf = lib.cmsCreateTransform(hs, TYPE[src_type], hd, TYPE[dst_type], intent, 0)
    if not xf:
        raise ValueError("lcms2 cannot make the transform")
    height, width = pixels.shape[:2]
    out_channels = {"gray8": 1, "rgb8": 3, "rgb16": 3, "cmyk8": 4}[dst_type]
    out_dtype = np.uint16 if dst_type.endswith("16") else np.uint8
    src_buf = np.ascontiguousarray(pixels, dtype=np.uint16 if src_type.endswith("16") else np.uint8)
    out = np.zeros((height, width, out_channels), out_dtype)
    lib.cmsDoTransform(xf, src_buf.ctypes.data_as(ctypes.c_char_p), out.ctypes.data_as(ctypes.c_char_p),
                       width * height)
    lib.cmsDeleteTransform(xf)
    return out if out_channels > 1 else out[:, :, 0]


def can_transform(profile, src_type):
    """Whether lcms2 can open `profile` and link it to sRGB (what a decoder needs to use it)."""
    lib = lcms()
    handle = lib.cmsOpenProfileFromMem(profile, len(profile))
    if not handle:
        return False, "cmsOpenProfileFromMem fails"
    xf = lib.cmsCreateTransform(handle, TYPE[src_type], lib.cmsCreate_sRGBProfile(), TYPE["rgb8"],
                                profile_intent(profile), 0)
    if not xf:
        return False, "cmsOpenProfileFromMem succeeds (the tags past the end are dropped), cmsCreateTransform fails"
    lib.cmsDeleteTransform(xf)
    return True, "usable"


class _xyY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


def lcms_profile_from_chromaticities(white, primaries, gamma):
    """An lcms2 RGB profile (handle) built from cHRM-style chromaticities and a pure power curve, as
    cmsCreateRGBProfile does it (Bradford adaptation of the primaries to D50)."""
    lib = lcms()
    wp = _xyY(white[0], white[1], 1.0)
    prim = (_xyY * 3)(*[_xyY(x, y, 1.0) for x, y in primaries])
    curve = lib.cmsBuildGamma(None, gamma)
    curves = (ctypes.c_void_p * 3)(curve, curve, curve)
    handle = lib.cmsCreateRGBProfile(ctypes.byref(wp), ctypes.byref(prim), curves)
    if not handle:
        raise ValueError("cmsCreateRGBProfile failed")
    return handle


# ---------------------------------------------------------------------------------------------------------
# Colour maths for cHRM + gAMA (numpy, float64)


def srgb_to_linear(v):
    v = v / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb8(l):
    l = np.clip(l, 0.0, 1.0)
    v = np.where(l <= 0.0031308, l * 12.92, 1.055 * l ** (1 / 2.4) - 0.055)
    return np.floor(v * 255.0 + 0.5).astype(np.uint8)


def rgb_to_xyz_matrix(white, primaries):
    """The RGB -> XYZ matrix of a space given by xy chromaticities (Y of white = 1)."""
    def xyz(x, y):
        return np.array([x / y, 1.0, (1 - x - y) / y])

    p = np.stack([xyz(*c) for c in primaries], axis=1)
    s = np.linalg.solve(p, xyz(*white))
    return p * s


SRGB_PRIMARIES = [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
D65 = (0.3127, 0.3290)
# chrm-gama.png: Adobe RGB (1998)'s primaries, D65 white, gAMA 45455 (1/2.2).
CHRM_PRIMARIES = [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)]
GAMA = 45455


def chrm_gama_encode(src_srgb8):
    """The sRGB photo re-expressed in the cHRM/gAMA space: linear sRGB -> XYZ -> linear wide RGB -> v^(gamma)."""
    m = np.linalg.solve(rgb_to_xyz_matrix(D65, CHRM_PRIMARIES), rgb_to_xyz_matrix(D65, SRGB_PRIMARIES))
    lin = srgb_to_linear(src_srgb8.astype(np.float64)) @ m.T
    v = np.clip(lin, 0.0, 1.0) ** (GAMA / 100000.0)
    return np.floor(v * 255.0 + 0.5).astype(np.uint8)


def chrm_gama_reference(stored8):
    """What a browser shows: v^(1/gamma) -> XYZ (D65) -> linear sRGB (D65: no adaptation needed) -> sRGB."""
    m = np.linalg.solve(rgb_to_xyz_matrix(D65, SRGB_PRIMARIES), rgb_to_xyz_matrix(D65, CHRM_PRIMARIES))
    lin = (stored8.astype(np.float64) / 255.0) ** (100000.0 / GAMA)
    return linear_to_srgb8(lin @ m.T)


# ---------------------------------------------------------------------------------------------------------
# JPEG markers


def jpeg_segments(data):
    """The marker segments before the first SOS: a list of (marker, payload), and the offset of SOS."""
    if data[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG")
    pos, segs = 2, []
    while True:
        if data[pos] != 0xFF:
            raise ValueError(f"no marker at {pos}")
        marker = data[pos + 1]
        if marker == 0xDA:
            return segs, pos
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        segs.append((marker, data[pos + 4 : pos + 2 + length]))
        pos += 2 + length


def build_jpeg(segs, data, sos):
    out = bytearray(b"\xff\xd8")
    for marker, payload in segs:
        if len(payload) + 2 > 0xFFFF:
            raise ValueError("segment too long")
        out += bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload
    return bytes(out) + data[sos:]


def icc_app2_payloads(profile, parts=None):
    """APP2 ICC_PROFILE payloads carrying `profile`: one per 65519 bytes, or `parts` of nearly equal size."""
    if parts is None:
        parts = max(1, -(-len(profile) // 65519))
    size = -(-len(profile) // parts)
    chunks = [profile[i * size : (i + 1) * size] for i in range(parts)]
    return [b"ICC_PROFILE\0" + bytes([i + 1, parts]) + c for i, c in enumerate(chunks)]


def with_markers(data, app2=(), app1=None, drop_app2=True):
    """`data` with its APP2 ICC markers replaced by `app2` payloads, put after the leading APPn markers;
    with `app1`, an APP1 payload after APP0."""
    segs, sos = jpeg_segments(data)
    if drop_app2:
        segs = [(m, p) for m, p in segs if not (m == 0xE2 and p.startswith(b"ICC_PROFILE\0"))]
    lead = 0
    while lead < len(segs) and 0xE0 <= segs[lead][0] <= 0xEF:
        lead += 1
    extra = [(0xE2, p) for p in app2]
    if app1 is not None:
        app0 = 1 if segs and segs[0][0] == 0xE0 else 0
        segs = segs[:app0] + [(0xE1, app1)] + segs[app0:]
        lead += 1
    return build_jpeg(segs[:lead] + extra + segs[lead:], data, sos)


def jpeg_icc_profile(data):
    """The ICC profile of a JPEG (its APP2 ICC_PROFILE markers in sequence order), or None; also the count."""
    segs, _ = jpeg_segments(data)
    parts = [(p[12], p[13], p[14:]) for m, p in segs if m == 0xE2 and p.startswith(b"ICC_PROFILE\0")]
    if not parts:
        return None, 0
    parts.sort()
    return b"".join(p for _, _, p in parts), len(parts)


def exif_r03():
    """An Exif APP1 payload (big-endian TIFF) with IFD0 Orientation = 1, an Exif IFD with ExifVersion 0230
    and ColorSpace = 0xFFFF (uncalibrated), and an Interoperability IFD with InteroperabilityIndex "R03"
    (Adobe RGB) and InteroperabilityVersion 0100: what a camera set to Adobe RGB writes under DCF."""
    def ifd(entries, next_ifd=0):
        out = struct.pack(">H", len(entries))
        for tag, typ, count, value in entries:
            out += struct.pack(">HHI", tag, typ, count) + value.ljust(4, b"\0")
        return out + struct.pack(">I", next_ifd)

    SHORT, LONG, ASCII, UNDEF = 3, 4, 2, 7
    ifd0_off = 8
    exif_off = ifd0_off + 2 + 2 * 12 + 4
    interop_off = exif_off + 2 + 3 * 12 + 4
    tiff = b"MM\x00\x2a" + struct.pack(">I", ifd0_off)
    tiff += ifd([(0x0112, SHORT, 1, struct.pack(">H", 1)), (0x8769, LONG, 1, struct.pack(">I", exif_off))])
    tiff += ifd([
        (0x9000, UNDEF, 4, b"0230"),
        (0xA001, SHORT, 1, struct.pack(">H", 0xFFFF)),
        (0xA005, LONG, 1, struct.pack(">I", interop_off)),
    ])
    tiff += ifd([(0x0001, ASCII, 4, b"R03\0"), (0x0002, UNDEF, 4, b"0100")])
    return b"Exif\0\0" + tiff


# ---------------------------------------------------------------------------------------------------------
# Tools


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, **kw).stdout


def read_pnm(data):
    """P5/P6 with maxval 255 -> (H, W) or (H, W, 3) uint8."""
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end : end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    magic, w, h, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
    assert maxval == 255, maxval
    channels = 3 if magic == b"P6" else 1
    a = np.frombuffer(data, np.uint8, w * h * channels, pos)
    return a.reshape(h, w, channels) if channels == 3 else a.reshape(h, w)


def pnm_bytes(pixels):
    h, w = pixels.shape[:2]
    magic = b"P6" if pixels.ndim == 3 else b"P5"
    return magic + b"\n%d %d\n255\n" % (w, h) + np.ascontiguousarray(pixels, np.uint8).tobytes()


def djpeg(path):
    """libjpeg-turbo's own decode (ISLOW DCT, fancy upsampling: djpeg's defaults)."""
    return read_pnm(run(["djpeg", "-pnm", path]))


def cjpeg(pixels, quality, extra=()):
    """libjpeg-turbo's cjpeg (JFIF APP0, 4:2:0 unless `extra` says otherwise, ISLOW DCT) from raw pixels."""
    return run(["cjpeg", "-quality", str(quality), *extra], input=pnm_bytes(pixels))


def vips_raw(path, tmp):
    """What libvips' jpegload gives (for CMYK: the ink amounts, Adobe inversion undone), via a .v file."""
    out = os.path.join(tmp, "vips-out.v")
    run(["vips", "copy", path, out])
    data = open(out, "rb").read()
    width, height, bands = struct.unpack("<iii", data[4:16])
    a = np.frombuffer(data, np.uint8, width * height * bands, 64).reshape(height, width, bands)
    return a


def vips_cmyk_jpeg(ink, quality, tmp):
    """A CMYK JPEG as libvips writes it: Adobe APP14 marker (transform 0), stored values 255 - ink (the
    Photoshop convention), no subsampling at Q >= 90, no other metadata (--strip)."""
    raw = os.path.join(tmp, "cmyk.raw")
    open(raw, "wb").write(np.ascontiguousarray(ink).tobytes())
    h, w = ink.shape[:2]
    run(["vips", "rawload", raw, os.path.join(tmp, "cmyk0.v"), str(w), str(h), "4"])
    run(["vips", "copy", os.path.join(tmp, "cmyk0.v"), os.path.join(tmp, "cmyk1.v"), "--interpretation", "cmyk"])
    out = os.path.join(tmp, "cmyk.jpg")
    run(["vips", "jpegsave", os.path.join(tmp, "cmyk1.v"), out, "--Q", str(quality), "--strip"])
    return open(out, "rb").read()


def tificc(path, profile, intent, tmp):
    """lcms2's own tificc (default precalculation, output its built-in sRGB) on the file's pixels as libvips
    decodes them, with `profile` as the input profile: the cross-check of every lcms2 reference."""
    icc, tif_in, tif_out, v = (os.path.join(tmp, n) for n in ("in.icc", "in.tif", "out.tif", "tificc.v"))
    open(icc, "wb").write(profile)
    run(["vips", "tiffsave", path, tif_in, "--strip"])
    subprocess.run(["tificc", f"-i{icc}", f"-t{intent}", "-w8", tif_in, tif_out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return vips_raw(tif_out, tmp)[:, :, :3]


# ---------------------------------------------------------------------------------------------------------
# The corpus


def describe(profile):
    """The profile's description (desc or mluc), for the README."""
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


def main(root):
    out_dir = os.path.join(root, "Tests", "Corpus", "color")
    tmp = tempfile.mkdtemp(prefix="color-corpus-")
    try:
        build(root, out_dir, tmp)
    finally:
        shutil.rmtree(tmp)


def build(root, out_dir, tmp):
    profiles = {k: open(v, "rb").read() for k, v in PROFILES.items()}
    photo, _ = read_png(os.path.join(root, SOURCE))
    left, top, w, h = CROP
    crop = photo[top : top + h, left : left + w, :3].astype(np.uint32)
    src = ((crop[0::2, 0::2] + crop[1::2, 0::2] + crop[0::2, 1::2] + crop[1::2, 1::2] + 2) // 4).astype(np.uint8)
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):
        if name.endswith((".jpg", ".png")):
            os.remove(os.path.join(out_dir, name))
    what = {}  # file -> what it is (for the README)
    notes = {}  # file -> how its reference was made

    def path(name):
        return os.path.join(out_dir, name)

    def save(name, data, description):
        with open(path(name), "wb") as f:
            f.write(data)
        what[name] = description

    def reference(name, pixels, how):
        write_png(path(name + ".srgb.png"), pixels)
        notes[name] = how

    def ref_from(name, stored, src_type, profile, how_decoded, profile_name=None):
        intent = profile_intent(profile)
        ref = transform(stored, profile, src_type, None, "rgb8", intent)
        if not np.array_equal(ref, tificc(path(name), profile, intent, tmp)):
            raise SystemExit(f"{name}: lcms2 through ctypes and tificc disagree")
        reference(name, ref, f"{how_decoded}, then lcms2: {profile_name or 'the embedded profile'} -> lcms2's "
                             f"built-in sRGB, intent {intent} (the header's), no BPC, 8 bits")
        return ref

    def jpeg_from(pixels, profile, extra=()):
        return with_markers(cjpeg(pixels, JPEG_QUALITY, extra), app2=icc_app2_payloads(profile))

    # --- RGB JPEGs converted into wide spaces --------------------------------------------------------------
    untagged = cjpeg(src, JPEG_QUALITY)
    converted = {}
    spaces = [
        ("adobergb", "colord `AdobeRGB1998.icc` (v4, \"Compatible with Adobe RGB (1998)\", 18,604 B)", ""),
        ("applergb", "colord `AppleRGB.icc` (v4, gamma 1.8, 16,488 B)", ""),
        ("widegamut", "colord `WideGamutRGB.icc` (v4, 700/525/450 nm primaries, D50 white, 23,644 B)", ""),
        ("prophoto", "colord `ProPhotoRGB.icc` (v4, 19,688 B)", " (4:4:4: `cjpeg -sample 1x1`)"),
        ("romm", "ghostscript `rommrgb.icc` (v2, \"Artifex Software ROMMRGB ICC\", gamma 1.8, 564 B)", ""),
    ]
    for key, profile_text, sampling in spaces:
        prof = profiles[key]
        pixels = transform(src, None, "rgb8", prof, "rgb8", INTENT_RELATIVE)
        converted[key] = pixels
        extra = ("-sample", "1x1") if key == "prophoto" else ()
        save(f"{key}.jpg", jpeg_from(pixels, prof, extra),
             f"RGB JPEG{sampling}, the photo converted into the space; one APP2 ICC_PROFILE marker: {profile_text}")
        ref_from(f"{key}.jpg", djpeg(path(f"{key}.jpg")), "rgb8", prof, "djpeg")

    # --- gray JPEG: linear gray (Gray.icc, gamma 1.0) ---------------------------------------------------------
    gray = transform(src, None, "rgb8", profiles["gray"], "gray8", INTENT_RELATIVE)
    save("gray.jpg", jpeg_from(gray, profiles["gray"]),
         "grayscale JPEG, the photo converted to linear gray (stored value = 255 Y); one APP2 marker: "
         "icc-profiles-free `Gray.icc` (v2, kTRC gamma 1.0, 420 B): read as sRGB it looks far too dark")
    ref_from("gray.jpg", djpeg(path("gray.jpg")), "gray8", profiles["gray"], "djpeg (gray)")

    # --- CMYK JPEG (Adobe, inverted), ps_cmyk.icc -----------------------------------------------------------
    ink = transform(src, None, "rgb8", profiles["cmyk"], "cmyk8", INTENT_PERCEPTUAL)
    save("cmyk.jpg", with_markers(vips_cmyk_jpeg(ink, JPEG_QUALITY, tmp), app2=icc_app2_payloads(profiles["cmyk"])),
         "CMYK JPEG as Photoshop writes it (Adobe APP14, transform 0, stored values inverted: 255 - ink; "
         "written by libvips jpegsave, 4:4:4); one APP2 marker: ghostscript `ps_cmyk.icc` (v4 output class, "
         "\"Artifex PS CMYK Profile\", A2B0/B2A0 only, 5,340 B)")
    ink_decoded = vips_raw(path("cmyk.jpg"), tmp)
    # vips' decode is libjpeg's: djpeg writes CMYK as R = round(Cs*Ks/255) on the stored (inverted) values
    # Cs = 255 - C, and vips undoes the Adobe inversion.
    stored = 255 - ink_decoded.astype(np.int32)
    dj = djpeg(path("cmyk.jpg")).astype(np.int32)
    expect = (stored[:, :, :3] * stored[:, :, 3:4] + 127) // 255
    if not np.array_equal(dj, expect):
        raise SystemExit(f"cmyk.jpg: vips' CMYK decode does not agree with djpeg ({np.abs(dj - expect).max()})")
    ref_from("cmyk.jpg", ink_decoded, "cmyk8", profiles["cmyk"],
             "libvips jpegload (libjpeg; the Adobe inversion undone, so 0 = no ink; checked against djpeg's "
             "C*K/255) as TYPE_CMYK_8")

    # --- several APP2 markers; a truncated profile; R03; sRGB tagged/untagged ---------------------------------
    adobe = open(path("adobergb.jpg"), "rb").read()
    save("multi-app2.jpg", with_markers(adobe, app2=icc_app2_payloads(profiles["adobergb"], parts=3)),
         "adobergb.jpg's JPEG data with the profile split over three APP2 ICC_PROFILE markers "
         "(sequence numbers 1, 2, 3 of 3; 6,202 + 6,201 + 6,201 B)")
    ref_from("multi-app2.jpg", djpeg(path("multi-app2.jpg")), "rgb8", profiles["adobergb"], "djpeg",
             "the three markers' profile (colord Adobe RGB)")

    save("untagged.jpg", untagged, "the sRGB photo as cjpeg writes it (JFIF, 4:2:0), no colour information: "
         "sRGB assumed. No reference: its frames are srgb-tagged.jpg's, byte for byte")
    save("srgb-tagged.jpg", with_markers(untagged, app2=icc_app2_payloads(profiles["srgb"])),
         "untagged.jpg's JPEG data plus one APP2 marker: colord `sRGB.icc` (v4, parametric sRGB curves, 20,420 B)")
    truncated = profiles["adobergb"][:TRUNCATED_BYTES]
    save("truncated-profile.jpg", with_markers(untagged, app2=[b"ICC_PROFILE\0\x01\x01" + truncated]),
         f"untagged.jpg's JPEG data plus one APP2 marker (1 of 1) holding the first {TRUNCATED_BYTES} bytes of "
         "colord's Adobe RGB profile (header, tag count and tag table; its size field still says 18,604)")
    usable, why = can_transform(truncated, "rgb8")
    assert not usable
    stored_srgb = djpeg(path("untagged.jpg"))
    via_lcms = transform(stored_srgb, profiles["srgb"], "rgb8", None, "rgb8", profile_intent(profiles["srgb"]))
    srgb_identity_diff = int(np.abs(via_lcms.astype(int) - stored_srgb.astype(int)).max())
    reference("srgb-tagged.jpg", stored_srgb,
              "djpeg, untransformed: the profile is sRGB and docs/design.md section 14 keeps such a source's bytes (lcms2's own "
              f"colord sRGB -> built-in sRGB transform differs from the identity by at most {srgb_identity_diff})")
    reference("truncated-profile.jpg", djpeg(path("truncated-profile.jpg")),
              f"djpeg, untransformed: the profile is unusable ({why}), so it counts as absent and the "
              "source is sRGB; the same pixels as untagged.jpg")

    save("r03.jpg", with_markers(adobe, app1=exif_r03()),
         "adobergb.jpg's JPEG data with no APP2, and an Exif APP1 (big-endian): IFD0 Orientation 1, Exif IFD "
         "(0x8769) ColorSpace (0xA001) = 0xFFFF, Interoperability IFD (0xA005) InteroperabilityIndex (0x0001, "
         "ASCII, count 4) = \"R03\": Adobe RGB by DCF's rule")
    ref_from("r03.jpg", djpeg(path("r03.jpg")), "rgb8", profiles["adobergb"], "djpeg",
             "colord `AdobeRGB1998.icc` (the file has no profile)")

    # --- PNGs -------------------------------------------------------------------------------------------------
    write_png(path("adobergb.png"), converted["adobergb"], [iccp_chunk("Adobe RGB (1998)", profiles["adobergb"])])
    what["adobergb.png"] = ("8-bit RGB PNG, the photo converted into Adobe RGB (the pixels adobergb.jpg was encoded "
                            "from); iCCP \"Adobe RGB (1998)\": colord `AdobeRGB1998.icc`")
    pro16 = transform(src, None, "rgb8", profiles["prophoto"], "rgb16", INTENT_RELATIVE)
    write_png(path("prophoto16.png"), pro16, [iccp_chunk("ProPhoto RGB", profiles["prophoto"])])
    what["prophoto16.png"] = ("16-bit RGB PNG, the photo converted into ProPhoto RGB with 16-bit output; iCCP "
                              "\"ProPhoto RGB\": colord `ProPhotoRGB.icc`")
    write_png(path("srgb-chunk.png"), src, [(b"sRGB", b"\x00")])
    what["srgb-chunk.png"] = "8-bit RGB PNG, the sRGB photo; an sRGB chunk (perceptual), no iCCP, gAMA or cHRM"
    chrm = struct.pack(">8I", *[round(v * 100000) for xy in [D65] + CHRM_PRIMARIES for v in xy])
    write_png(path("chrm-gama.png"), chrm_gama_encode(src), [(b"gAMA", struct.pack(">I", GAMA)), (b"cHRM", chrm)])
    what["chrm-gama.png"] = ("8-bit RGB PNG with gAMA 45455 (1/2.2) and cHRM white 0.3127,0.3290 (D65), red 0.64,0.33, "
                             "green 0.21,0.71, blue 0.15,0.06 (Adobe RGB's primaries); no iCCP, no sRGB chunk; the "
                             "photo converted into that space in numpy (float64)")
    sgray = transform(src, None, "rgb8", profiles["sgray"], "gray8", INTENT_RELATIVE)
    write_png(path("gray-iccp.png"), sgray, [iccp_chunk("Gray 1.8", profiles["sgray"])])
    what["gray-iccp.png"] = ("8-bit gray PNG, the photo converted to gray; iCCP \"Gray 1.8\": ghostscript `sgray.icc` "
                             "(v2, \"Artifex Software sGray ICC Profile\" but kTRC gamma 1.8, D65 wtpt, 416 B)")

    for name, src_type, key in [("adobergb.png", "rgb8", "adobergb"), ("prophoto16.png", "rgb16", "prophoto"),
                                ("gray-iccp.png", "gray8", "sgray")]:
        stored, chunks = read_png(path(name))
        icc = zlib.decompress(chunks["iCCP"][0].split(b"\0", 1)[1][1:])
        assert icc == profiles[key]
        if stored.shape[2] == 1:
            stored = stored[:, :, 0]
        depth = "all 16 bits of each sample, as TYPE_RGB_16" if src_type == "rgb16" else "8-bit"
        ref_from(name, stored, src_type, icc, f"the PNG's pixels ({depth})", "the iCCP profile")
    stored, _ = read_png(path("srgb-chunk.png"))
    reference("srgb-chunk.png", stored, "its own pixels (the sRGB chunk says sRGB: not transformed)")
    stored, _ = read_png(path("chrm-gama.png"))
    ref = chrm_gama_reference(stored)
    built = lcms_profile_from_chromaticities(D65, CHRM_PRIMARIES, 100000.0 / GAMA)
    via = transform(stored, built, "rgb8", None, "rgb8", INTENT_PERCEPTUAL)
    d = np.abs(via.astype(int) - ref.astype(int))
    chrm_check = (f"lcms2 with a profile built from the same numbers (cmsCreateRGBProfile + cmsBuildGamma(1/0.45455), "
                  f"Bradford to D50) agrees within {d.max()} ({np.count_nonzero(d)} of {d.size} samples differ by 1)")
    reference("chrm-gama.png", ref, "numpy (float64): v^(1/0.45455) -> XYZ (D65) -> linear sRGB (D65: no "
              "adaptation) -> sRGB curve, rounded; " + chrm_check)

    # --- checks -----------------------------------------------------------------------------------------------
    for name in sorted(os.listdir(out_dir)):
        if name.endswith(".jpg") and name != "cmyk.jpg":
            a = djpeg(path(name))
            b = vips_raw(path(name), tmp)
            b = b[:, :, 0] if a.ndim == 2 else b
            if not np.array_equal(a, b):
                raise SystemExit(f"{name}: vips' decode differs from djpeg's")
    assert np.array_equal(djpeg(path("srgb-tagged.jpg")), djpeg(path("untagged.jpg")))
    report = []
    for name in ["adobergb.jpg", "applergb.jpg", "widegamut.jpg", "prophoto.jpg", "romm.jpg", "gray.jpg",
                 "cmyk.jpg", "multi-app2.jpg", "srgb-tagged.jpg"]:
        icc, count = jpeg_icc_profile(open(path(name), "rb").read())
        assert icc is not None, name
        report.append(f"{name}: {count} APP2 ICC_PROFILE marker(s), {len(icc)} bytes, '{describe(icc)}', "
                      f"intent {profile_intent(icc)}")
    report.append(f"truncated-profile.jpg: lcms2 on the {TRUNCATED_BYTES}-byte profile: {why}")
    for name, how in sorted(notes.items()):
        report.append(f"reference {name}.srgb.png: {how}")
    write_readme(out_dir, what, notes)
    total = sum(os.path.getsize(path(n)) for n in os.listdir(out_dir))
    report.append(f"{len(os.listdir(out_dir))} files, {total} bytes in {out_dir}")
    print("\n".join(report))


def tool_versions():
    lcms_version = lcms().cmsGetEncodedCMMversion()
    vips_version = run(["vips", "--version"]).decode().strip()
    jpeg_version = subprocess.run(["cjpeg", "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  check=False).stdout.decode().strip().splitlines()[0]
    return (f"lcms2 {lcms_version // 1000}.{lcms_version % 1000 // 10}, {jpeg_version} (cjpeg/djpeg), {vips_version}, "
            f"Python zlib {zlib.ZLIB_RUNTIME_VERSION}, numpy {np.__version__}")


README_HEAD = """# Colour corpus

Photos tagged with a colour description, each with the picture a colour-managed sRGB display shows
(`NAME.srgb.png`), for docs/design.md section 14. **Generated**: `scripts/make-color-corpus.sh` remakes every
`.jpg` and `.png` here and this README (`scripts/lib/color_corpus.py` does the work); nothing else
writes them. Made with {versions}; profiles from Debian 12's colord-data, icc-profiles-free and
libgs-common (/usr/share/color/icc).

Source pixels: `SampleImages/coffee.png` (CC0, Rachel Michetti; 8-bit RGB with no colour chunk, so
sRGB), its {cw}x{ch} crop at ({cx},{cy}) halved by 2x2 box averages to **{w}x{h}**: a red saucer, a
white cup, coffee, a steel spoon and wood. Each tagged file is that photo converted *into* its space
(lcms2 from its built-in sRGB, relative colorimetric; perceptual for the CMYK profile, whose only
tables are A2B0/B2A0), encoded (JPEG quality {q}: `cjpeg`, 4:2:0 unless said), and given its
profile the way a camera or editor writes it.

A reference `NAME.srgb.png` is an 8-bit RGB PNG without any colour chunk: the file's stored pixels,
decoded as libjpeg-turbo decodes them with its defaults (djpeg: ISLOW, fancy upsampling; libvips'
jpegload gives the same bytes for every file here, which the script checks) or as libpng does,
converted by lcms2 itself (through ctypes: `cmsCreateTransform(profile, TYPE_*_8, cmsCreate_sRGBProfile(),
TYPE_RGB_8, intent, 0)`, the intent being the profile header's, bytes 64..67: 0 for every profile here,
no black point compensation). lcms2's `tificc -t0` gives the same bytes for all of them (the script
checks); `vips icc_transform --embedded` (through float Lab) differed by at most 1 (2 for CMYK). The oracle: a frame of
`NAME` and the same frame of `NAME.srgb.png` differ in CIEDE2000 by mean <= 1, 99th percentile <= 4
(`Tests/TileViewCLITests/ColorLawTests.swift`; `scripts/measure-color.sh` prints the figures).

| file | what it is | reference `FILE.srgb.png` |
|---|---|---|
"""

README_TAIL = """
Notes:

- CMYK: libjpeg hands out the stored values; with an Adobe APP14 marker (what Photoshop and libvips
  write for CMYK) they are inverted, 255 - ink. libvips' jpegsave inverts on writing and its jpegload
  inverts back (checked here: vips reads 0 0 0 0 for paper white, djpeg's RGB of it is 255 255 255).
  lcms2's TYPE_CMYK_8 takes ink (0 = none), so a decoder feeds it 255 - stored, or stored with
  TYPE_CMYK_8_REV. `ps_cmyk.icc` is a crude profile: it never uses K, and its A2B0 does not invert its
  B2A0 (sRGB 160,40,30 goes in and comes back 154,84,25), so the reference looks more orange than the
  photo. That is what the file means, and what lcms2 (and tificc, and vips) show.
- `truncated-profile.jpg`: lcms2 2.14 opens the 300 bytes (cmsOpenProfileFromMem succeeds and drops
  the tags that lie past the end) but cannot build a transform from them (cmsCreateTransform returns
  NULL): a decoder has to try the transform, not just the open, to know the profile is unusable.
- `gray.jpg` (gamma 1.0) and `gray-iccp.png` (gamma 1.8) have gray tone curves that are not sRGB's,
  so showing their stored values unconverted is visibly wrong (too dark). Their references are
  neutral (R = G = B).
- `srgb-tagged.jpg` and `untagged.jpg` hold the same JPEG data, and `truncated-profile.jpg` too:
  all three decode to the same pixels and, by docs/design.md section 14, render to the same frames.
- `multi-app2.jpg.srgb.png` and `r03.jpg.srgb.png` equal `adobergb.jpg.srgb.png` (same JPEG data,
  same profile); `truncated-profile.jpg.srgb.png` equals `srgb-tagged.jpg.srgb.png`.
- Licences: `LICENSES.md` in this folder.
"""


def write_readme(out_dir, what, notes):
    left, top, cw, ch = CROP
    text = README_HEAD.format(versions=tool_versions(), cw=cw, ch=ch, cx=left, cy=top, w=cw // 2, h=ch // 2,
                              q=JPEG_QUALITY)
    order = ["adobergb.jpg", "applergb.jpg", "widegamut.jpg", "prophoto.jpg", "romm.jpg", "gray.jpg", "cmyk.jpg",
             "multi-app2.jpg", "truncated-profile.jpg", "r03.jpg", "srgb-tagged.jpg", "untagged.jpg", "adobergb.png",
             "prophoto16.png", "srgb-chunk.png", "chrm-gama.png", "gray-iccp.png"]
    assert sorted(order) == sorted(what), sorted(set(order) ^ set(what))
    for name in order:
        size = os.path.getsize(os.path.join(out_dir, name))
        ref = notes.get(name)
        ref_text = f"{ref} ({os.path.getsize(os.path.join(out_dir, name + '.srgb.png')):,} B)" if ref else "none"
        text += f"| `{name}` ({size:,} B) | {what[name]} | {ref_text} |\n"
    text += README_TAIL
    with open(os.path.join(out_dir, "README.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.getcwd())
