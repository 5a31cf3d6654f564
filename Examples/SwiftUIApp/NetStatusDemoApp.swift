// Apple platforms only (SwiftUI); compiled by CI against the stand-in SDK. See Examples/README.md.
import NetStatus
import NetStatusTesting
import NetStatusUI
import SwiftUI

@main
struct NetStatusDemoApp: App {
  /// Follows `NetworkMonitor.shared`, which it starts.
  @State private var network = NetworkStatusModel()

  var body: some Scene {
    WindowGroup {
      ContentView()
        .needsInternet()  // reads the model injected just below
        .networkStatus(network)
    }
  }
}

struct ContentView: View {
  @Environment(\.networkStatus) private var network

  var body: some View {
    NavigationStack {
      List {
        if let path = network?.path {
          Section("Connection") {
            Label(
              path.isConnected ? "Connected" : "Not Connected",
              systemImage: path.isConnected ? "checkmark.circle" : "xmark.circle")
            if let reason = path.unsatisfiedReason {
              LabeledContent("Reason", value: reason.description)
            }
          }
          Section("Interfaces") {
            ForEach(Array(path.availableInterfaces.enumerated()), id: \.element) { position, interface in
              LabeledContent(interface.name, value: interface.type.description)
                .badge(position == 0 ? "in use" : nil)
            }
          }
          Section("Cost") {
            LabeledContent("Expensive", value: path.isExpensive ? "Yes" : "No")
            LabeledContent("Low Data Mode", value: path.isConstrained ? "Yes" : "No")
          }
        } else {
          // Not known yet: say so rather than "offline".
          ProgressView("Checking the network…")
        }
      }
      .navigationTitle("NetStatus")
    }
  }
}

#Preview("Wi-Fi, then cellular") {
  let script = ScriptedPathSource(
    [.connected(via: .wifi), .connected(via: .cellular), .offline], interval: .seconds(2), repeats: true)
  ContentView()
    .networkStatus(NetworkStatusModel(monitor: NetworkMonitor(source: script)))
}
