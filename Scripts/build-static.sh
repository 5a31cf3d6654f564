#!/usr/bin/env bash
# Builds `netstatus` as one file that needs no Swift runtime: the Swift standard library, Dispatch and the rest of
# the runtime linked in statically (`--static-swift-stdlib`), symbols stripped at link time (`-Xlinker -s`).
# It needs only what every glibc Linux has: libc, libm, libstdc++ and libgcc_s (a bare Debian image has them all).
#
# Linked by the toolchain's lld, with the functions that run at start laid out together (Scripts/startup-order.txt,
# made by Scripts/generate-startup-order.sh), and with packed relative relocations (`-z pack-relative-relocs`,
# DT_RELR): the 27,000 R_X86_64_RELATIVE entries of a position-independent Swift binary take 5 KB instead of
# 630 KB, which the loader would otherwise read, page by page, at every start (about 640 KiB of RSS and a tenth of
# a millisecond). DT_RELR
# needs glibc 2.36 (Debian 12, Ubuntu 24.04, Fedora 37); for glibc 2.35 (Ubuntu 22.04) build with
# NETSTATUS_PACK_RELOCATIONS=0, which keeps the classic table.
#
#   Scripts/build-static.sh [DESTINATION]    (for example /usr/local/bin/netstatus)
#
# The binary is .build-static/release/netstatus; with DESTINATION it is also installed there (mode 0755).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

link=(-Xlinker -s)
if [ "${NETSTATUS_PACK_RELOCATIONS:-1}" != 0 ]; then
  # `-Xswiftc -use-ld=lld` does not reach SwiftPM's link step; a toolset's swiftCompiler options do.
  link+=(--toolset Scripts/static-toolset.json -Xlinker -z -Xlinker pack-relative-relocs)
  # The functions that run at start laid out together (Scripts/generate-startup-order.sh): the kernel maps code in
  # 64 KiB windows around each page fault, and fewer windows are touched (about 1.3 MB less RSS for a `watch`).
  # Identical code folding (`--icf=all`) would save 150 KB more, but lld cannot tell which functions' addresses
  # matter without address-significance tables, which Swift objects do not carry: not used.
  link+=(-Xlinker "--symbol-ordering-file=$PWD/Scripts/startup-order.txt" -Xlinker --no-warn-symbol-ordering)
fi
# The symbols of the modules under NetStatusCore are not exported (Scripts/static-exports.map).
link+=(-Xlinker "--version-script=$PWD/Scripts/static-exports.map")
swift build -c release --product netstatus --static-swift-stdlib "${link[@]}" --scratch-path .build-static
binary=".build-static/release/netstatus"

# It must not load a Swift runtime nor Foundation/ICU from anywhere.
if ldd "$binary" 2>/dev/null | grep -E 'libswift|Foundation|libicu|libdispatch|libBlocksRuntime'; then
  echo "build-static: $binary still loads the shared libraries above" >&2
  exit 1
fi

if [ $# -gt 0 ]; then
  install -m 0755 "$binary" "$1"
  echo "installed $1"
fi
echo "$binary: $(stat -c %s "$binary") bytes"
