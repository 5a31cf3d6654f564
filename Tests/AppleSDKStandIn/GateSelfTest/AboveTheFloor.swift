// Scripts/check-apple-build.sh compiles this file against each stand-in SDK and expects every line marked
// `expected-failure` to fail, naming the file and line: proof that the Apple build enforces the deployment floor
// (macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1) and isolation as a Mac does, and is not passing vacuously:
// one API above the floor from the standard library and from each of Network, SwiftUI and os, whose availability
// the stand-ins carry (Tests/AppleSDKStandIn/Availability.md).
import Network
import SwiftUI
import Synchronization
import os

let aboveTheFloor = Mutex(0)  // expected-failure: 'Mutex' is only available

func checkedAtRunTime() {
  if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
    let allowed = Atomic(0)
    _ = allowed.load(ordering: .relaxed)
  }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct AtTheFloor: View {
  var body: some View {
    ContentUnavailableView { Text("at the floor: allowed") }
  }
}

func offTheMainActor() -> some View {
  AtTheFloor().body  // expected-failure: main actor-isolated
}

func ultraConstrained(_ path: NWPath) -> Bool {
  path.isUltraConstrained  // expected-failure: 'isUltraConstrained' is only available
}

func linkQualityChecked(_ path: NWPath) -> Bool {
  if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
    return path.linkQuality == .good
  }
  return false
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct ScrollVisibility: View {
  var body: some View {
    Text("above the floor").onScrollVisibilityChange { _ in }  // expected-failure: is only available
  }
}

func spinFlags() {
  _ = OSAllocatedUnfairLockFlags.adaptiveSpin  // expected-failure: 'OSAllocatedUnfairLockFlags' is only available
}
