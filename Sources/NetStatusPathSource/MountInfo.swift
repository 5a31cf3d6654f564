#if canImport(NetStatusNetlink)
  import NetStatusNetlink
#endif

/// Reading `/proc/self/mountinfo` (proc(5)): which names of a folder have something mounted on them. Pure.
///
/// A name in a namespace folder becomes a namespace when a namespace is bind-mounted on it (`ip netns add` makes the
/// file, then mounts), so when the mount table changes only the folder's mount points, and the names known to be
/// namespaces, can have changed: not every file the folder holds (a folder of 5,000 plain files was checked whole,
/// with `statfs(2)`, at every mount anywhere on the host).
package enum MountInfo {
  /// The names, directly in `folder` (an absolute path without a trailing `/`, as mountinfo writes it), on which
  /// something is mounted.
  ///
  /// - Parameter table: The file's bytes: one mount a line, its fifth field the mount point, with space, tab, newline
  ///   and backslash written as octal escapes (`\040`).
  package static func mountedNames(in table: some Collection<UInt8>, under folder: String) -> Set<String> {
    let prefix = SystemName.bytes(of: folder) + [UInt8(ascii: "/")]
    var names: Set<String> = []
    for line in table.split(separator: UInt8(ascii: "\n")) {
      let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: false)
      guard fields.count > 4 else { continue }
      let point = unescaped(fields[4])
      guard point.count > prefix.count, point.starts(with: prefix) else { continue }
      let name = point[prefix.count...]
      guard !name.contains(UInt8(ascii: "/")) else { continue }
      names.insert(SystemName.decode(name))
    }
    return names
  }

  /// A mountinfo field with its octal escapes (`\` and three octal digits) turned back into bytes.
  static func unescaped(_ field: some Collection<UInt8>) -> [UInt8] {
    let bytes = Array(field)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count,
        let value = octal(bytes[(index + 1)...(index + 3)])
      {
        result.append(value)
        index += 4
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return result
  }

  /// Three octal digits as a byte, or `nil`.
  private static func octal(_ digits: ArraySlice<UInt8>) -> UInt8? {
    var value = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else { return nil }
      value = value * 8 + Int(digit - UInt8(ascii: "0"))
    }
    return value <= 255 ? UInt8(value) : nil
  }
}
