#!/usr/bin/env bash
# The one release build of tileview, for the demo, the install and every benchmark: the command `tileview` and
# the server `tileview-serve` that `tileview serve` becomes, with the Swift standard library and Foundation linked
# statically (--static-swift-stdlib). A dynamic build spends about 6 ms of every run loading and relocating
# libFoundation and ICU before main; a single frame of a 24 MP JPEG takes about 60 ms to decode, so start-up is a
# tenth of it (docs/benchmarks.md section 5).
# Extra arguments go to swift build, once (--show-bin-path prints the folder of the binaries).
# The flag changes how every module is compiled: build with this script alone, or the next build is from scratch.
#
# Linking Foundation statically brings glibc's link-time notice "the use of `mktemp' is dangerous" (from the
# toolchain's libFoundationEssentials, Data+Writing.swift.o: Foundation's atomic file writing, which tileview does
# not call; its own files are written by AtomicFile with mkstemp-like names). That one line, and the line naming the
# object it comes from, are left out of the output; every other warning shows.
set -euo pipefail
cd "$(dirname "$0")/../.."
quiet_link() { sed -u -e "/the use of .mktemp. is dangerous/d" -e "/libFoundationEssentials.a(Data+Writing.swift.o)/d"; }
if [ "$#" -gt 0 ]; then
  exec swift build -c release --product tileview --static-swift-stdlib "$@"
fi
swift build -c release --product tileview --static-swift-stdlib 2>&1 | quiet_link
swift build -c release --product tileview-serve --static-swift-stdlib 2>&1 | quiet_link
