#!/usr/bin/env bash
# The public API baseline: lists the public API of each library module with the toolchain's own
# swift-api-digester (`-dump-sdk`, then Scripts/api-listing.py: one declaration a line, sorted) and compares it with
# the committed listing in API/ (Linux) and API/macOS/ (the Apple build, which adds NetStatus's Combine publisher
# and NetStatusUI). Any difference fails, with the diff: a change to the public API is a reviewed decision, made
# by committing the new listing with the code.
#
#   Scripts/check-api.sh                  # check both: Linux, then macOS (Scripts/check-apple-build.sh macos builds it)
#   Scripts/check-api.sh --update         # the same, rewriting API/ and API/macOS/ instead of failing: commit them
#   Scripts/check-api.sh --linux [--scratch-path DIR]   # Linux only, from DIR (default .build; built here if needed)
#   Scripts/check-api.sh --macos          # macOS only, from .build-apple/macos as Scripts/check-apple-build.sh
#                                         # left it (that script runs this after compiling macOS)
#
# Linux lists NetStatusPathModel, NetStatusSystem (its one public type, Errno), the modules NetStatusCore is made of and
# re-exports (ARCHITECTURE.md, "Modules"), NetStatusCore, NetStatus and NetStatusTesting (NetStatusUI has no declaration
# there); macOS lists those, NetStatusAppleSource and NetStatusUI. The listing's format is described in
# Scripts/api-listing.py.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
tools=$(dirname "$(readlink -f "$(command -v swift)")")

update=0
linux=1
macos=1
scratch=.build
while [ $# -gt 0 ]; do
  case "$1" in
    --update) update=1 ;;
    --linux) macos=0 ;;
    --macos) linux=0 ;;
    --scratch-path) scratch=${2:?--scratch-path needs a folder}; shift ;;
    *) echo "check-api.sh: unknown option $1 (--update, --linux, --macos, --scratch-path DIR)" >&2; exit 2 ;;
  esac
  shift
done

# The modules NetStatusCore is made of, on every platform (NetStatusAppleSource, Apple only, is added there).
core_modules=(NetStatusPathSource NetStatusLinuxSource NetStatusNetworkManager NetStatusMonitor NetStatusConnectivity)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# Dumps MODULE… from a build's Modules folder (DEBUG: that build's debug folder) with the digester's extra
# ARGUMENTS, lists them into OUT, and compares OUT with BASELINE (or copies it there with --update).
check() {
  local name=$1 debug=$2 baseline=$3 out=$4
  shift 4
  local modules=() arguments=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do modules+=("$1"); shift; done
  shift
  arguments=("$@")
  mkdir -p "$out"
  local dumps=()
  for module in "${modules[@]}"; do
    # -abort-on-module-fail: a module that does not load must fail the check, not list as empty.
    "$tools/swift-api-digester" -dump-sdk -abort-on-module-fail -avoid-location -avoid-tool-args \
      -module "$module" -I "$debug/Modules" -Xcc -fmodule-map-file="$debug/CNetStatusShim.build/module.modulemap" \
      -I Sources/CNetStatusShim/include "${arguments[@]}" -o "$out/$module.json"
    dumps+=("$out/$module.json")
  done
  /usr/bin/python3 Scripts/api-listing.py --demangler "$tools/swift-demangle" --output-dir "$out" "${dumps[@]}"
  rm -f "${dumps[@]}"
  if [ "$update" = 1 ]; then
    mkdir -p "$baseline"
    rm -f "$baseline"/*.txt
    cp "$out"/*.txt "$baseline"/
    echo "check-api.sh: $name: wrote $baseline/ (review it, and commit it with the change)"
  elif ! diff -ru --exclude=macOS "$baseline" "$out" >"$work/$name.diff" 2>&1; then
    sed -e '/^diff -ru/d' -e "s|$out|($name, this build)|g" "$work/$name.diff" | sed -n '1,300p' >&2
    cat >&2 <<EOF
check-api.sh: the public API ($name) differs from the committed baseline in $baseline/ (diff above: - committed,
+ this build). If the change is meant, update the baseline and commit it with the change, so that the review sees it:
    Scripts/check-api.sh --update
EOF
    status=1
  else
    echo "check-api.sh: $name: the public API matches $baseline/"
  fi
}

if [ "$linux" = 1 ]; then
  # Incremental: nothing to do when the build (CI's `swift build --build-tests`) is up to date.
  swift build --scratch-path "$scratch" --target NetStatus >&2
  swift build --scratch-path "$scratch" --target NetStatusTesting >&2
  check linux "$scratch/debug" API "$work/linux" NetStatusPathModel NetStatusSystem "${core_modules[@]}" NetStatusCore \
    NetStatus NetStatusTesting -- \
    -target "$(uname -m)-unknown-linux-gnu"
fi

if [ "$macos" = 1 ]; then
  root=.build-apple
  if [ "$linux" = 1 ]; then
    # Both asked: compile macOS first (the apple build checks the API itself unless told not to: it is checked here,
    # with this run's --update).
    NETSTATUS_CHECK_API=0 Scripts/check-apple-build.sh macos >&2
  fi
  sdk=$root/sdk-macos
  debug=$root/macos/x86_64-apple-macosx/debug
  # The deployment floor the SDK was made for (Tests/AppleSDKStandIn/build-sdk.sh), as SwiftPM built it.
  version=$(sed -n 's/.*"Version": *"\([0-9.]*\)".*/\1/p' "$sdk/SDKSettings.json" 2>/dev/null | head -n 1)
  triple=x86_64-apple-macosx${version:-14.0}
  [ -d "$debug/Modules" ] || {
    echo "check-api.sh: $debug has no build: run Scripts/check-apple-build.sh macos first" >&2
    exit 1
  }
  check macOS "$debug" API/macOS "$work/macos" NetStatusPathModel NetStatusSystem "${core_modules[@]}" \
    NetStatusAppleSource NetStatusCore NetStatus NetStatusUI NetStatusTesting -- \
    -target "$triple" -sdk "$sdk" -module-cache-path "$sdk/ModuleCache"
fi
exit $status
