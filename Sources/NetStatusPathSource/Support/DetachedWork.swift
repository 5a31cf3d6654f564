import Dispatch

#if os(Linux)
  import NetStatusSystem
#endif

/// Runs `body` once on a thread of its own, now, without waiting for it: work that must not run on the calling
/// thread (a failing session's stop, which joins the thread that reports the failure).
///
/// On Linux a detached POSIX thread, not Dispatch's global queue. There, Dispatch's first work item starts its
/// worker pool, whose monitor then wakes once a second for good (an idle `netstatus watch` makes no wake-ups), and
/// opens the descriptors its event loop needs (epoll, eventfd, timerfd). In a process out of descriptors, which
/// `netstatus watch --all-netns` with more namespaces than its limit holds is by design, that open fails and
/// libdispatch ends the process with SIGILL. A thread needs no descriptor. When no thread can be made (the
/// process's thread limit), the work goes to Dispatch's global queue after all.
package func runDetached(name: String, _ body: @escaping @Sendable () -> Void) {
  #if os(Linux)
    do throws(SystemCallError) {
      try POSIXThread.detach(name: name, body)
      return
    } catch {}
  #endif
  DispatchQueue.global().async(execute: body)
}
