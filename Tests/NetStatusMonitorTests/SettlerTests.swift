import NetStatusTestSupport
import Testing

@testable import NetStatusMonitor

/// The pure rule of settled observation (Sources/NetStatusMonitor/Settling/Settler.swift), with made-up instants.
@Suite("Settler")
struct SettlerTests {
  typealias Instant = TestClock.Instant
  typealias PathSettler = Settler<NetworkPath, Instant>

  static func at(_ seconds: Double) -> Instant { Instant(offset: .milliseconds(Int(seconds * 1000))) }
  static let wifi = NetworkPath.test(.wifi)
  static let cellular = NetworkPath.test(.cellular, index: 3)
  static let wired = NetworkPath.test(.wiredEthernet, index: 4)

  /// A settler that has published Wi-Fi; offline holds 3 s, online 1 s.
  static func online() -> PathSettler {
    var settler = PathSettler(upHold: .seconds(1), downHold: .seconds(3))
    #expect(settler.receive(wifi, at: at(0)).publish == wifi)
    return settler
  }

  @Test("the first value is published at once, with no timer")
  func firstAtOnce() {
    var settler = PathSettler(upHold: .seconds(5), downHold: .seconds(5))
    let output = settler.receive(.offline, at: Self.at(0))
    #expect(output.publish == .offline)
    #expect(output.timer == .unchanged)
    #expect(settler.deadline == nil)
  }

  @Test("going offline is published once it has held for the offline hold, not before")
  func offlineAfterHold() {
    var settler = Self.online()
    let output = settler.receive(.offline, at: Self.at(10))
    #expect(output.publish == nil)
    #expect(output.timer == .start(Self.at(13)))
    #expect(settler.timerFired(at: Self.at(12.9)).publish == nil)  // early: nothing
    #expect(settler.timerFired(at: Self.at(13)).publish == .offline)
    #expect(settler.published == .offline)
    #expect(settler.deadline == nil)
  }

  @Test("a blip shorter than the hold is dropped: the timer is cancelled and a late firing publishes nothing")
  func blipDropped() {
    var settler = Self.online()
    _ = settler.receive(.offline, at: Self.at(10))
    let back = settler.receive(Self.wifi, at: Self.at(12))
    #expect(back.publish == nil)
    #expect(back.timer == .cancel)
    #expect(settler.timerFired(at: Self.at(13)).publish == nil)
    #expect(settler.published == Self.wifi)
  }

  @Test("coming online uses the online hold; the hold counts from the first value on the new side")
  func onlineHoldFromFirstValue() {
    var settler = PathSettler(upHold: .seconds(1), downHold: .seconds(3), published: .offline)
    #expect(settler.receive(Self.wifi, at: Self.at(0)).timer == .start(Self.at(1)))
    // Another satisfied path before the hold ends: same side, the deadline stays; the latest path is published.
    let other = settler.receive(Self.cellular, at: Self.at(0.5))
    #expect(other.timer == .unchanged)
    #expect(settler.timerFired(at: Self.at(1)).publish == Self.cellular)
  }

  @Test("twenty flaps inside the offline hold publish nothing")
  func flapsPublishNothing() {
    var settler = Self.online()
    var published: [NetworkPath] = []
    for flap in 0..<20 {
      let start = 10 + Double(flap) * 0.05
      published += [settler.receive(.offline, at: Self.at(start)).publish].compactMap { $0 }
      published += [settler.receive(Self.wifi, at: Self.at(start + 0.025)).publish].compactMap { $0 }
    }
    #expect(published.isEmpty)
    #expect(settler.deadline == nil)
  }

  @Test("a change on the same side holds for that side's hold, restarted by each different value")
  func sameSideChangeRestarts() {
    var settler = Self.online()
    #expect(settler.receive(Self.cellular, at: Self.at(10)).timer == .start(Self.at(11)))
    #expect(settler.receive(Self.cellular, at: Self.at(10.5)).timer == .unchanged)  // the same: keeps its deadline
    #expect(settler.receive(Self.wired, at: Self.at(10.8)).timer == .start(Self.at(11.8)))
    #expect(settler.timerFired(at: Self.at(11)).publish == nil)
    #expect(settler.timerFired(at: Self.at(11.8)).publish == Self.wired)
  }

  @Test("a handover back to the published path before the hold publishes nothing")
  func handoverBack() {
    var settler = Self.online()
    _ = settler.receive(Self.cellular, at: Self.at(10))
    #expect(settler.receive(Self.wifi, at: Self.at(10.5)).timer == .cancel)
    #expect(settler.timerFired(at: Self.at(11)).publish == nil)
  }

  @Test("offline, then back on another interface: the online hold starts again from the new path")
  func backOnAnotherInterface() {
    var settler = Self.online()
    _ = settler.receive(.offline, at: Self.at(10))
    #expect(settler.receive(Self.cellular, at: Self.at(11)).timer == .start(Self.at(12)))
    #expect(settler.timerFired(at: Self.at(12)).publish == Self.cellular)
  }

  @Test("a hold of zero publishes at once and cancels what was pending")
  func zeroHold() {
    var settler = PathSettler(upHold: .zero, downHold: .seconds(3))
    _ = settler.receive(Self.wifi, at: Self.at(0))
    _ = settler.receive(.offline, at: Self.at(1))
    let back = settler.receive(Self.cellular, at: Self.at(2))
    #expect(back.publish == Self.cellular)
    #expect(back.timer == .cancel)
  }

  @Test("reset forgets the published value: the next one is published at once")
  func resetForgets() {
    var settler = Self.online()
    _ = settler.receive(.offline, at: Self.at(10))
    #expect(settler.reset().timer == .cancel)
    #expect(settler.receive(.offline, at: Self.at(11)).publish == .offline)
  }

  @Test("a Bool seeded false (wait --stable): true is published once held, false at once with a zero hold")
  func conditionStable() {
    var settler = Settler<Bool, Instant>(upHold: .seconds(5), downHold: .zero, published: false)
    #expect(settler.receive(true, at: Self.at(0)).timer == .start(Self.at(5)))
    #expect(settler.receive(false, at: Self.at(4)).timer == .cancel)
    #expect(settler.receive(true, at: Self.at(4.5)).timer == .start(Self.at(9.5)))
    #expect(settler.timerFired(at: Self.at(9.5)).publish == true)
  }
}
