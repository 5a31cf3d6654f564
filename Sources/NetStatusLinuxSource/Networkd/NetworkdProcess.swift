#if os(Linux)
  import Glibc

  /// Whether systemd-networkd runs: its state folder alone does not say. `/run/systemd/netif` stays when networkd
  /// stops (its unit preserves it) and exists where it never ran (the systemd package makes it), so files there may
  /// be minutes or months old. Asked when the default folder is read (NetworkdLinkWatcher.swift); a folder given
  /// with `--networkd-root` is taken as it is.
  enum NetworkdProcess {
    /// Where systemd records its running units: `invocation:UNIT`, a symbolic link to the unit's invocation ID, exists
    /// while the unit runs.
    static let unitsFolder = "/run/systemd/units"
    /// The record of a running networkd in ``unitsFolder``.
    static let invocationName = "invocation:systemd-networkd.service"

    /// Whether networkd runs: systemd's record of its running unit (one `lstat`), else a process whose command is
    /// `systemd-networkd` (networkd started without systemd as PID 1: a container, another init), found in `proc`.
    ///
    /// A networkd process counts only in the process's own network namespace, when both namespaces can be read: one
    /// that runs in another namespace (a container's, a test's) manages other links, and says nothing of these files.
    static func isRunning(unitsFolder: String = unitsFolder, proc: String = "/proc") -> Bool {
      var info = stat()
      if lstat(unitsFolder + "/" + invocationName, &info) == 0 { return true }
      let own = SystemNamespace.identity(of: proc + "/self/ns/net")
      return firstProcess(proc: proc) { folder in
        guard let own, let its = SystemNamespace.identity(of: folder + "/ns/net") else { return true }
        return its == own
      }
    }

    /// Whether a networkd runs in the process's own network and mount namespaces (`/proc/PID/ns/net` and
    /// `/proc/PID/ns/mnt` the same as `/proc/self/ns/…`): it manages the process's links, and the `/run` it writes
    /// its state to is the one the process sees, whatever PID 1's namespace is (networkd run in a container's or a
    /// test's namespaces, `nsenter` into them). Reading another process's namespaces needs ptrace access to it: root,
    /// or the same user; without, `false`.
    static func runsInOwnNamespaces(proc: String = "/proc") -> Bool {
      let own = [
        SystemNamespace.identity(of: proc + "/self/ns/net"), SystemNamespace.identity(of: proc + "/self/ns/mnt"),
      ]
      guard !own.contains(nil) else { return false }
      return firstProcess(proc: proc) { folder in
        [SystemNamespace.identity(of: folder + "/ns/net"), SystemNamespace.identity(of: folder + "/ns/mnt")] == own
      }
    }

    /// Whether some process of `proc` is networkd and `matches` its folder (`/proc/PID`).
    private static func firstProcess(proc: String, matches: (String) -> Bool) -> Bool {
      guard let folder = opendir(proc) else { return false }
      defer { closedir(folder) }
      while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
          String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { continue }
        if let command = LocalFile.read(proc + "/" + name + "/cmdline", limit: 4096),
          isNetworkd(commandLine: command), matches(proc + "/" + name)
        {
          return true
        }
      }
      return false
    }

    /// Whether a process's `/proc/PID/cmdline` (its arguments, each ended by a NUL) is networkd's: its first argument
    /// ends with `/systemd-networkd` or is that name. Pure. (`systemd-networkd-wait-online` is not.)
    static func isNetworkd(commandLine: [UInt8]) -> Bool {
      let first = commandLine.prefix { $0 != 0 }
      let name = first.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last ?? first[...]
      return Array(name) == Array("systemd-networkd".utf8)
    }
  }
#endif
