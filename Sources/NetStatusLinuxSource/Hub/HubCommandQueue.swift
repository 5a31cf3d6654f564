#if os(Linux)
  import NetStatusSystem
  import Glibc

  /// What another thread asks of the rtnetlink event loop (``NetlinkEventHub``), which carries it out on its own
  /// thread, in order. The loop's state is its thread's alone; a command is how anything else reaches it.
  enum HubCommand {
    /// A session starts: its watches are recorded from now on, and the loop does not retire.
    case reserve(UInt64)
    /// Watch a folder for a starting session; answered with ``HubCompletion/Outcome/watched(_:)``.
    case watch(UInt64, folder: String, interest: InotifyWatcher.Interest, ticket: UInt64)
    /// A session has started: a stop closes its client from now on.
    case register(UInt64, any NetlinkHubClient)
    /// A registered session joins the epoll set; the loop runs it from then on.
    case activate(UInt64, ticket: UInt64)
    /// A session whose start failed gives up its place.
    case cancel(UInt64, ticket: UInt64)
    /// Stop a session: answered once it is closed.
    case stop(UInt64, ticket: UInt64)
    /// Answered once the session is closed (stopped, or ended by a failure).
    case awaitClose(UInt64, ticket: UInt64)
  }

  /// The loop's answer to a command that someone waits for.
  struct HubCompletion {
    /// What the command came to.
    package enum Outcome {
      case done
      /// The watch made (`nil`: the folder does not exist).
      case watched(Int32?)
      case failed(NetworkMonitorError)
    }

    var outcome: Outcome
    /// The loop's thread, when the loop retired with this command and the waiter is the one to join it, so that
    /// once the last stop returns, no thread of the loop runs any more (the kernel may still list it in
    /// `/proc/self/task` for a moment: a joiner is woken early in the thread's exit).
    var joinThread: pthread_t?
  }

  /// The hub's one lock, and what it guards: the commands for the loop, the loop that serves (if any) and its
  /// thread, the IDs, the answers to those who wait, and the inotify instance kept between loops. A condition
  /// variable on the same lock lets a caller wait for its answer.
  ///
  /// A pthread mutex and condition variable rather than `Mutex`: waiting for an answer needs a condition variable,
  /// and ThreadSanitizer understands both (it does not see `Mutex`'s futex).
  ///
  /// `@unchecked Sendable`: ``state`` is read and written only with ``mutex`` held (``withLock(_:)``,
  /// ``wait(for:timeout:)``).
  final class HubCommandQueue: @unchecked Sendable {
    struct State: ~Copyable {
      /// Commands not yet taken by the loop, oldest first.
      var commands: [HubCommand] = []
      /// Whether the loop's eventfd was written for the commands waiting (once is enough until it takes them).
      var woken = false
      /// The loop serving sessions, while there is one.
      var loop: NetlinkEventLoop?
      /// Its thread.
      var thread: pthread_t?
      /// Session IDs start at 2: the loop's own epoll tags are 0 and 1.
      var nextID: UInt64 = 2
      var nextTicket: UInt64 = 1
      /// Tickets whose caller still waits (one that timed out is no longer here: its answer is dropped).
      var waiting: Set<UInt64> = []
      /// Answers not yet taken by their callers.
      var answers: [UInt64: HubCompletion] = [:]
      /// The inotify instance of the last loop, its watches all removed, kept for the next one: closing an instance
      /// that had watches waits for the kernel to free them (an SRCU grace period, milliseconds), and the stop that
      /// retires a loop waits for its thread.
      var keptInotify: InotifyWatcher?
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state = State()

    init() {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
      condition = .allocate(capacity: 1)
      condition.initialize(to: pthread_cond_t())
      var attributes = pthread_condattr_t()
      pthread_condattr_init(&attributes)
      // Timed waits measure the monotonic clock: a change of the wall clock neither shortens nor extends them.
      pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
      pthread_cond_init(condition, &attributes)
      pthread_condattr_destroy(&attributes)
    }

    deinit {
      pthread_cond_destroy(condition)
      condition.deallocate()
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    /// Runs `body` with the state, the lock held. `body` must not wait for the loop.
    func withLock<Value, Failure: Error>(_ body: (inout State) throws(Failure) -> Value) throws(Failure) -> Value {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&state)
    }

    /// Adds `command` for `loop`, waking it unless a wake is pending; with the lock held (inside ``withLock(_:)``).
    static func enqueue(_ command: HubCommand, in state: inout State, for loop: NetlinkEventLoop) {
      state.commands.append(command)
      guard !state.woken else { return }
      state.woken = true
      loop.wake()
    }

    /// A new ticket, for a command whose answer the caller will wait for; with the lock held.
    static func ticket(in state: inout State) -> UInt64 {
      let ticket = state.nextTicket
      state.nextTicket += 1
      state.waiting.insert(ticket)
      return ticket
    }

    /// Gives the waiters their answers (with the lock held, inside ``withLock(_:)``); call ``wakeWaiters()`` after.
    static func answer(_ answers: [(ticket: UInt64, completion: HubCompletion)], in state: inout State) {
      for (ticket, completion) in answers where state.waiting.contains(ticket) {
        state.answers[ticket] = completion
      }
    }

    /// Wakes every waiter, to look for its answer.
    func wakeWaiters() { pthread_cond_broadcast(condition) }

    /// Waits for the answer to `ticket`, at most `timeout` (`nil`: as long as it takes).
    ///
    /// - Returns: The answer; `nil` when the time ran out (the answer, if it comes, is then dropped).
    func wait(for ticket: UInt64, timeout: Duration? = nil) -> HubCompletion? {
      var deadline = timespec()
      if let timeout {
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(clamping: seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
      }
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      while true {
        if let answer = state.answers.removeValue(forKey: ticket) {
          state.waiting.remove(ticket)
          return answer
        }
        if timeout == nil {
          pthread_cond_wait(condition, mutex)
        } else if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT,
          state.answers[ticket] == nil
        {
          state.waiting.remove(ticket)
          return nil
        }
      }
    }
  }
#endif
