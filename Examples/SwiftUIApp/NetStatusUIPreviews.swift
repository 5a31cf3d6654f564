// Apple platforms only (SwiftUI); compiled by CI against the stand-in SDK. See Examples/README.md.
//
// Previews of NetStatusUI's overlay and view, in the demo app rather than in the library: `#Preview` is expanded by
// a compiler plugin that comes with Xcode, so a library that holds one fails to build with the Command Line Tools
// alone (`swift build` on a Mac without Xcode, or a server's toolchain).
import NetStatus
import NetStatusTesting
import NetStatusUI
import SwiftUI

#Preview("Offline, then Wi-Fi, repeating") {
  let script = ScriptedPathSource([.offline, .connected(via: .wifi)], interval: .seconds(2), repeats: true)
  List(1..<30) { row in
    Text("Story \(row)")
  }
  .needsInternet(NetworkStatusModel(monitor: NetworkMonitor(source: script)))
}

#Preview("Not known yet: no overlay") {
  Text("Waiting for the first path")
    .needsInternet(NetworkStatusModel(monitor: NetworkMonitor(source: ScriptedPathSource())))
}

#Preview("Injected through the environment") {
  Text("Offline from the start")
    .needsInternet()
    .networkStatus(NetworkStatusModel(monitor: NetworkMonitor(source: ScriptedPathSource(.offline))))
}

#Preview("No Internet Connection") {
  NetworkUnavailableView()
}
