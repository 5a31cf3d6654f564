// The baseline for netstatus's memory and start-up: a hello-world that links and touches the same toolchain
// modules as netstatus (Foundation, Dispatch, Synchronization, Swift concurrency), prints a line, and waits
// until it is signalled, doing nothing.
import Dispatch
import Foundation
import Synchronization

let greeting = Mutex("hello")
let queue = DispatchQueue(label: "hello")
let environment = ProcessInfo.processInfo.environment.count
let printed = DispatchSemaphore(value: 0)
Task.detached {
  queue.async {
    let line = greeting.withLock { $0 } + " (\(environment) environment variables)\n"
    FileHandle.standardOutput.write(Data(line.utf8))
    printed.signal()
  }
}
printed.wait()
while true { pause() }
