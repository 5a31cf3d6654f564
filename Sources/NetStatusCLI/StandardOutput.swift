import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to standard output and error with plain `write(2)`, so that every line is flushed at once and
/// a closed pipe is noticed instead of killing the process.
enum StandardOutput {
  /// Whether standard output is a terminal.
  static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// Ignores SIGPIPE, so that writing to a closed pipe fails with EPIPE instead.
  static func ignoreBrokenPipeSignal() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Writes `text` and a newline to standard output. Returns `false` when standard output is closed.
  @discardableResult
  static func line(_ text: String) -> Bool {
    write(text + "\n", to: STDOUT_FILENO)
  }

  /// Writes `netstatus: text` and a newline to standard error, with the control characters of `text`
  /// escaped: error texts can quote what a server sent.
  static func error(_ text: String) {
    write("netstatus: \(text.escapingControlCharacters())\n", to: STDERR_FILENO)
  }

  /// Writes all of `text`, retrying on EINTR and short writes. Returns `false` on any other failure.
  @discardableResult
  static func write(_ text: String, to descriptor: Int32) -> Bool {
    var text = text
    return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
  }

  /// Writes `bytes` (a whole line) to standard output. Returns `false` when standard output is closed.
  @discardableResult
  static func write(line bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { write($0, to: STDOUT_FILENO) }
  }

  /// Writes all of `bytes`, retrying on EINTR and short writes. Returns `false` on any other failure.
  static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let remaining = UnsafeRawBufferPointer(rebasing: bytes[offset...])
      #if canImport(Glibc)
        let written = Glibc.write(descriptor, remaining.baseAddress, remaining.count)
      #elseif canImport(Musl)
        let written = Musl.write(descriptor, remaining.baseAddress, remaining.count)
      #else
        let written = Darwin.write(descriptor, remaining.baseAddress, remaining.count)
      #endif
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }

  /// Blocks until the reader of standard output goes away (a pipe whose reader exited), then calls
  /// `onClose`. Runs on its own thread, asleep in poll(2): no CPU while waiting. On a terminal or a
  /// file, it waits forever.
  static func watchForClose(_ onClose: @escaping @Sendable () -> Void) {
    let thread = Thread {
      var descriptor = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
      while true {
        let ready = poll(&descriptor, 1, -1)
        if ready < 0 && errno == EINTR { continue }
        if ready < 0 { return }
        if descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
          onClose()
          return
        }
      }
    }
    thread.start()
  }
}
