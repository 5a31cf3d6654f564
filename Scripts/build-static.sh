#!/usr/bin/env bash
# Builds `netstatus` as one file that needs no Swift runtime: the Swift standard library, Dispatch and the rest of
# the runtime linked in statically (`--static-swift-stdlib`), symbols stripped at link time (`-Xlinker -s`).
# It needs only what every glibc Linux has: libc, libm, libstdc++ and libgcc_s (a bare Debian image has them all).
#
#   Scripts/build-static.sh [DESTINATION]    (for example /usr/local/bin/netstatus)
#
# The binary is .build-static/release/netstatus; with DESTINATION it is also installed there (mode 0755).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

swift build -c release --product netstatus --static-swift-stdlib -Xlinker -s --scratch-path .build-static
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
