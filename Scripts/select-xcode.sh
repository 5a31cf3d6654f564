#!/bin/sh
# Picks the Xcode a job of .github/workflows/apple.yml builds with, and prints `DEVELOPER_DIR=...` for $GITHUB_ENV.
#
#   Scripts/select-xcode.sh oldest   the oldest installed Xcode from $OLDEST_XCODE on: the floor the README names
#   Scripts/select-xcode.sh newest   the newest installed Xcode
#
# The runner image's Xcodes change (26.0 became 26.0.1, then gave way to 26.2), so none is named by path. The oldest
# must have the Swift that Package.swift declares (swift-tools-version): when the image no longer has such an Xcode,
# the job fails saying so rather than passing on a newer toolchain, which would leave the floor unchecked.
set -eu
which=${1:?oldest or newest}
floor=${OLDEST_XCODE:?OLDEST_XCODE, the first Xcode with the declared Swift}
# Where the runner image installs its Xcodes (another folder for a test of this script).
applications=${XCODE_APPLICATIONS:-/Applications}
found=$(ls -d "$applications"/Xcode_*.app 2>/dev/null | sed -n 's|^.*/Xcode_\([0-9][0-9.]*\)\.app$|\1|p' \
  | sort -t. -k1,1n -k2,2n -k3,3n)
[ -n "$found" ] || { echo "select-xcode: no $applications/Xcode_X.Y.app on this runner" >&2; exit 1; }
if [ "$which" = oldest ]; then
  version=$(printf '%s\n' "$found" | awk -v floor="$floor" '
    { split($0, v, "."); split(floor, f, ".")
      if (v[1] + 0 > f[1] + 0 || (v[1] + 0 == f[1] + 0 && v[2] + 0 >= f[2] + 0)) { print; exit } }')
else
  version=$(printf '%s\n' "$found" | tail -n 1)
fi
[ -n "$version" ] || { echo "select-xcode: no Xcode $floor or later among: $(echo $found)" >&2; exit 1; }
developer=$applications/Xcode_$version.app/Contents/Developer
tools=$(sed -n '1s|^// *swift-tools-version: *\([0-9]*\.[0-9]*\).*|\1|p' Package.swift)
swift=$(DEVELOPER_DIR=$developer xcrun swift --version 2>&1 | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)
echo "select-xcode: $which: Xcode $version, Swift $swift (the package declares $tools)" >&2
if [ "$which" = oldest ] && [ "$swift" != "$tools" ]; then
  echo "select-xcode: the oldest Xcode here has Swift $swift, not the declared $tools: the floor cannot be checked" >&2
  exit 1
fi
echo "DEVELOPER_DIR=$developer"
