#!/usr/bin/env bash
# Regenerates Scripts/startup-order.txt: the functions `netstatus` runs from its start to its first line, in the order
# valgrind's callgrind first meets them. Scripts/build-static.sh hands the file to the linker
# (`--symbol-ordering-file`), which lays those functions out next to each other: the kernel then maps a few 64 KiB
# windows of code at start instead of one for nearly every function, which is most of a `watch`'s memory and a part
# of its start-up (Benchmarks/README.md, "Footprint"). A function missing from the file only costs a page fault;
# re-run this after changes to what runs at start. Needs root (it makes an nsbench-order-PID network namespace,
# deleted on exit) and valgrind.
#
#   sudo Scripts/generate-startup-order.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
command -v valgrind >/dev/null 2>&1 || { echo "generate-startup-order.sh: valgrind is missing" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "generate-startup-order.sh: run as root (it makes a network namespace)" >&2; exit 2; }

# The same build as Scripts/build-static.sh, unstripped (the names are what callgrind reports) and unordered.
scratch=.build-order
swift build -c release --product netstatus --static-swift-stdlib --toolset Scripts/static-toolset.json \
  -Xlinker -z -Xlinker pack-relative-relocs --scratch-path "$scratch" >&2
# Without its DWARF (the symbol table, which gives callgrind the names, stays): valgrind 3.19's reader gives up on
# the toolchain's debug info ("Possibly corrupted debuginfo file").
binary="$scratch/release/netstatus-symbols"
strip --strip-debug -o "$binary" "$scratch/release/netstatus"

ns=nsbench-order-$$
work=$(mktemp -d)
child=""
cleanup() {
  if [ -n "$child" ]; then kill "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; fi
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$ns"
ip -n "$ns" link set lo up

# Runs netstatus with ARGS under callgrind until its first line, then stops it.
record() {
  local name=$1
  shift
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.cg" "$binary" "$@" \
    >"$work/$name.out" 2>"$work/$name.err" &
  child=$!
  local deadline=$((SECONDS + 120))
  while [ ! -s "$work/$name.out" ]; do
    kill -0 "$child" 2>/dev/null || break
    [ "$SECONDS" -lt "$deadline" ] || { echo "generate-startup-order.sh: no line from $*" >&2; exit 1; }
    sleep 0.1
  done
  kill -INT "$child" 2>/dev/null || true
  wait "$child" 2>/dev/null || true
  child=""
  [ -s "$work/$name.cg" ] || { echo "generate-startup-order.sh: callgrind wrote nothing for $*" >&2; exit 1; }
}
record watch-netns watch --json --netns "$ns"
record watch watch --json
record show show --netns "$ns"

# Function names in the order first met, each once; addresses (functions without a symbol) left out.
python3 - "$work"/watch-netns.cg "$work"/watch.cg "$work"/show.cg >Scripts/startup-order.txt <<'PY'
import re, sys
seen = set()
for path in sys.argv[1:]:
    for line in open(path, errors="replace"):
        match = re.match(r"^c?fn=\(\d+\) (.+)$", line.strip())
        if not match:
            continue
        name = match.group(1).strip()
        if name.startswith("0x") or name in seen:
            continue
        seen.add(name)
        print(name)
PY
echo "Scripts/startup-order.txt: $(wc -l <Scripts/startup-order.txt) functions" >&2
