#!/usr/bin/env bash
# Builds a stand-in Apple SDK for one platform (Tests/AppleSDKStandIn/README.md): the toolchain's own standard
# library interfaces, rebuilt for the Apple target, plus the stand-in frameworks in Modules/, each a resilient module
# (library evolution, a .swiftinterface) with the SDK's signatures and availability.
#
#   Tests/AppleSDKStandIn/build-sdk.sh PLATFORM SDK_DIR      PLATFORM: macos, ios, tvos, watchos, visionos, maccatalyst
#
# Prints the target triple. The SDK can then be handed to the compiler (`-sdk SDK_DIR -target TRIPLE`) or to
# SwiftPM (`--sdk SDK_DIR --triple TRIPLE`), which then compiles for that platform with its availability enforced.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
platform=${1:?usage: build-sdk.sh PLATFORM SDK_DIR}
sdk=${2:?usage: build-sdk.sh PLATFORM SDK_DIR}

# The deployment floor (Package.swift's `platforms`) and the triple each platform is compiled for. x86_64 throughout:
# the toolchain's interfaces are x86_64's (Float80, for one, exists only there), and the simulators' triples
# keep every platform on that architecture.
case $platform in
  macos) triple=x86_64-apple-macosx14.0 module_triple=x86_64-apple-macos name=macosx version=14.0 ;;
  ios) triple=x86_64-apple-ios17.0-simulator module_triple=x86_64-apple-ios-simulator name=iphonesimulator version=17.0 ;;
  tvos) triple=x86_64-apple-tvos17.0-simulator module_triple=x86_64-apple-tvos-simulator name=appletvsimulator version=17.0 ;;
  watchos)
    triple=x86_64-apple-watchos10.0-simulator module_triple=x86_64-apple-watchos-simulator name=watchsimulator
    version=10.0
    ;;
  visionos) triple=x86_64-apple-xros1.0-simulator module_triple=x86_64-apple-xros-simulator name=xrsimulator version=1.0 ;;
  # Mac Catalyst: an iOS app built for the Mac, against the macOS SDK (version 14.0, which the version map below
  # makes iOS 17.0), where both UIKit and AppKit exist.
  maccatalyst) triple=x86_64-apple-ios17.0-macabi module_triple=x86_64-apple-ios-macabi name=macosx version=14.0 ;;
  *) echo "build-sdk.sh: unknown platform '$platform' (macos, ios, tvos, watchos, visionos, maccatalyst)" >&2; exit 2 ;;
esac

swift_bin=$(dirname "$(command -v swiftc)")
toolchain_lib=$(cd "$swift_bin/../lib/swift/linux" && pwd)
lib="$sdk/usr/lib/swift"
rm -rf "$sdk"
mkdir -p "$lib" "$sdk/usr/include"
# What the compiler reads of an SDK's settings: its name and version, and the version maps: Mac Catalyst's, and
# visionOS's to iOS (visionOS 1 is iOS 17), through which iOS availability applies to visionOS.
cat >"$sdk/SDKSettings.json" <<JSON
{"CanonicalName": "$name$version", "DisplayName": "NetStatus stand-in ($platform $version)", "Version": "$version",
 "MaximumDeploymentTarget": "$version.99", "DefaultProperties": {"PLATFORM_NAME": "$name"},
 "VersionMap": {"macOS_iOSMac": {"14.0": "17.0"}, "iOSMac_macOS": {"17.0": "14.0"},
   "iOS_xrOS": {"17.0": "1.0", "18.0": "2.0"}, "xrOS_iOS": {"1.0": "17.0", "2.0": "18.0"}}}
JSON

