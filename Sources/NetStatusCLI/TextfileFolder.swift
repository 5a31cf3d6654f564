import NetStatusCore
import NetStatusNetlink

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is wrong with the folder of a `--textfile` file, said in the user's terms (the folder they chose, not the
/// temporary file netstatus writes there first): checked before the first line, and again when a write fails.
enum TextfileFolder {
  /// The folder of `path` (`.` for a bare name).
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Why a file cannot be written at `path`, or `nil` when its folder exists, is a folder, and takes new files.
  static func problem(for path: String) -> String? {
    let folder = Self.folder(of: path)
    var info = stat()
    guard SystemName.withCString(folder, { stat($0, &info) }) == 0 else {
      let reason = errno
      if reason == ENOENT { return "--textfile \(path): the folder \(folder) does not exist" }
      return "--textfile \(path): cannot read the folder \(folder): \(Errno.describe(reason))"
    }
    guard UInt32(info.st_mode) & 0o170000 == 0o040000 else {
      return "--textfile \(path): \(folder) is not a folder"
    }
    guard SystemName.withCString(folder, { access($0, W_OK | X_OK) }) == 0 else {
      return "--textfile \(path): cannot create files in \(folder): \(Errno.describe(errno))"
    }
    return nil
  }
}
