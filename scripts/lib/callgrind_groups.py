#!/usr/bin/env python3
"""Groups a callgrind profile of tileview into cost areas.

  python3 scripts/lib/callgrind_groups.py CALLGRIND.OUT [CALLGRIND.OUT ...]

Exclusive cost of every function (callgrind_annotate --threshold=100, names demangled with
`swift demangle --simplified` when available) is put into one area by its object file and name:
  start-up      ld.so, Swift runtime metadata and conformance lookups, swift-argument-parser
  jpeg decode   libjpeg-turbo and the tv_jpeg_* shim
  resampling    the Swift renderer (FrameRenderer, ResampleAxis, LevelReader)
  png encode    libpng, zlib, the tv_png_* shim and its own deflate (runs_*), ImageBuffer.isOpaque (the
                colour-type scan)
  copies/alloc  memcpy/memmove/memset, malloc/free/realloc/calloc, swift_allocObject/dealloc
  other         everything else
Then prints a few inclusive costs (the subtrees that matter) and the 12 largest functions.
"""
import re
import shutil
import subprocess
import sys

LINE = re.compile(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*)$")


def annotate(path, inclusive):
    args = ["callgrind_annotate", "--threshold=100", f"--inclusive={'yes' if inclusive else 'no'}", path]
    text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    if shutil.which("swift"):
        text = subprocess.run(["swift", "demangle", "--simplified"], input=text, capture_output=True,
                              text=True).stdout or text
    total, rows, started = 0, [], False
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            if "file:function" in line:
                started = True
            continue
        cost = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2):
            total = cost
        elif started:
            rows.append((cost, m.group(2)))
    return total, rows


def area(name):
    obj = name[name.rfind("[") + 1:-1] if name.endswith("]") else ""
    fn = name[:name.rfind(" [")] if " [" in name else name
    fn = fn.split(":", 1)[1] if ":" in fn else fn
    if "libjpeg" in obj or fn.startswith("tv_jpeg"):
        return "jpeg decode"
    if "libpng" in obj or "libz.so" in obj or fn.startswith(("tv_png", "runs_")) or "isOpaque" in fn:
        return "png encode"
    if re.search(r"FrameRenderer|ResampleAxis|LevelReader|BufferRowSource|SourceOver|sinPi", fn):
        return "resampling"
    if re.search(r"^(__)?(mem(cpy|move|set)|malloc|free|realloc|calloc|_int_(malloc|free|realloc)|"
                 r"malloc_consolidate|unlink_chunk|cfree|tcache|sysmalloc|swift_(allocObject|deallocObject|slowAlloc|slowDealloc))",
                 fn) or re.search(r"mem(cpy|move|set)_", fn):
        return "copies/alloc"
    if "ld-linux" in obj or fn.startswith(("_dl_", "dl_", "do_lookup", "check_match")) or "dl-" in name:
        return "start-up"
    # The runtime's own functions: in libswiftCore, or inside a binary linked with --static-swift-stdlib.
    runtime = "libswiftCore" in obj or fn.startswith(("swift_", "swift::", "(anonymous namespace)::", "__swift", "_swift"))
    if runtime and re.search(r"[Cc]onform|Metadata|metadata|Demangl|Mangled|equalContexts|"
                             r"getTypeByMangled|TypeLookup|swift_once|Protocol", fn):
        return "start-up"
    if re.search(r"ArgumentParser|CommandParser|ArgumentSet|ArgumentDefinition|ParsableArguments|"
                 r"ParsableCommand|ArgumentDecoder|SplitArguments|InputOrigin|HelpGenerator|Name\b|"
                 r"CommandConfiguration|ArgumentHelp|ExpressibleByArgument|CompletionKind", fn):
        return "start-up"
    return "other"


INCLUSIVE = [
    r"ZoomJob\.run\(\)", r"GalleryCommand\.run\(\)", r"TiledImage\.render\(", r"static FrameRenderer\.resample<",
    r"^jpeg_read_scanlines$", r"^jpeg_skip_scanlines$", r"static PNGEncoder\.encode\(", r"^tv_png_encode$",
    r"^deflate$", r"ImageBuffer\.isOpaque", r"CommandParser\.parseBesidesCustomCompletion", r"^_dl_start$",
]


def main():
    for path in sys.argv[1:]:
        total, rows = annotate(path, inclusive=False)
        areas = {}
        for cost, name in rows:
            areas[area(name)] = areas.get(area(name), 0) + cost
        print(f"\n== {path}: total {total:,} Ir")
        print("exclusive cost by area:")
        for key in ["start-up", "jpeg decode", "resampling", "png encode", "copies/alloc", "other"]:
            v = areas.get(key, 0)
            print(f"  {key:13s} {v:>15,} {100 * v / total:6.2f}%")
        _, inclusive = annotate(path, inclusive=True)
        print("inclusive cost of selected subtrees (first match, all threads):")
        for pattern in INCLUSIVE:
            for cost, name in inclusive:
                fn = name.split(":", 1)[1] if ":" in name else name
                fn = fn[:fn.rfind(" [")] if " [" in fn else fn
                if re.search(pattern, fn):
                    print(f"  {cost:>15,} {100 * cost / total:6.2f}%  {fn[:100]}")
                    break
        print("largest functions (exclusive):")
        for cost, name in sorted(rows, reverse=True)[:12]:
            print(f"  {cost:>15,} {100 * cost / total:6.2f}%  [{area(name)}] {name[:130]}")


if __name__ == "__main__":
    main()
