#!/usr/bin/env bash
# Instructions per route change, counted by valgrind's callgrind: `netstatus watch --json` against
# `ip monitor route` and the design floor (netstatus-floor: epoll and one route lookup per batch,
# Benchmarks/Sources/netstatus-floor/main.c, compiled here). Unlike wall-clock latency, the count does not depend
# on what else the machine is doing, so it shows what a code change costs. Needs root (it makes the
# nsbench-instr-PID and nsbench-instr-PIDp network namespaces, deleted on exit), iproute2 and valgrind
# (apt-get install valgrind).
#
#   sudo Benchmarks/instructions.sh [--budget RATIO] [CHANGES]   # default 100 removals + 100 additions
#
# --budget RATIO fails (exit 1) when netstatus's count per change is above RATIO times `ip monitor route`'s: CI
# runs it with the budget Benchmarks/README.md states (1.5), so that no comment in the code has to guard the
# figure.
#
# NETSTATUS_INSTRUCTIONS_ONE_NAMESPACE=1 puts both ends of the veth in the watched namespace (see the set-up
# below). NETSTATUS_BINARY=PATH measures that netstatus instead of the release build (for example the static one,
# .build-static/release/netstatus); NETSTATUS_CALLGRIND_KEEP=DIR keeps the callgrind files there, for
# `callgrind_annotate --inclusive=yes DIR/netstatus-100.cg` (unstripped binaries give function names).
#
# Each observer runs twice under callgrind: with 0 and with CHANGES measured changes (after the same
# warm-up), and the difference in total instructions is divided by the changes. Start-up and exit cancel
# out; what is left is receiving, deciding and printing one change.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
command -v valgrind >/dev/null 2>&1 || { echo "instructions.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "instructions.sh: run as root (it makes a network namespace)" >&2; exit 2; }
budget=""
if [ "${1:-}" = --budget ]; then
  budget=${2:-}
  case "$budget" in
    '' | *[!0-9.]* | *.*.* | .*) echo "instructions.sh: --budget needs a ratio such as 1.5, not '$budget'" >&2; exit 2 ;;
  esac
  shift 2
fi
changes=${1:-200}
case "$changes" in
  '' | *[!0-9]*) echo "instructions.sh: CHANGES must be a whole number of at least 2, not '$changes'" >&2; exit 2 ;;
esac
[ "$changes" -ge 2 ] || { echo "instructions.sh: CHANGES must be at least 2" >&2; exit 2; }
pairs=$((changes / 2))
if [ -n "${NETSTATUS_BINARY:-}" ]; then
  netstatus=$NETSTATUS_BINARY
else
  swift build -c release --scratch-path .build-release --product netstatus >&2
  netstatus=.build-release/release/netstatus
fi

ns=nsbench-instr-$$
peer_ns=nsbench-instr-$$p
work=$(mktemp -d)
# Measured without its DWARF: valgrind 3.19 (Debian 12) gives up on the DWARF 5 of a Swift 6.3 release build
# ("Possibly corrupted debuginfo file"). The symbol table stays, so callgrind still names the functions.
"$(dirname "$(readlink -f "$(command -v swift)")")/llvm-objcopy" --strip-debug "$netstatus" "$work/netstatus"
netstatus=$work/netstatus
floor=$work/netstatus-floor
"$(dirname "$(readlink -f "$(command -v swift)")")/clang" -std=gnu11 -O2 -g -Wall -Wextra -Werror -o "$floor" \
  Benchmarks/Sources/netstatus-floor/main.c
