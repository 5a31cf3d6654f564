/// Paths of the form `/proc/PID/ns/net`: the network namespace of process PID, as a container host names a
/// container's namespace.
///
/// Such a path names the namespace only while the process lives: NetStatus then reads that process's resolver
/// configuration (through `/proc/PID/root`) and ends the watch when the process exits. Any other path, and any
/// other form (`/proc/self/ns/net`, `/proc/PID/task/TID/ns/net`), is a plain namespace file.
package enum ProcessNamespacePath {
  /// The PID in a path of exactly the form `/proc/PID/ns/net`, PID all decimal digits; `nil` for any other path.
  package static func processID(in path: String) -> Int32? {
    let prefix = "/proc/"
    let suffix = "/ns/net"
    guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.utf8.count > prefix.utf8.count + suffix.utf8.count
    else { return nil }
    let digits = path.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
    guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let pid = Int32(String(decoding: digits, as: UTF8.self)), pid > 0
    else { return nil }
    return pid
  }

  /// The process's root folder as this process sees it: `/proc/PID/root`, where its own files are (in its
  /// mount namespace, under its root).
  package static func root(of pid: Int32) -> String {
    "/proc/\(pid)/root"
  }
}
