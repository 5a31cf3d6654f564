import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import ProcFileSupport

@testable import NetStatusCore
@testable import NetStatusLinuxSource

// Reads which namespace a netlink socket was made in through NetStatusCore's internal `NetworkNamespace`: here, in
// the test target, which may import NetStatusCore `@testable`, not in the support target every build compiles.
extension NetstatusProcess {
  /// Waits until the process watches `namespace`: it holds a netlink socket made in that namespace.
  func waitUntilStarted(namespace: TestNamespace) async throws {
    let pid = processIdentifier
    let path = "/run/netns/\(namespace.name)"
    // A bound for failure only, far past a start on a loaded machine. Each check enters the namespace on a thread of
    // its own: paced, so that the poll does not take the CPU netstatus needs to start (a tight loop of them, in
    // several tests at once, starved it past 10 s in CI).
    // Checked once more after the deadline: a stalled test process judges the state after the stall.
    let started = try await poll(timeout: .seconds(60), every: .milliseconds(2)) { () -> Bool? in
      Self.watches(pid: pid, namespacePath: path) ? true : nil
    }
    if started == nil {
      throw TimedOut(what: "netstatus to open its netlink socket in \(namespace.name)", timeout: .seconds(60))
    }
  }

  /// Whether process `pid` holds a netlink socket of the namespace at `namespacePath`. The namespace's netlink
  /// table (`/proc/thread-self/net/netlink`) is read on a short-lived thread inside it: a socket stays in the
  /// namespace it was made in, whichever thread of netstatus uses it.
  fileprivate static func watches(pid: Int32, namespacePath: String) -> Bool {
    let files = FileManager.default
    let sockets = Set(
      ((try? files.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).compactMap { descriptor -> String? in
        guard let target = try? files.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"),
          target.hasPrefix("socket:[")
        else { return nil }
        return String(target.dropFirst("socket:[".count).dropLast())
      })
    guard !sockets.isEmpty, let namespace = try? NetworkNamespace(namespacePath), let handle = try? namespace.open()
    else { return false }
    defer { close(handle.fd) }
    let table = try? NetworkNamespace.run(inside: handle, path: namespacePath) { () throws(NetworkMonitorError) in
      readProcFile("/proc/thread-self/net/netlink") ?? ""
    }
    let inodes = (table ?? "").split(separator: "\n").dropFirst().compactMap {
      $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
    }
    return inodes.contains(where: sockets.contains)
  }

}