observer=""
cleanup() {
  if [ -n "$observer" ]; then
    kill "$observer" 2>/dev/null || true
    wait "$observer" 2>/dev/null || true
  fi
  ip netns del "$ns" 2>/dev/null || true
  ip netns del "$peer_ns" 2>/dev/null || true
  if [ -n "${NETSTATUS_CALLGRIND_KEEP:-}" ]; then
    mkdir -p "$NETSTATUS_CALLGRIND_KEEP" && cp "$work"/*.cg "$NETSTATUS_CALLGRIND_KEEP"/ 2>/dev/null || true
  fi
  rm -rf "$work"
}
# Stops with MESSAGE, and what the observer wrote to standard error (valgrind's report among it).
fail() {
  echo "instructions.sh: $1" >&2
  [ -n "${name:-}" ] && [ -s "$work/$name.err" ] && sed 's/^/  | /' "$work/$name.err" >&2
  exit 1
}
trap cleanup EXIT
# The latency benchmark's set-up (BenchNamespace.vethPair in Benchmarks/Sources/netstatus-bench/BenchNamespace.swift):
# veth0 in the watched namespace, its peer veth1 in a second one, IPv6 duplicate address detection off. With both
# ends in the watched namespace (NETSTATUS_INSTRUCTIONS_ONE_NAMESPACE=1, the set-up before 2026-12-01), netstatus
# sees two usable links there and asks per-interface lookups that neither the floor nor the latency benchmark's
# namespace asks.
for namespace in "$ns" "$peer_ns"; do
  ip netns add "$namespace"
  ip -n "$namespace" link set lo up
  ip netns exec "$namespace" sysctl -q -w net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
done
if [ "${NETSTATUS_INSTRUCTIONS_ONE_NAMESPACE:-0}" = 1 ]; then
  ip -n "$ns" link add veth0 type veth peer name veth1
  ip -n "$ns" link set veth1 up
else
  ip -n "$ns" link add veth0 type veth peer name veth1 netns "$peer_ns"
  ip -n "$peer_ns" link set veth1 up
fi
ip -n "$ns" link set veth0 up
ip -n "$ns" addr add 192.0.2.10/24 dev veth0
ip -n "$ns" route add default via 192.0.2.1 dev veth0

# Waits (up to SECONDS_ALLOWED, default 60: valgrind is slow) until FILE has at least N lines; fails at once
# if the observer has ended.
await_lines() {
  local file=$1 count=$2 deadline=$((SECONDS + ${3:-60}))
  while [ "$(wc -l <"$file")" -lt "$count" ]; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    [ -z "$observer" ] || kill -0 "$observer" 2>/dev/null || return 1 # it ended: no more lines will come
    sleep 0.01
  done
}

# Sets `counted` to the instructions of one run of "$@" with MEASURED removal/addition pairs. (Not called
# in a subshell, so that the exit trap knows the observer's PID.)
# Every change must print exactly one line: the run waits for each line before the next change.
count() {
  local measured=$1 name=$2
  shift 2
  local out=$work/$name-$measured.out
  : >"$out"
  valgrind --tool=callgrind --callgrind-out-file="$work/$name-$measured.cg" "$@" >"$out" 2>"$work/$name.err" &
  observer=$!
  # netstatus and the floor print their first path once they listen; ip monitor prints nothing until a change.
  # Warm up with one removal and addition the observer reports, retried until it listens.
  if [ "$name" != ip ]; then await_lines "$out" 1 || fail "$name printed no first path"; fi
  local lines attempts=0
  while true; do
    kill -0 "$observer" 2>/dev/null || fail "$name ended during the warm-up"
    attempts=$((attempts + 1))
    [ "$attempts" -le 40 ] || fail "$name reported no change in 40 attempts"
    lines=$(wc -l <"$out")
    ip -n "$ns" route del default
    if await_lines "$out" $((lines + 1)) 2; then
      ip -n "$ns" route add default via 192.0.2.1 dev veth0
      await_lines "$out" $((lines + 2)) || fail "$name missed a change"
      break
    fi
    ip -n "$ns" route add default via 192.0.2.1 dev veth0
    sleep 0.5 # not listening yet: let a late line arrive before counting again
  done
  lines=$(wc -l <"$out")
  for _ in $(seq 1 "$measured"); do
    ip -n "$ns" route del default
    lines=$((lines + 1))
    await_lines "$out" "$lines" || fail "$name missed a change"
    ip -n "$ns" route add default via 192.0.2.1 dev veth0
    lines=$((lines + 1))
    await_lines "$out" "$lines" || fail "$name missed a change"
  done
  kill -TERM "$observer"
  wait "$observer" || true
  observer=""
  [ "$(wc -l <"$out")" -eq "$lines" ] || fail "$name printed extra lines"
  counted=$(grep '^summary:' "$work/$name-$measured.cg" | awk '{ print $2 }')
}

printf 'Instructions per route change (callgrind; %d changes after a warm-up; %s)\n' $((pairs * 2)) "$(uname -r)"
printf '  %-28s %14s %14s %12s\n' observer "0 changes" "$((pairs * 2)) changes" "per change"
declare -A per_change
for row in "ip monitor route|ip -n $ns monitor route" "design floor (C: epoll, lookup)|$floor --netns $ns" \
  "netstatus watch --json|$netstatus watch --json --netns $ns"; do
  label=${row%%|*}
  command=${row#*|}
  case "$label" in
    netstatus*) name=netstatus ;;
    design*) name=floor ;;
    *) name=ip ;;
  esac
  # shellcheck disable=SC2086 # the command is split on purpose
  count 0 "$name" $command
  base=$counted
  # shellcheck disable=SC2086
  count "$pairs" "$name" $command
  total=$counted
  per_change[$name]=$(((total - base) / (pairs * 2)))
  printf '  %-28s %14d %14d %12d\n' "$label" "$base" "$total" "${per_change[$name]}"
done
awk -v n="${per_change[netstatus]}" -v ip="${per_change[ip]}" -v floor="${per_change[floor]}" 'BEGIN {
  printf "  netstatus watch per change: %.2fx ip monitor route, %.2fx the design floor\n", n / ip, n / floor }'
if [ -n "$budget" ]; then
  if awk -v n="${per_change[netstatus]}" -v ip="${per_change[ip]}" -v b="$budget" 'BEGIN { exit !(n > b * ip) }'; then
    awk -v n="${per_change[netstatus]}" -v ip="${per_change[ip]}" -v b="$budget" 'BEGIN {
      printf "instructions.sh: over budget: netstatus watch costs %.2fx ip monitor route per change, the budget is %sx\n", n / ip, b }' >&2
    exit 1
  fi
  echo "  within the budget of ${budget}x ip monitor route"
fi
