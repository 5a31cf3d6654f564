#!/usr/bin/env bash
# Compiles the Apple products and the command-line tool on Linux, module by module as SwiftPM builds them on a Mac,
# for each Apple platform: the real Package.swift and sources, SwiftPM itself, an Apple target triple at the
# package's deployment floor, and a stand-in SDK (Tests/AppleSDKStandIn/README.md). The compiler then enforces what
# only a Mac would otherwise show: access across modules, Apple-only branches (`canImport(Combine)`, `os(macOS)`,
# `targetEnvironment(macCatalyst)`), Swift 6 isolation against the SDK's declarations, and availability above the
# floor (macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1) outside `if #available`, each error naming file and line.
# It also compiles the library as CocoaPods does, one module (NetStatus.podspec), the documentation's code samples
# (Scripts/check-doc-samples.py) and the examples (Examples/SwiftUIApp, Examples/UIKitSample), and checks macOS's
# public API against its baseline (API/macOS/, Scripts/check-api.sh). Nothing is linked or run.
#
#   Scripts/check-apple-build.sh [PLATFORM …]     PLATFORM: macos ios tvos watchos visionos maccatalyst (default: all)
#
# Mac Catalyst is a platform of its own here: its branches (`targetEnvironment(macCatalyst)`) are compiled with both
# UIKit and AppKit in the SDK, AppKit's API unavailable to Catalyst, as on a Mac.
#
# Exits non-zero if any platform fails to compile or emits a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(macos ios tvos watchos visionos maccatalyst)
root="$PWD/.build-apple"
mkdir -p "$root"

# SwiftPM asks for Apple's librarian before it builds for an Apple triple; nothing here makes a static library, so
# one that says so, and fails, if it is ever called.
mkdir -p "$root/bin"
cat >"$root/bin/libtool" <<'SH'
#!/bin/sh
echo "check-apple-build.sh: libtool was called; the Apple stand-in build links nothing" >&2
exit 1
SH
chmod +x "$root/bin/libtool"

# The sources are compiled against Apple's frameworks, which have no test hooks: no source may import the
# stand-ins' (`@_spi(TestHooks)`).
if grep -rn '@_spi(TestHooks)' Sources; then
  echo "check-apple-build.sh: a source imports a stand-in's test hooks (above); Apple's frameworks have none" >&2
  exit 1
fi

# `#Preview` is expanded by a plugin that comes with Xcode, not with the Command Line Tools: a library that holds one
# does not build without Xcode. The previews live in Examples/SwiftUIApp (compiled below, with the stand-in plugin).
if grep -rn '#Preview' Sources --include='*.swift'; then
  echo "check-apple-build.sh: a library source holds a #Preview (above); previews go to Examples/SwiftUIApp" >&2
  exit 1
fi

