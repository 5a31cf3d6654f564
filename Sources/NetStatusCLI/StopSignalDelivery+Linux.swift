#if os(Linux)
  import CNetStatusShim
  import Glibc
  import NetStatusSystem

  /// How the stop signals reach a ``StopSignal`` on Linux: a signalfd of its own, watched by a thread that takes a
  /// signal only under the stop's lock (``StopSignal/takePendingSignal()``), so that a command finishing on its own
  /// (``StopSignal/finish(_:)``) sees, under the same lock, a signal that has arrived and not been taken yet. A
  /// signal is never consumed where neither can see it, which libdispatch's signal sources (they read the signal
  /// on their manager thread and run the handler later, on its queue) cannot promise.
  ///
  /// The signals are blocked in every thread (``StopSignal/blockStopSignals()``), so one sent before this exists waits,
  /// pending, and the signalfd reports it.
  final class StopSignalDelivery: Sendable {
    /// The signalfd (non-blocking, close-on-exec) of the stop signals; open for the life of the process.
    private let descriptor: FileDescriptor

    /// Opens the signalfd; `nil` if the kernel refuses one (then no stop signal is handled, as before one is made).
    init?(signals: [Int32]) {
      var set = sigset_t()
      sigemptyset(&set)
      for number in signals { sigaddset(&set, number) }
      let opened = try? SystemCall.attempt { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
      guard let opened else { return nil }
      descriptor = FileDescriptor(adopting: opened)
    }

    /// Starts the thread that waits for a signal and hands it to `take` (which reads it under its lock with
    /// ``readPending()``); it ends once `take` says the stop has happened. Returns whether the thread started.
    func startWatching(_ take: @escaping @Sendable () -> Bool) -> Bool {
      let number = descriptor.rawValue
      do {
        try POSIXThread.detach(name: "netstatus-signal") { [self] in
          var entry = pollfd(fd: number, events: Int16(POLLIN), revents: 0)
          while true {
            // Holds `self` (and so the descriptor) while it waits.
            _ = self
            if poll(&entry, 1, -1) < 0, errno != EINTR { return }
            if take() { return }
          }
        }
        return true
      } catch {
        return false
      }
    }

    /// Takes one pending stop signal, if any: its number. Called only under the stop's lock.
    func readPending() -> Int32? {
      var info = signalfd_siginfo()
      let size = MemoryLayout<signalfd_siginfo>.size
      let read = withUnsafeMutableBytes(of: &info) { Glibc.read(descriptor.rawValue, $0.baseAddress, size) }
      return read == size ? Int32(bitPattern: info.ssi_signo) : nil
    }
  }
#endif
