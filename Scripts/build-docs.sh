#!/usr/bin/env bash
# Builds the NetStatus DocC archive, failing on any documentation warning.
#
#   Scripts/build-docs.sh [OUTPUT_DIR]     (default: .build/docs/NetStatus.doccarchive)
#
# 1. Compiles the NetStatus target with symbol graphs (public symbols, as users see them: NetStatus re-exports
#    NetStatusCore, and its graph holds NetStatusCore's symbols too, so the archive documents one module, NetStatus).
# 2. Runs `docc convert` on Sources/NetStatus/NetStatus.docc with those symbol graphs, warnings as errors.
# Built on Linux, so the Linux-only symbols are documented and the Apple-only ones (NWPathMonitorSource,
# the Combine publisher, NetStatusUI) are not part of this archive.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

output="${1:-.build/docs/NetStatus.doccarchive}"
symbols=".build/docs/symbol-graphs"
rm -rf "$symbols" "$output"
mkdir -p "$symbols" "$(dirname "$output")"

# A scratch path of its own, with NetStatus's objects removed, so that the target is always compiled (symbol
# graphs are only written by the compiler) and the normal build is left alone.
scratch=".build/docs-build"
rm -rf "$scratch"/*/debug/NetStatus.build "$scratch"/debug/NetStatus.build
swift build --target NetStatus --scratch-path "$scratch" \
  -Xswiftc -emit-symbol-graph \
  -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbols" \
  -Xswiftc -emit-extension-block-symbols

# Only NetStatus's own graphs (NetStatusCore's are left out: its symbols are in NetStatus's) (NetStatus.symbols.json and NetStatus@<ExtendedModule>.symbols.json).
find "$symbols" -name '*.symbols.json' ! -name 'NetStatus.symbols.json' ! -name 'NetStatus@*.symbols.json' -delete

docc_bin="$(command -v docc || xcrun --find docc)"
"$docc_bin" convert Sources/NetStatus/NetStatus.docc \
  --additional-symbol-graph-dir "$symbols" \
  --fallback-display-name NetStatus \
  --fallback-bundle-identifier org.netstatus.NetStatus \
  --output-path "$output" \
  --warnings-as-errors

echo "Documentation: $output"
