#!/usr/bin/env python3
"""Writes a HEIF (or AVIF) whose primary image is a grid of coded tiles, as phones store their photos.

    scripts/make-heif-grid.py INPUT OUTPUT --tile 512 [--size WxH] [--irot N] [--imir AXIS] [--avif]
                              [--quality Q] [--order irot,imir] [-- heif-enc options...]

libheif 1.15's heif-enc writes one coded image per file (a grid only for an odd size, of one tile), so the grid is
assembled here: INPUT (any image libvips reads) is cut to --size (default: its own), padded on the right and at the
bottom to whole tiles by repeating its edge, and each tile is coded by heif-enc (x265, or aom with --avif) into a
file of its own; this script then takes each tile's item (its properties, hvcC or av1C, ispe, colr..., and its coded
bytes) and writes one file: the primary item a 'grid' (ImageGrid in the meta box's idat) of --size, referring to the
tiles in row order ('dimg'), with irot (N quarter turns anticlockwise) and imir (AXIS 0: top and bottom exchanged,
1: left and right) on the grid item in the order --order gives; tiles hidden. Needs vips and heif-enc
(libvips-tools, libheif-examples).
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from format_corpus import heif_info, heif_props_of  # noqa: E402  (the corpus generator's box reader)


def read_item(path):
    """The primary item of a one-image HEIF: (type, [(essential, property box bytes)], coded bytes)."""
    data = open(path, "rb").read()
    info = heif_info(data)
    primary = info["primary"]
    item_type = info["items"].get(primary)
    if item_type not in ("hvc1", "av01") or primary not in info["extents"]:
        raise ValueError(f"{path}: the primary item is {item_type!r}, not one coded image in the file")
    properties = [
        (essential, data[start - 8 : end])  # the whole box: its 8-byte header and its body
        for essential, (_, start, end) in zip(info["essential"][primary], heif_props_of(data, info, primary))
    ]
    coded = b"".join(data[offset : offset + length] for offset, length in info["extents"][primary])
    return item_type, properties, coded


def box(kind, body):
    return struct.pack(">I4s", 8 + len(body), kind.encode("latin-1")) + body


def full(kind, version, flags, body):
    return box(kind, bytes([version]) + flags.to_bytes(3, "big") + body)


def assemble(tiles, columns, rows, width, height, transforms, avif):
    """The grid file's bytes; tiles: [(type, [(essential, property)], coded)] in row order."""
    item_type = tiles[0][0]
    properties = []  # unique property boxes, 1-based in ipco

    def index(prop):
        if prop not in properties:
            properties.append(prop)
        return properties.index(prop) + 1

    grid_props = [(0, index(full("ispe", 0, 0, struct.pack(">II", width, height))))]
    for kind, value in transforms:
        if kind == "irot":
            grid_props.append((1, index(box("irot", bytes([value & 3])))))
        else:
            grid_props.append((1, index(box("imir", bytes([value & 1])))))
    tile_props = [[(essential, index(prop)) for essential, prop in tile[1]] for tile in tiles]

    grid_id, first_tile = 1, 2
    tile_ids = list(range(first_tile, first_tile + len(tiles)))
    large = width > 0xFFFF or height > 0xFFFF
    grid_data = bytes([0, 1 if large else 0, rows - 1, columns - 1]) + struct.pack(
        ">II" if large else ">HH", width, height)

    hdlr = full("hdlr", 0, 0, b"\0\0\0\0pict" + b"\0" * 12 + b"\0")
    pitm = full("pitm", 0, 0, struct.pack(">H", grid_id))
    entries = [full("infe", 2, 0, struct.pack(">HH", grid_id, 0) + b"grid" + b"\0")]
    entries += [full("infe", 2, 1, struct.pack(">HH", i, 0) + item_type.encode() + b"\0") for i in tile_ids]
    iinf = full("iinf", 0, 0, struct.pack(">H", len(entries)) + b"".join(entries))
    dimg = box("dimg", struct.pack(">HH", grid_id, len(tile_ids)) + b"".join(struct.pack(">H", i) for i in tile_ids))
    iref = full("iref", 0, 0, dimg)
    ipco = box("ipco", b"".join(properties))
    associations = [(grid_id, grid_props)] + list(zip(tile_ids, tile_props))
    ipma_body = struct.pack(">I", len(associations))
    for item_id, props in associations:
        ipma_body += struct.pack(">HB", item_id, len(props))
        ipma_body += bytes((essential << 7) | i for essential, i in props)
    iprp = box("iprp", ipco + full("ipma", 0, 0, ipma_body))
    idat = box("idat", grid_data)

    def iloc(mdat_start):
        body = bytes([0x44, 0x00]) + struct.pack(">H", 1 + len(tiles))
        body += struct.pack(">HHHH", grid_id, 1, 0, 1) + struct.pack(">II", 0, len(grid_data))
        at = mdat_start
        for i, tile in zip(tile_ids, tiles):
            body += struct.pack(">HHHH", i, 0, 0, 1) + struct.pack(">II", at, len(tile[2]))
            at += len(tile[2])
        return full("iloc", 1, 0, body)

    brands = [b"mif1", b"avif", b"miaf"] if avif else [b"mif1", b"heic"]
    ftyp = box("ftyp", (b"avif" if avif else b"heic") + b"\0\0\0\0" + b"".join(brands))

    def meta(mdat_start):
        return full("meta", 0, 0, hdlr + pitm + iloc(mdat_start) + iinf + iref + iprp + idat)

    mdat_start = len(ftyp) + len(meta(0)) + 8
    coded = b"".join(tile[2] for tile in tiles)
    return ftyp + meta(mdat_start) + box("mdat", coded)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--tile", default="512", help="tile size: N or WxH")
    parser.add_argument("--size", help="the grid's output size WxH (default: the input's)")
    parser.add_argument("--irot", type=int)
    parser.add_argument("--imir", type=int)
    parser.add_argument("--order", default="irot,imir")
    parser.add_argument("--avif", action="store_true")
    parser.add_argument("--quality", type=int, default=80)
    args, encoder = parser.parse_known_args()
    encoder = [option for option in encoder if option != "--"]

    tile_w, tile_h = (int(v) for v in (args.tile.split("x") if "x" in args.tile else (args.tile, args.tile)))
    with tempfile.TemporaryDirectory(prefix="heif-grid-") as folder:
        if args.size:
            width, height = (int(v) for v in args.size.split("x"))
        else:
            out = subprocess.run(["vipsheader", "-f", "width", args.input], capture_output=True, text=True, check=True)
            width = int(out.stdout)
            out = subprocess.run(["vipsheader", "-f", "height", args.input], capture_output=True, text=True, check=True)
            height = int(out.stdout)
        columns, rows = -(-width // tile_w), -(-height // tile_h)
        if columns > 256 or rows > 256:
            sys.exit("make-heif-grid: a grid has at most 256 columns and 256 rows")
        canvas = os.path.join(folder, "canvas.v")
        cut = os.path.join(folder, "cut.v")
        subprocess.run(["vips", "extract_area", args.input, cut, "0", "0", str(width), str(height)], check=True)
        subprocess.run(["vips", "embed", cut, canvas, "0", "0", str(columns * tile_w), str(rows * tile_h),
                        "--extend", "copy"], check=True)
        tiles = []
        for r in range(rows):
            for c in range(columns):
                png = os.path.join(folder, f"tile-{r}-{c}.png")
                coded = os.path.join(folder, f"tile-{r}-{c}.{'avif' if args.avif else 'heic'}")
                # Without the input's ICC profile, which heif-enc would give each tile.
                subprocess.run(["vips", "extract_area", canvas, png + "[strip]", str(c * tile_w), str(r * tile_h),
                                str(tile_w), str(tile_h)], check=True)
                command = ["heif-enc", "-q", str(args.quality)] + (["-A"] if args.avif else [])
                subprocess.run(command + encoder + ["-o", coded, png], check=True, stdout=subprocess.DEVNULL)
                tiles.append(read_item(coded))
        transforms = []
        for kind in args.order.split(","):
            if kind == "irot" and args.irot is not None:
                transforms.append(("irot", args.irot))
            if kind == "imir" and args.imir is not None:
                transforms.append(("imir", args.imir))
        data = assemble(tiles, columns, rows, width, height, transforms, args.avif)
    with open(args.output, "wb") as out:
        out.write(data)
    print(f"{args.output}: {width}x{height}, {columns}x{rows} tiles of {tile_w}x{tile_h}, {len(data)} bytes")


if __name__ == "__main__":
    main()
