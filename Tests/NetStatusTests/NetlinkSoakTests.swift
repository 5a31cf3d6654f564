#if os(Linux)
  import Foundation
  import Testing

  @testable import NetStatus

  /// Thousands of start/stop cycles of a monitor on a real namespace: descriptors, threads and memory must
  /// come back to where they were, every time.
  @Suite(
    "soak: start/stop cycles on a real namespace",
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct NetlinkSoakTests {
    /// 10,000 cycles, or 1,000 under a sanitizer (TSan and ASan make each cycle several times slower), or
    /// `NETSTATUS_SOAK_CYCLES` when set.
    static var cycles: Int {
      if let value = ProcessInfo.processInfo.environment["NETSTATUS_SOAK_CYCLES"].flatMap(Int.init) { return value }
      return ProcessResources.underSanitizer ? 1_000 : 10_000
    }

    @Test("start/stop cycles leak no descriptor, thread or memory")
    func startStopCycles() throws {
      let lab = try VethLab("soak")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      let source = try NetlinkPathSource(networkNamespace: lab.watched.name)
      let monitor = NetworkMonitor(source: source)
      let cycles = Self.cycles
      let warmUp = max(cycles / 10, 50)

      func cycle() throws {
        try monitor.start()
        guard monitor.currentPath?.gateways == ["192.0.2.1"] else {
          throw SoakFailure(description: "wrong first path: \(String(describing: monitor.currentPath))")
        }
        monitor.stopMonitoring()
      }

      // Warm up: caches, the allocator's arenas, lazily made runtime threads.
      for _ in 0..<warmUp { try cycle() }
      let before = try ProcessResources.snapshot()
      let clock = ContinuousClock()
      let started = clock.now
      var samples: [Int] = []
      for index in 1...cycles {
        try cycle()
        if index % (cycles / 10) == 0 { samples.append(try ProcessResources.residentKilobytes()) }
      }
      let elapsed = clock.now - started
      let after = try ProcessResources.snapshot()
      let growth = after.residentKilobytes - before.residentKilobytes
      print(
        "soak: \(cycles) start/stop cycles in \(elapsed) (\(elapsed / cycles) each); RSS \(before.residentKilobytes) → "
          + "\(after.residentKilobytes) KiB (samples: \(samples)); threads \(before.threads) → \(after.threads); "
          + "descriptors \(before.descriptors) → \(after.descriptors)")

      #expect(source.statistics.sessionsStarted == cycles + warmUp)
      // Other suites run in parallel and open a few descriptors and threads of their own; a leak would add
      // one per cycle: thousands.
      for (kind, count) in after.descriptors {
        #expect(count <= (before.descriptors[kind] ?? 0) + 4, "\(kind): \(before.descriptors[kind] ?? 0) → \(count)")
      }
      #expect(after.threads <= before.threads + 4, "threads: \(before.threads) → \(after.threads)")
      // 10,000 cycles leaking even 512 bytes each would add 5 MB. Parallel suites' allocations add noise, so the
      // bound is on the growth over the measured cycles. Not under a sanitizer: AddressSanitizer keeps freed memory
      // in a quarantine (256 MB by default) and ThreadSanitizer maps shadow memory for every new address, so RSS
      // grows there without a leak (LeakSanitizer checks for leaks at exit in the ASan run instead).
      if !ProcessResources.underSanitizer {
        #expect(growth < 4 * 1024, "RSS grew by \(growth) KiB over \(cycles) cycles")
      }
    }
  }

  struct SoakFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// What this process holds, from /proc/self.
  enum ProcessResources {
    struct Snapshot {
      var residentKilobytes: Int
      var threads: Int
      /// Descriptors of the kinds a session opens (sockets, eventfd, inotify), by kind.
      var descriptors: [String: Int]
    }

    /// Whether a sanitizer runtime (TSan or ASan) is linked into this process.
    static let underSanitizer = linked("__tsan_init") || linked("__asan_init")

    /// Whether the process defines `symbol` (the sanitizers' runtimes are linked into the executable).
    private static func linked(_ symbol: String) -> Bool {
      let handle = dlopen(nil, RTLD_NOW)
      defer { if let handle { dlclose(handle) } }
      return dlsym(handle, symbol) != nil
    }

    static func snapshot() throws -> Snapshot {
      var kinds: [String: Int] = [:]
      for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry)
        else { continue }
        if target.hasPrefix("socket:") { kinds["socket", default: 0] += 1 }
        if target.contains("eventfd") || target.contains("inotify") { kinds[target, default: 0] += 1 }
      }
      return Snapshot(
        residentKilobytes: try residentKilobytes(),
        threads: try KernelTestSupport.sessionThreadCount(), descriptors: kinds)
    }

    /// VmRSS from /proc/self/status, in KiB.
    static func residentKilobytes() throws -> Int {
      let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
      for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        if let value = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) }
        ) {
          return value
        }
      }
      throw SoakFailure(description: "no VmRSS in /proc/self/status")
    }
  }
#endif
