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
    static func isRunning(unitsFolder: String = unitsFolder, proc: String = "/proc") -> Bool {
      var info = stat()
      if lstat(unitsFolder + "/" + invocationName, &info) == 0 { return true }
      guard let folder = opendir(proc) else { return false }
      defer { closedir(folder) }
      while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
          String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { continue }
        if let command = LocalFile.read(proc + "/" + name + "/cmdline", limit: 4096),
          isNetworkd(commandLine: command)
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
