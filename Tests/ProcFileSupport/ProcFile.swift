#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Reading /proc in the tests and in their child processes (netstatus-test-child, netstatus-soak).

/// The text of a file under `/proc` (at most 64 KiB), or `nil` if it cannot be read: with `open` and `read`, not
/// `String(contentsOfFile:)`, whose buffer leaked in FoundationEssentials when the read failed (LeakSanitizer
/// reported it in CI when a thread's `/proc/self/task/TID/comm` vanished between the listing and the read: the
/// library's threads come and go while tests look at them).
package func readProcFile(_ path: String) -> String? {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var bytes = [UInt8](repeating: 0, count: 65_536)
  var count = 0
  while count < bytes.count {
    let done = count
    let read = bytes.withUnsafeMutableBytes { buffer in
      systemRead(fd, buffer.baseAddress! + done, buffer.count - done)
    }
    if read < 0 && errno == EINTR { continue }
    guard read >= 0 else { return nil }
    if read == 0 { break }
    count += read
  }
  return String(decoding: bytes[0..<count], as: UTF8.self)
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
  #else
    Darwin.read(fd, buffer, count)
  #endif
}
