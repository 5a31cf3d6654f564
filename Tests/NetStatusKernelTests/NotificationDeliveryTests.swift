#if os(Linux)
  import Testing

  /// `.connectivityStatus` as apps observe it, in a program of its own whose main thread runs the main queue:
  /// `netstatus-test-child notifications` (Tests/NetStatusTestChild/NotificationDelivery.swift). Posting from a
  /// block of the main dispatch queue waited for ever on observers with `queue: .main` under `dispatchMain()` and an
  /// `async` main; every combination must see every path, in order, with the main queue still running after.
  @Suite("NotificationCenter delivery on every kind of main")
  struct NotificationDeliveryTests {
    @Test(
      "each observer queue gets every change, in order, and the main queue keeps running",
      arguments: ["dispatchMain", "runloop", "async"], ["main", "nil", "own"])
    func everyChangeIsPosted(main: String, queue: String) async throws {
      let run = try await TestChild.run(["notifications", "--main", main, "--queue", queue])
      #expect(run.exit == .exited(0), "\(run.lines) \(run.errors)")
      #expect(run.lines.last == "ok notified=5 handled=5", "\(run.lines)")
      #expect(run.errors.isEmpty, "nothing on standard error (a sanitizer's report): \(run.errors)")
    }

    @Test(
      "an observer stuck on a queue of its own holds neither the source nor the other subscribers",
      arguments: ["dispatchMain", "async"])
    func aStuckObserverHoldsNoOtherDelivery(main: String) async throws {
      let run = try await TestChild.run(["notifications", "--main", main, "--queue", "main", "--stuck-observer"])
      #expect(run.exit == .exited(0), "\(run.lines) \(run.errors)")
      #expect(run.lines.last == "ok notified=5 handled=5", "\(run.lines)")
      #expect(run.errors.isEmpty, "nothing on standard error (a sanitizer's report): \(run.errors)")
    }
  }
#endif
