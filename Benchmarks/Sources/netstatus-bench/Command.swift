import Foundation

/// Runs setup commands (`ip`, `sysctl`) to completion. Not timed: Foundation's Process is fine here.
enum Command {
  /// The `ip` tool.
  static let ip: String =
    ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    } ?? "ip"

  /// Runs `executable` with `arguments`; returns its standard output, throws with its error output.
  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError(
        "\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): "
          + String(decoding: errorData, as: UTF8.self))
    }
    return String(decoding: outputData, as: UTF8.self)
  }

  /// Runs `ip` with arguments split at spaces.
  @discardableResult
  static func ip(_ arguments: String) throws -> String {
    try run(ip, arguments.split(separator: " ").map(String.init))
  }
}
