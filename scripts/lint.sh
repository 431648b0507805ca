#!/usr/bin/env bash
# Checks the formatting of every Swift file with the toolchain's swift-format (.swift-format).
# `swift format --in-place --recursive Sources Tests Fuzz Benchmarks Package.swift` fixes most findings.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --recursive Sources Tests Fuzz Package.swift
echo "swift-format: clean"
