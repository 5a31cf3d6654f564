#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(NetStatusNetlink)
  import NetStatusNetlink
#endif

/// Small, failure-tolerant reads of local files (sysfs entries, resolver configuration), without
/// Foundation. Every function answers `nil` or `false` instead of throwing: a missing file is an answer. A path is
/// given as NetStatus holds names (``SystemName``): a name the system gave, in a path, is the file's own bytes.
package enum LocalFile {
  private static let typeMask: UInt32 = 0o170000
  private static let directoryType: UInt32 = 0o040000
  private static let regularType: UInt32 = 0o100000

  /// The most ``read(_:limit:)`` reads by default: 1 MiB. resolv.conf and sysfs attributes are a few hundred
  /// bytes; the bound keeps a huge or endless file from being read whole.
  static let defaultLimit = 1 << 20

  /// The first `limit` bytes of the regular file at `path` (all of it when it is smaller), or `nil` when it
  /// cannot be read or is not a regular file.
  ///
  /// A FIFO, a device, a socket or a directory reads as `nil`, at once: a FIFO would block a blocking `open`
  /// until a writer came (and its `read` until one wrote), and a device can be endless (`/dev/zero`) or have
  /// effects when opened. The type is checked on the path before opening (so such a file is not even opened),
  /// and on the open descriptor (in case the path changed in between), which is opened non-blocking.
  package static func read(_ path: String, limit: Int = defaultLimit) -> [UInt8]? {
    var info = stat()
    guard SystemName.withCString(path, { stat($0, &info) }) == 0, isRegular(info) else { return nil }
    let fd = SystemName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard fstat(fd, &info) == 0, isRegular(info) else { return nil }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while result.count < limit {
      let wanted = min(chunk.count, limit - result.count)
      let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, wanted) }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { break }
      result.append(contentsOf: chunk[0..<count])
    }
    return result
  }

  /// Whether `info` describes a regular file.
  private static func isRegular(_ info: stat) -> Bool {
    UInt32(info.st_mode) & typeMask == regularType
  }

  /// The first `limit` bytes of the regular file at `path` as text (invalid UTF-8 repaired), or `nil` when it
  /// cannot be read or is not a regular file (see ``read(_:limit:)``).
  package static func readText(_ path: String, limit: Int = defaultLimit) -> String? {
    read(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Whether something exists at `path`, following symbolic links.
  package static func exists(_ path: String) -> Bool {
    var info = stat()
    return SystemName.withCString(path) { stat($0, &info) } == 0
  }

  /// Whether `path` is a directory, following symbolic links.
  package static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    guard SystemName.withCString(path, { stat($0, &info) }) == 0 else { return false }
    return UInt32(info.st_mode) & typeMask == directoryType
  }

  /// Whether an entry (of any kind, a dangling link included) exists at `path`, not following links.
  package static func entryExists(_ path: String) -> Bool {
    var info = stat()
    return SystemName.withCString(path) { lstat($0, &info) } == 0
  }

  /// The destination of the symbolic link at `path`, made absolute against the link's directory; `nil` when
  /// `path` is not a symbolic link.
  package static func symbolicLinkDestination(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBufferPointer { target in
      SystemName.withCString(path) { readlink($0, target.baseAddress!, target.count - 1) }
    }
    guard count > 0 else { return nil }
    let target = SystemName.decode(buffer[0..<count].map { UInt8(bitPattern: $0) })
    if target.hasPrefix("/") { return target }
    return directory(of: path) + "/" + target
  }

  /// The directory part of a path (`/etc` for `/etc/resolv.conf`, `.` for a bare name).
  package static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// The last component of a path (`resolv.conf` for `/etc/resolv.conf`).
  package static func lastComponent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}

/// `read(2)`, named so that it does not collide with ``LocalFile/read(_:limit:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
