#!/usr/bin/env bash
# Builds NetStatus in release (in .build-release, apart from the debug build), and the static netstatus and
# no-Foundation hello-world (in .build-static), and the design floor (netstatus-floor, a C observer, in
# .build-release), and runs every benchmark in one run: latency, idle cost, memory,
# startup, storm, fan-out, footprint. Needs root (it makes nsbench-* network namespaces, deleted at the end) and
# iproute2. Arguments go to netstatus-bench: --quick, --flips N, --idle-seconds S, --output FILE,
# --footprint-only.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --scratch-path .build-release >&2
# The documented install (Scripts/build-static.sh) and its floor as the lean issue set it: the no-Foundation
# hello-world with the Swift runtime linked in statically (plain `--static-swift-stdlib`, the default linker).
Scripts/build-static.sh >&2
swift build -c release --product netstatus-bench-hello-core --static-swift-stdlib -Xlinker -s \
  --scratch-path .build-static >&2
# The design floor (Benchmarks/Sources/netstatus-floor/main.c), with the C compiler of the toolchain that builds the
# rest (the system's cc may be absent).
"$(dirname "$(readlink -f "$(command -v swift)")")/clang" -std=gnu11 -O2 -Wall -Wextra -Werror \
  -o .build-release/netstatus-floor Benchmarks/Sources/netstatus-floor/main.c
NETSTATUS_BENCH_SWIFT="$(swift --version 2>/dev/null | grep -o 'Swift version [^ ]*' | head -n 1)" \
  exec .build-release/release/netstatus-bench --static .build-static/release --floor .build-release/netstatus-floor "$@"
