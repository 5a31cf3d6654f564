// The floor for a netstatus without Foundation: a hello-world that links and touches what netstatus links (Dispatch,
// Synchronization, Swift concurrency) but not Foundation, prints a line with write(2), and waits until it is
// signalled, doing nothing. Benchmarks/run.sh also builds it with the Swift runtime linked in statically
// (.build-static), the floor of the static netstatus.
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

let greeting = Mutex("hello")
let queue = DispatchQueue(label: "hello")
let printed = DispatchSemaphore(value: 0)
Task.detached {
  queue.async {
    var line = greeting.withLock { $0 } + " (no Foundation)\n"
    _ = line.withUTF8 { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    printed.signal()
  }
}
printed.wait()
while true { pause() }