# 1. The standard library, from the toolchain's textual interfaces, retargeted. Its availability annotations are
# Apple's (Mutex: macOS 15, iOS 18; Observation: macOS 14, iOS 17), so code compiled against it is checked against
# the real floor. Four edits make the Linux interfaces build for an Apple target, none of them in a declaration's
# signature or availability:
#  - the target, and no availability checking inside the library itself (it was never checked on Linux);
#  - `@backDeployed` goes (on Linux those functions are printed without the bodies it requires);
#  - `import Glibc` goes (Synchronization and Observation use it only in bodies of their own);
#  - Synchronization's Linux futex owner id (`_swift_stdlib_gettid()`, declared for Linux only) becomes 0.
for module in Swift _Concurrency _StringProcessing _RegexParser SwiftOnoneSupport Synchronization Observation; do
  mkdir -p "$lib/$module.swiftmodule"
  sed -E \
    -e "3s/-target x86_64-unknown-linux-gnu /-target $module_triple -disable-availability-checking /" \
    -e 's/^([[:space:]]*)@backDeployed\(before:[^)]*\)[[:space:]]*$/\1/' \
    -e '/^import Glibc$/d' \
    -e 's/_swift_stdlib_gettid\(\)/UInt32(0)/g' \
    "$toolchain_lib/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" \
    >"$lib/$module.swiftmodule/$module_triple.swiftinterface"
done

# 2. `#Preview`'s expansion: a compiler plugin built against the toolchain's own swift-syntax, where an SDK's
# plugins are found (usr/lib/swift/host/plugins), as the real one is found in Xcode's.
host=$(cd "$swift_bin/../lib/swift/host" && pwd)
mkdir -p "$lib/host/plugins"
swiftc -emit-library -parse-as-library -module-name PreviewsMacros -I "$host" -L "$host" -lSwiftSyntax \
  -lSwiftSyntaxMacros -lSwiftSyntaxBuilder -lSwiftDiagnostics -lSwiftBasicFormat -lSwiftParser \
  -Xlinker -rpath -Xlinker "$host" -module-cache-path "$sdk/ModuleCache" \
  "$here/PreviewsMacros/PreviewsMacros.swift" -o "$lib/host/plugins/libPreviewsMacros.so"

# 3. The stand-in frameworks, in dependency order, each compiled as Apple compiles its own: a resilient module whose
# textual interface is what clients import.
cache="$sdk/ModuleCache"
compile() {
  local module=$1 dir=$2
  shift 2
  mkdir -p "$lib/$module.swiftmodule"
  swiftc -target "$triple" -sdk "$sdk" -module-cache-path "$cache" -swift-version 6 -parse-as-library -Xfrontend -disable-objc-interop \
    -plugin-path "$lib/host/plugins" \
    -enable-library-evolution -module-name "$module" -emit-module \
    -emit-module-path "$lib/$module.swiftmodule/$module_triple.swiftmodule" \
    -emit-module-interface-path "$lib/$module.swiftmodule/$module_triple.swiftinterface" \
    "$@" $(ls "$dir"/*.swift | grep -v '/Package.swift$')
}
# Darwin is a C module under a Swift overlay of the same name, as in Apple's SDK; the C half is found in usr/include.
cp "$here/Modules/Darwin/include/"* "$sdk/usr/include/"
compile Darwin "$here/Modules/Darwin"
compile Dispatch "$here/Modules/Dispatch"
compile os "$here/Modules/os"
compile Foundation "$here/Modules/Foundation"
compile Combine "$here/Modules/Combine"
compile Network "$here/../NetworkStandIn"
# AppKit on macOS; UIKit everywhere else (watchOS's UIKit lacks UIApplication: the stand-in marks it unavailable there);
# both for Mac Catalyst, as in the macOS SDK, where AppKit's API is unavailable to Catalyst (so a branch that should
# exclude Catalyst and does not fails to compile).
case $platform in
  macos) compile AppKit "$here/Modules/AppKit" ;;
  maccatalyst)
    compile UIKit "$here/Modules/UIKit"
    compile AppKit "$here/Modules/AppKit"
    ;;
  *) compile UIKit "$here/Modules/UIKit" ;;
esac
compile DeveloperToolsSupport "$here/Modules/DeveloperToolsSupport"
compile SwiftUI "$here/Modules/SwiftUI"
echo "$triple"
