import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to standard output and error with plain `write(2)`, so that every line is flushed at once and
/// a closed pipe is noticed instead of killing the process.
///
/// A write never blocks past a stop: it waits in `poll(2)` for the descriptor to take more, or for
/// ``interruptWrites()`` (which ``StopSignal`` calls), and writes at most `PIPE_BUF` bytes once it may, which a
/// pipe with room takes without blocking. A reader that stalls (`netstatus watch | sleep 1000`) cannot keep a
/// stop signal from ending netstatus.
enum StandardOutput {
  /// What became of a write.
  package enum Outcome: Equatable, Sendable {
    /// Everything was written.
    case written
    /// The reader went away (EPIPE): not an error, there is nobody left to tell.
    case readerGone
    /// Writes were interrupted (netstatus is stopping) before everything could be written.
    case interrupted
    /// The write failed with this errno (ENOSPC, EBADF for a closed standard output, EIO…).
    case failed(Int32)
  }

  /// Whether standard output is a terminal.
  static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// Whether standard output was closed when netstatus started: the claim of ``claimStandardDescriptors()``,
  /// made once (on first use, which that method forces first thing). A global's lazy initialization is
  /// thread-safe, and reading it afterwards takes no lock: every write reads it.
  private static let outputWasClosed: Bool = {
    var outputWasClosed = false
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
      guard fcntl(descriptor, F_GETFD) == -1, errno == EBADF else { continue }
      let opened = open("/dev/null", O_RDWR)
      if opened >= 0, opened != descriptor {
        _ = dup2(opened, descriptor)
        _ = close(opened)
      }
      if descriptor == STDOUT_FILENO { outputWasClosed = true }
    }
    return outputWasClosed
  }()

  /// The pipe ``interruptWrites()`` makes readable, for good: writes poll its read end. `nil` if it could not
  /// be made (writes then cannot be interrupted, as before).
  private static let interruption: (read: Int32, write: Int32)? = {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return nil }
    for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(descriptors[1], F_SETFL, O_NONBLOCK)
    return (descriptors[0], descriptors[1])
  }()

  /// Where writes to standard output go first, without waiting in `poll(2)`: when it is a pipe, a second,
  /// non-blocking open file description of it (opened through `/proc/self/fd/1`, which gives a pipe a description of
  /// its own: the shared one, and whoever else writes through it, keep their blocking mode), so that a line costs one
  /// system call, not two, and the write waits in `poll(2)` only when the pipe is full; when it is a regular file,
  /// standard output itself (`poll(2)` says a file is always ready: asking costs a system call and tells nothing).
  /// `nil` for anything else (terminal, socket): every write waits for room first.
  private static let directOutput: Int32? = {
    var info = stat()
    guard fstat(STDOUT_FILENO, &info) == 0 else { return nil }
    let type = UInt32(info.st_mode) & UInt32(S_IFMT)
    if type == UInt32(S_IFREG) { return STDOUT_FILENO }
    guard type == UInt32(S_IFIFO) else { return nil }
    let descriptor = open("/proc/self/fd/\(STDOUT_FILENO)", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    return descriptor >= 0 ? descriptor : nil
  }()

  /// At most what one write may carry: a pipe that has room (`poll` says it is writable) takes up to `PIPE_BUF`
  /// bytes (4096 on Linux) without blocking.
  private static let chunkSize = 4096

  /// Keeps descriptors 0, 1 and 2 from being reused when they were closed at start (`netstatus >&-`): each is
  /// opened on /dev/null, so that netstatus's own sockets and eventfds never become "standard output". A closed
  /// standard output is remembered: every write to it fails with EBADF. Call it first thing.
  static func claimStandardDescriptors() {
    _ = outputWasClosed
    _ = interruption
  }

  /// Ignores SIGPIPE, so that writing to a closed pipe fails with EPIPE instead.
  static func ignoreBrokenPipeSignal() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Makes every write, under way or to come, give up as soon as its descriptor would block. Idempotent.
  static func interruptWrites() {
    guard let interruption else { return }
    let byte: [UInt8] = [1]
    _ = byte.withUnsafeBytes { systemWrite(interruption.write, $0) }
  }

  /// Writes `text` and a newline to standard output.
  @discardableResult
  static func line(_ text: String) -> Outcome {
    write(text + "\n", to: STDOUT_FILENO)
  }

  /// Writes `netstatus: text` and a newline to standard error, with the control characters of `text`
  /// escaped: error texts can quote what a server sent.
  static func error(_ text: String) {
    write("netstatus: \(text.escapingControlCharacters())\n", to: STDERR_FILENO)
  }

  /// The one line that reports a failed write to standard output.
  static func failureMessage(_ errno: Int32) -> String {
    "cannot write to standard output: \(Errno.describe(errno))"
  }

  /// Writes all of `text`.
  @discardableResult
  static func write(_ text: String, to descriptor: Int32) -> Outcome {
    var text = text
    return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
  }

  /// Writes all of `bytes`, retrying on EINTR and short writes, waiting for room without blocking past
  /// ``interruptWrites()``.
  static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Outcome {
    if descriptor == STDOUT_FILENO, outputWasClosed { return .failed(EBADF) }
    // A pipe or a file: write without waiting, and wait for room only when the pipe is full.
    let direct = descriptor == STDOUT_FILENO ? directOutput : nil
    let descriptor = direct ?? descriptor
    var mayWrite = direct != nil
    var offset = 0
    while offset < bytes.count {
      if !mayWrite {
        switch waitForRoom(descriptor) {
        case .ready: break
        case .interrupted: return .interrupted
        case .failed(let code): return .failed(code)
        }
      }
      mayWrite = direct != nil
      let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + chunkSize)])
      let written = systemWrite(descriptor, chunk)
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        // EAGAIN: the pipe is full (or someone made the shared descriptor non-blocking); wait for room.
        if code == EAGAIN || code == EWOULDBLOCK {
          mayWrite = false
          continue
        }
        return code == EPIPE ? .readerGone : .failed(code)
      }
      offset += written
    }
    return .written
  }

  /// Writes what standard output takes of `bytes` now, without waiting for room: the count written, and what ended
  /// the output if it did (the reader gone, a failed write). Fewer bytes than given, and no outcome, when a pipe is
  /// full.
  static func writeWithoutWaiting(_ bytes: UnsafeRawBufferPointer) -> (written: Int, ended: Outcome?) {
    if outputWasClosed { return (0, .failed(EBADF)) }
    let direct = directOutput
    let descriptor = direct ?? STDOUT_FILENO
    var offset = 0
    while offset < bytes.count {
      // A terminal or a socket: write only what poll(2) says it takes now.
      if direct == nil {
        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let polled = poll(&ready, 1, 0)
        if polled < 0, errno == EINTR { continue }
        if polled < 0 { return (offset, .failed(errno)) }
        if ready.revents & Int16(POLLNVAL) != 0 { return (offset, .failed(EBADF)) }
        if polled == 0 { return (offset, nil) }
      }
      let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + chunkSize)])
      let written = systemWrite(descriptor, chunk)
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return (offset, nil) }
        return (offset, code == EPIPE ? .readerGone : .failed(code))
      }
      offset += written
    }
    return (offset, nil)
  }

  /// `write(2)`, once.
  private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, bytes.baseAddress, bytes.count)
    #elseif canImport(Musl)
      Musl.write(descriptor, bytes.baseAddress, bytes.count)
    #else
      Darwin.write(descriptor, bytes.baseAddress, bytes.count)
    #endif
  }

  private enum Room {
    case ready
    case interrupted
    case failed(Int32)
  }

  /// Waits until `descriptor` takes more (or has an error for `write` to report), or writes are interrupted.
  /// Returns at once for a descriptor that is writable, such as a file or a terminal that keeps up.
  private static func waitForRoom(_ descriptor: Int32) -> Room {
    guard let interruption else { return .ready }
    while true {
      var descriptors = [
        pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
        pollfd(fd: interruption.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return .failed(errno)
      }
      if descriptors[0].revents & Int16(POLLNVAL) != 0 { return .failed(EBADF) }
      if descriptors[0].revents != 0 { return .ready }
      if descriptors[1].revents != 0 { return .interrupted }
    }
  }

  /// Blocks until the reader of standard output goes away (a pipe whose reader exited), then calls
  /// `onClose`. Runs on its own thread, asleep in poll(2): no CPU while waiting. On a terminal or a
  /// file, it waits forever.
  static func watchForClose(_ onClose: @escaping @Sendable () -> Void) {
    DetachedThread.start {
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
  }
}

/// A detached POSIX thread of its own: neither a thread of Dispatch's pool (whose first work item starts its 1 Hz
/// pool monitor on Linux, and a watch that idles makes no wake-ups) nor of Swift's cooperative pool.
enum DetachedThread {
  /// What the thread runs, retained for it until it returns.
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Starts `body` on a new detached thread. Returns whether it started (it does not run otherwise).
  @discardableResult
  static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
      let created = pthread_create(
        &thread, nil,
        { context in
          Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
          return nil
        }, context)
    #else
      var thread = pthread_t()
      let created = pthread_create(
        &thread, nil,
        { context in
          Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
          return nil
        }, context)
    #endif
    guard created == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      return false
    }
    #if canImport(Darwin)
      if let thread { pthread_detach(thread) }
    #else
      pthread_detach(thread)
    #endif
    return true
  }
}
