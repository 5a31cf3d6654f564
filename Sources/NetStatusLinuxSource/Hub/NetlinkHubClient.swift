#if os(Linux)
  import NetStatusSystem

  /// What the hub runs: a path source session (``NetlinkSessionWorker``) or a watch of the named namespaces
  /// (``NamedNetworkNamespaces``).
  ///
  /// The loop calls ``handle(_:)`` on its thread, one client at a time, reads ``descriptors`` there, and calls
  /// ``close()`` once, there too, when the client is not running.
  protocol NetlinkHubClient: AnyObject, Sendable {
    /// The reservation it was started with.
    var reservation: NetlinkEventHub.Reservation { get }
    /// What the loop waits on for it.
    var descriptors: [NetlinkHubDescriptor] { get }
    /// Whether the loop must run ``NetlinkHubWork/resume`` right after activating it.
    var startedUnsettled: Bool { get }
    /// Does one piece of work.
    func handle(_ work: NetlinkHubWork) -> NetlinkHubOutcome
    /// Closes its descriptors.
    func close()
  }

  /// What the hub's thread asks a client to do.
  enum NetlinkHubWork {
    /// Its netlink socket is readable.
    case netlinkReadable
    /// Its generic netlink socket (nl80211's answers and events) is readable.
    case wirelessReadable
    /// The process whose `/proc/PID/ns/net` it watches has exited.
    case processExited
    /// The mount table changed (a namespace was bind-mounted or unmounted).
    case mountTableChanged
    /// Events of its folder watches (or an inotify overflow).
    case folderEvents([InotifyWatcher.Event])
    /// Finish what the last work left unfinished, or do the first work after start-up.
    case resume
    /// The deadline its last work returned with (``NetlinkHubOutcome/waiting(until:)``) passed.
    case deadlinePassed
  }

  /// How a piece of work ended.
  enum NetlinkHubOutcome: Equatable {
    /// Done; wait for the next event.
    case idle
    /// More to do: ``NetlinkHubWork/resume`` soon, after other clients had their turn.
    case unfinished
    /// The client is over (it failed, and said so): close it.
    case ended
    /// Waiting for the kernel: its next readiness continues the work, or ``NetlinkHubWork/deadlinePassed`` once the
    /// monotonic clock (``MonotonicTime``) reaches this, in nanoseconds.
    case waiting(until: UInt64)
  }

  /// A descriptor the hub waits on for a client, and what its readiness means.
  struct NetlinkHubDescriptor {
    enum Kind: UInt64 {
      /// A netlink socket: readable.
      case netlink = 0
      /// A pidfd: readable once the process exited.
      case processExit = 1
      /// `/proc/self/mountinfo`: a priority event when the mount table changed.
      case mountTable = 2
      /// A generic netlink socket (nl80211): readable.
      case wireless = 3
    }
    var fd: Int32
    var kind: Kind
  }
#endif
