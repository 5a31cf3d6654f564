import NetStatus
import NetStatusTesting
import ReachabilityFeature
import Testing

/// The view-model against a scripted source: the network is changed from the test, and no real one is touched.
// A wait that never ends fails the test after a minute instead of holding the run.
@Suite("ReachabilityViewModel", .timeLimit(.minutes(1)))
@MainActor
struct ReachabilityViewModelTests {
  @Test("the check reads the injected provider")
  func checkReadsTheProvider() throws {
    let script = ScriptedPathSource(.offline)
    let monitor = NetworkMonitor(source: script)
    try monitor.start()
    defer { monitor.stop() }
    let model = ReachabilityViewModel(network: monitor)
    model.check()
    #expect(model.screen == "No Internet Connection")
    script.send(.connected(via: .wifi))
    model.check()
    #expect(model.screen == "Hello, world!")
  }

  @Test("following shows every change, without a tap")
  func followingShowsEveryChange() async throws {
    let script = ScriptedPathSource([.connected(via: .wifi), .offline, .connected(via: .cellular)])
    let monitor = NetworkMonitor(source: script)
    let model = ReachabilityViewModel(network: monitor)
    var screens: [String] = []
    let (shown, shownContinuation) = AsyncStream.makeStream(of: Int.self)
    model.onChange = { screen in
      screens.append(screen)
      shownContinuation.yield(screens.count)
    }
    let following = Task { await model.follow() }
    defer { following.cancel() }
    var counts = shown.makeAsyncIterator()
    #expect(await counts.next() == 1)
    script.advance()
    #expect(await counts.next() == 2)
    script.advance()
    #expect(await counts.next() == 3)
    #expect(screens == ["Hello, world!", "No Internet Connection", "Hello, world!"])
  }
}
