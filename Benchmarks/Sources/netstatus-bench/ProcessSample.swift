import Foundation
import Glibc

/// What a process (or this one) has used so far, read from /proc: CPU time, context switches per thread,
/// memory.
struct ProcessSample: Sendable {
  /// One thread's counters.
  struct ThreadCounters: Sendable {
    /// The thread's name (`comm`).
    var name: String
    /// CPU time on the scheduler's clock, in nanoseconds (`schedstat`).
    var runNanoseconds: Int64
    /// Voluntary context switches: the thread blocked (each one follows a wake-up).
    var voluntarySwitches: Int
    /// Involuntary context switches: the thread was preempted.
    var involuntarySwitches: Int
  }

  /// utime + stime of the whole process (exited threads included), in clock ticks.
  var cpuTicks: Int
  /// Live threads by thread ID.
  var threads: [Int32: ThreadCounters]
  /// VmHWM: peak resident set size, in KiB.
  var peakResidentKilobytes: Int
  /// VmRSS: resident set size now, in KiB.
  var residentKilobytes: Int
  /// RssAnon: the private, anonymous part of it (heap, stacks), in KiB; the rest is mapped files (code).
  var anonymousKilobytes: Int

  /// Clock ticks per second (`sysconf(_SC_CLK_TCK)`).
  static let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))

  /// Reads `/proc/PID` (`self` for this process).
  init(pid: String) throws {
    let base = "/proc/\(pid)"
    let stat = try Self.read("\(base)/stat")
    cpuTicks = Self.cpuTicks(stat: stat)
    let status = try Self.read("\(base)/status")
    peakResidentKilobytes = Self.field("VmHWM", in: status)
    residentKilobytes = Self.field("VmRSS", in: status)
    anonymousKilobytes = Self.field("RssAnon", in: status)
    threads = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "\(base)/task")) ?? [] {
      guard let tid = Int32(entry), let status = try? Self.read("\(base)/task/\(entry)/status"),
        let schedstat = try? Self.read("\(base)/task/\(entry)/schedstat")
      else { continue }
      threads[tid] = ThreadCounters(
        name: (try? Self.read("\(base)/task/\(entry)/comm"))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?",
        runNanoseconds: Int64(schedstat.split(separator: " ").first ?? "0") ?? 0,
        voluntarySwitches: Self.field("voluntary_ctxt_switches", in: status),
        involuntarySwitches: Self.field("nonvoluntary_ctxt_switches", in: status))
    }
  }

  /// This process.
  static func current() throws -> ProcessSample { try ProcessSample(pid: "self") }

  /// The CPU time of live threads, in nanoseconds.
  var threadRunNanoseconds: Int64 { threads.values.reduce(0) { $0 + $1.runNanoseconds } }

  /// What changed since `earlier`, per thread (threads that appeared count from zero), for threads with
  /// any change: name, CPU nanoseconds, voluntary and involuntary switches.
  func threadDeltas(since earlier: ProcessSample) -> [ThreadDelta] {
    threads.compactMap { tid, now in
      let before = earlier.threads[tid]
      let delta = ThreadDelta(
        thread: tid, name: now.name,
        cpuMicroseconds: Double(now.runNanoseconds - (before?.runNanoseconds ?? 0)) / 1_000,
        voluntarySwitches: now.voluntarySwitches - (before?.voluntarySwitches ?? 0),
        involuntarySwitches: now.involuntarySwitches - (before?.involuntarySwitches ?? 0))
      return delta.cpuMicroseconds > 0 || delta.voluntarySwitches > 0 || delta.involuntarySwitches > 0 ? delta : nil
    }.sorted { $0.thread < $1.thread }
  }

  private static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

  private static func cpuTicks(stat: String) -> Int {
    // Fields after the command name in parentheses (which may contain spaces): state is field 3, utime 14, stime 15.
    guard let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
  }

  private static func field(_ name: String, in status: String) -> Int {
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
      // "Name:\tvalue" or "Name:\t   value kB": a tab, and maybe spaces.
      return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0") ?? 0
    }
    return 0
  }
}

/// One thread's use over an interval.
struct ThreadDelta: Codable, Sendable {
  /// The thread ID.
  var thread: Int32
  /// The thread's name.
  var name: String
  /// CPU time used, in microseconds.
  var cpuMicroseconds: Double
  /// Times it blocked (each follows a wake-up).
  var voluntarySwitches: Int
  /// Times it was preempted.
  var involuntarySwitches: Int
}
