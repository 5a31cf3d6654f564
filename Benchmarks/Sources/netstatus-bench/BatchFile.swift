import Foundation

/// An `ip -batch` file in the temporary folder, written a chunk of lines at a time (a million route lines
/// are 50 MB: one string of them all would be built first otherwise). Remove it with ``remove()``.
struct BatchFile {
  /// Where it is.
  let path: String
  /// How many lines it has.
  let count: Int

  /// Writes lines `line(0)`, `line(1)`, … `line(count - 1)`.
  init(_ label: String, count: Int, line: (Int) -> String) throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent("netstatus-bench-\(label)-\(UUID()).batch")
      .path
    self.count = count
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw BenchError("cannot create \(path)")
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    var chunk = ""
    for index in 0..<count {
      chunk += line(index)
      chunk += "\n"
      if index % 10_000 == 9_999 {
        try handle.write(contentsOf: Data(chunk.utf8))
        chunk = ""
      }
    }
    try handle.write(contentsOf: Data(chunk.utf8))
  }

  /// Deletes the file.
  func remove() { try? FileManager.default.removeItem(atPath: path) }
}
