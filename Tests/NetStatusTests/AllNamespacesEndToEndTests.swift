#if os(Linux)
  import Foundation
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  /// `netstatus watch --all-netns`, run as a user would, while the tests create and delete namespaces. Other
  /// suites make namespaces of their own meanwhile: each check looks only at the lines of its own namespaces.
  @Suite(
    "netstatus watch --all-netns end to end", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct AllNamespacesEndToEndTests {
    typealias Site = NetstatusEndToEndTests.Site

    /// A `--json` line's fields (nil for anything else).
    static func fields(_ line: String) -> [String: Any]? {
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// The JSON lines about `namespace`, in order.
    static func lines(_ all: [String], about namespace: String) -> [[String: Any]] {
      all.compactMap(fields).filter { $0["netns"] as? String == namespace }
    }

    @Test func followsNamespacesAsTheyAppearChangeAndDisappear() async throws {
      let first = try Site("alla")
      defer { first.delete() }
      let run = try NetstatusProcess(["watch", "--all-netns", "--json"])
      defer { run.terminate() }
      let a = first.target.name
      try await run.lines.waitUntil(timeout: .seconds(10), "the first path of \(a)") {
        Self.lines($0, about: a).contains { $0["status"] as? String == "satisfied" }
      }

      // A namespace made while watching: reported once it is mounted, with its first path, then its changes.
      let second = try Site("allb", defaultRoute: false)
      let b = second.target.name
      var secondDeleted = false
      defer { if !secondDeleted { second.delete() } }
      try await run.lines.waitUntil(timeout: .seconds(10), "the first path of \(b), made while watching") {
        Self.lines($0, about: b).first?["status"] as? String == "unsatisfied"
      }
      try second.addDefaultRoute()
      try await run.lines.waitUntil(timeout: .seconds(10), "\(b) online") {
        Self.lines($0, about: b).last?["status"] as? String == "satisfied"
      }
      let path = try #require(Self.lines(run.lines.values, about: b).last)
      #expect(path["gateways"] as? [String] == ["198.51.100.1"])
      #expect(
        (path["availableInterfaces"] as? [[String: Any]])?.map { $0["name"] as? String } == ["v0"],
        "the documented keys are all there: \(path)")

      // Deleted: one line says so, and nothing about it follows.
      second.delete()
      secondDeleted = true
      try await run.lines.waitUntil(timeout: .seconds(10), "\(b) deleted") {
        Self.lines($0, about: b).contains { $0["deleted"] as? Bool == true }
      }

      // The first namespace is still watched.
      try first.deleteDefaultRoute()
      try await run.lines.waitUntil(timeout: .seconds(10), "\(a) offline") {
        Self.lines($0, about: a).last?["status"] as? String == "unsatisfied"
      }
      #expect(Self.lines(run.lines.values, about: b).last?["deleted"] as? Bool == true, "nothing after deleted")

      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0), "SIGTERM ends the watch cleanly: \(run.errorOutput)")
    }

    @Test func humanLinesNameTheirNamespaceAfterTheTime() async throws {
      let site = try Site("allh")
      defer { site.delete() }
      let run = try NetstatusProcess(["watch", "--all-netns"])
      defer { run.terminate() }
      let name = site.target.name
      let lines = try await run.lines.waitUntil(timeout: .seconds(10), "a line about \(name)") {
        $0.contains { $0.contains(" \(name): ") }
      }
      let line = try #require(lines.first { $0.contains(" \(name): ") })
      // 2026-11-30 19:00:00.123 NAME:  online   v0 (other)  IPv4 DNS  via 198.51.100.1
      #expect(
        line.range(of: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} "#, options: .regularExpression) != nil, "\(line)")
      #expect(line.range(of: "\(name): +online ", options: .regularExpression) != nil, "\(line)")
      run.signal(SIGINT)
      #expect(try await run.waitForExit() == .exited(0))
    }

    @Test(arguments: [
      ["watch", "--all-netns", "--netns", "x"], ["watch", "--all-netns", "--probe", "http://127.0.0.1:9/"],
      ["show", "--all-netns"], ["wait", "--all-netns"], ["watch", "--all-netns=yes"],
    ])
    func misusedIsAUsageError(arguments: [String]) async throws {
      let run = try NetstatusProcess(arguments)
      #expect(try await run.waitForExit() == .exited(2))
      #expect(run.lines.values.isEmpty, "errors go to stderr")
      #expect(run.errorOutput.split(separator: "\n").count == 1, "\(run.errorOutput)")
    }
  }
#endif
