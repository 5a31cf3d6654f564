import Foundation
import Glibc

/// What the issue "a binary that fits anywhere" measures: for each program, its file size, its peak RSS (VmHWM)
/// once it has printed its first line, and `posix_spawn` to that line; `netstatus watch --json` (the release build
/// and the static one of Scripts/build-static.sh) against three hello-world floors (with Foundation, without, and
/// without with the Swift runtime linked statically).
struct FootprintBenchmark {
  /// One program's figures.
  struct Row: Codable, Sendable {
    var program: String
    var path: String
    /// The file's size, bytes.
    var fileBytes: Int
    /// posix_spawn → first line, µs.
    var startup: Summary
    /// VmHWM right after the first line, KiB: the median and the largest of the runs.
    var peakResidentKilobytes: Int
    var maxPeakResidentKilobytes: Int
    /// Whether it is one of the hello-world floors.
    var isFloor: Bool
  }

  /// The result.
  struct Result: Codable, Sendable {
    var runs: Int
    var rows: [Row]
  }

  /// A program to measure: its label, its command line (the namespace's name is appended to netstatus's) and
  /// whether it is a floor.
  struct Program {
    var label: String
    var path: String
    var isNetstatus: Bool
  }

  /// Runs every program `runs` times, rotating which goes first, in a namespace with one veth and a default route.
  static func run(programs: [Program], runs: Int) throws -> Result {
    let (watched, peer) = try BenchNamespace.vethPair("foot")
    defer {
      watched.delete()
      peer.delete()
    }

    var startups = Array(repeating: [Int64](), count: programs.count)
    var residents = Array(repeating: [Int](), count: programs.count)
    for round in 0..<runs {
      for offset in programs.indices {
        let index = (round + offset) % programs.count
        let program = programs[index]
        let arguments =
          program.isNetstatus ? [program.path, "watch", "--json", "--netns", watched.name] : [program.path]
        let process = try ChildProcess(arguments)
        try process.waitForFirstLine()
        startups[index].append(process.lines.event(at: 0).time - process.spawnedAt)
        residents[index].append(try ProcessSample(pid: "\(process.pid)").peakResidentKilobytes)
        process.stop()
      }
    }
    let rows = try programs.indices.map { index in
      let program = programs[index]
      let size = try FileManager.default.attributesOfItem(atPath: program.path)[.size] as? Int ?? 0
      let sorted = residents[index].sorted()
      return Row(
        program: program.label, path: program.path, fileBytes: size, startup: Summary(nanoseconds: startups[index]),
        peakResidentKilobytes: sorted[sorted.count / 2], maxPeakResidentKilobytes: sorted.last ?? 0,
        isFloor: !program.isNetstatus)
    }
    return Result(runs: runs, rows: rows)
  }
}

extension FootprintBenchmark.Result {
  /// The table's lines.
  func table() -> [String] {
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
    func right(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
    var out = [
      "Footprint: file size, peak RSS (VmHWM) after the first line, posix_spawn → first line (\(runs) runs each, rotated)",
      "  " + pad("program", 52) + right("bytes", 10) + right("RSS KiB", 9) + right("max", 7) + right("start p50", 11)
        + right("p90", 8),
    ]
    for row in rows {
      out.append(
        "  " + pad(row.program, 52) + right("\(row.fileBytes)", 10) + right("\(row.peakResidentKilobytes)", 9)
          + right("\(row.maxPeakResidentKilobytes)", 7) + right(String(format: "%.0f", row.startup.p50), 11)
          + right(String(format: "%.0f", row.startup.p90), 8))
    }
    return out
  }

  /// The targets, for the static netstatus against the static no-Foundation floor (like for like), if both
  /// were measured.
  func targets() -> [Report.Target] {
    guard let binary = rows.first(where: { $0.program.hasPrefix("netstatus (static") }),
      let floor = rows.first(where: { $0.program.hasPrefix("hello, no Foundation, static") })
    else { return [] }
    let ratio = binary.startup.p50 / floor.startup.p50
    return [
      Report.Target(
        target: "static netstatus watch peak RSS ≤ 8 MB", measured: "\(binary.peakResidentKilobytes) KiB",
        met: binary.peakResidentKilobytes <= 8 * 1024),
      // The monitor's own cost, like for like: netstatus as installed against the floor linked the same way. The
      // dynamic build's difference (the Memory line) is mostly its code pages, which the static build lays out
      // for start (Scripts/build-static.sh).
      Report.Target(
        target: "the monitor adds under 2 MB of peak RSS (static netstatus vs the static no-Foundation hello-world)",
        measured:
          "\(binary.peakResidentKilobytes - floor.peakResidentKilobytes) KiB (p50 \(binary.peakResidentKilobytes) KiB vs "
          + "\(floor.peakResidentKilobytes) KiB)",
        met: binary.peakResidentKilobytes - floor.peakResidentKilobytes < 2_048),
      Report.Target(
        target: "static binary ≤ 16 MB", measured: "\(binary.fileBytes) bytes", met: binary.fileBytes <= 16 << 20),
      Report.Target(
        target: "start → first path ≤ 1.5× the static no-Foundation hello-world",
        measured: String(format: "%.2f× (p50 %.0f µs vs %.0f µs)", ratio, binary.startup.p50, floor.startup.p50),
        met: ratio <= 1.5),
    ]
  }
}