# The gate's own test: Tests/AppleSDKStandIn/GateSelfTest/AboveTheFloor.swift must fail exactly on the lines marked
# `expected-failure`, with the text given there (an error, or a warning: either fails the build below).
self_test() {
  local sdk=$1 triple=$2 file=Tests/AppleSDKStandIn/GateSelfTest/AboveTheFloor.swift out
  out=$(swiftc -typecheck -parse-as-library -warnings-as-errors -swift-version 6 -target "$triple" -sdk "$sdk" -module-cache-path "$sdk/ModuleCache" \
    -Xfrontend -disable-objc-interop -plugin-path "$sdk/usr/lib/swift/host/plugins" "$file" 2>&1) && {
    echo "check-apple-build.sh: $file compiled; the floor and isolation checks are not in force" >&2
    return 1
  }
  local failed=0 line text
  while IFS=: read -r line text; do
    text=${text#*expected-failure: }
    grep -qF "$file:$line:" <<<"$(grep -F "$text" <<<"$out")" || {
      echo "check-apple-build.sh: $file:$line should fail with '$text'" >&2
      failed=1
    }
  done < <(grep -n 'expected-failure: ' "$file")
  local expected unexpected
  expected=$(grep -n 'expected-failure: ' "$file" | cut -d: -f1 | tr '\n' '|')
  unexpected=$(grep -E "^$file:[0-9]+:[0-9]+: (error|warning):" <<<"$out" | grep -vE "^$file:(${expected%|}):" || true)
  if [ -n "$unexpected" ]; then
    echo "check-apple-build.sh: $file fails where it should not:" >&2
    echo "$unexpected" >&2
    failed=1
  fi
  return $failed
}

status=0
for platform in "${platforms[@]}"; do
  printf '\n--- %s\n' "$platform"
  sdk="$root/sdk-$platform"
  triple=$(Tests/AppleSDKStandIn/build-sdk.sh "$platform" "$sdk")
  self_test "$sdk" "$triple" || { status=1; continue; }
  log="$root/$platform.log"
  : >"$log"
  # Every module the package declares on a Mac: the library products and every module they depend on (NetStatusUI
  # depends on NetStatus, NetStatusCore, NetStatusPathModel, NetStatusNetlink and NetStatusSystem; NetStatusTesting,
  # the test doubles, on NetStatusCore: the examples' previews and the docs' samples import it), and the command
  # line tool (netstatus, NetStatusCLI), compiled, not linked. (The test targets are not declared on Apple platforms
  # unless NETSTATUS_APPLE_TESTS is set: Package.swift says why.)
  compiled=1
  for target in NetStatusUI NetStatusTesting netstatus; do
    if ! NETSTATUS_APPLE_STAND_IN_SDK=1 PATH="$root/bin:$PATH" swift build --triple "$triple" --sdk "$sdk" \
      --scratch-path "$root/$platform" -Xswiftc -Xfrontend -Xswiftc -disable-objc-interop \
      --target "$target" 2>&1 | tee -a "$log"; then
      echo "check-apple-build.sh: $platform does not compile $target (above)" >&2
      compiled=0
      break
    fi
  done
  [ $compiled = 1 ] || { status=1; continue; }
  if grep -E "warning:" "$log"; then
    echo "check-apple-build.sh: $platform compiled with warnings (above)" >&2
    status=1
  fi
  # The documentation's code samples, Apple-only ones (SwiftUI, Combine) included, against this build's modules
  # (Scripts/check-doc-samples.py; CONTRIBUTING.md, "Code samples in the docs").
  bin=$(NETSTATUS_APPLE_STAND_IN_SDK=1 PATH="$root/bin:$PATH" swift build --triple "$triple" --sdk "$sdk" \
    --scratch-path "$root/$platform" --show-bin-path)
  # Compiled for the target the modules were built for, which is not always "$triple": for visionOS, SwiftPM 6.3 on
  # Linux writes x86_64-apple-xros1.014.0-simulator (visionOS 1.14) into its compile commands, and a client built
  # for another deployment target may not import the modules.
  built=$(grep -o '"-target","[^"]*"' "$root/$platform/debug.yaml" | head -1 | cut -d'"' -f4 || true)
  Scripts/check-doc-samples.py --apple "$sdk" "${built:-$triple}" "$bin" || status=1
  # The examples (Examples/README.md), as an app target that depends on the library compiles them: the SwiftUI app
  # and the library's previews where SwiftUI has all they use (`.badge` is not on tvOS or watchOS), the UIKit sample
  # for iOS, the platform its README makes it for.
  example_flags=(-typecheck -parse-as-library -swift-version 6 -warnings-as-errors -target "${built:-$triple}"
    -sdk "$sdk" -module-cache-path "$sdk/ModuleCache" -I "$bin/Modules" -Xfrontend -disable-objc-interop
    -plugin-path "$sdk/usr/lib/swift/host/plugins")
  case $platform in
    macos | ios | visionos | maccatalyst)
      swiftc "${example_flags[@]}" -module-name NetStatusDemo Examples/SwiftUIApp/*.swift || {
        echo "check-apple-build.sh: $platform: Examples/SwiftUIApp does not compile (above)" >&2
        status=1
      }
      ;;
  esac
  if [ "$platform" = ios ]; then
    swiftc "${example_flags[@]}" -module-name UIKitSample Examples/UIKitSample/*.swift || {
      echo "check-apple-build.sh: $platform: Examples/UIKitSample does not compile (above)" >&2
      status=1
    }
  fi
  # The public API as a Mac's client sees it (API/macOS/: NetStatus's Combine publisher and NetStatusUI too) must
  # match the committed baseline (Scripts/check-api.sh; NETSTATUS_CHECK_API=0 skips it, as that script does when it
  # runs this one itself).
  if [ "$platform" = macos ] && [ "${NETSTATUS_CHECK_API:-1}" != 0 ] && ! Scripts/check-api.sh --macos; then
    status=1
  fi
  # CocoaPods compiles the library's sources into one module, NetStatus (NetStatus.podspec): the same sources, the
  # files its source_files name, as one module with the package name it sets.
  shopt -s globstar nullglob
  pod_sources=()
  for pattern in $(sed -n "/s.source_files/,/]/p" NetStatus.podspec | grep -o "'[^']*'" | tr -d "'"); do
    pod_sources+=($pattern)
  done
  shopt -u globstar nullglob
  if ! swiftc -c -wmo -parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny \
    -module-name NetStatus -package-name NetStatus -target "$triple" -sdk "$sdk" \
    -module-cache-path "$sdk/ModuleCache" -Xfrontend -disable-objc-interop -warnings-as-errors \
    -o "$root/cocoapods-$platform.o" "${pod_sources[@]}" 2>&1 | tee "$root/$platform-cocoapods.log"; then
    echo "check-apple-build.sh: $platform does not compile as CocoaPods builds it, one module (above)" >&2
    status=1
  fi
done
exit $status
