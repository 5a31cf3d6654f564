#if canImport(SwiftUI)
  import NetStatus
  import SwiftUI

  /// Covers a view with ``NetworkUnavailableView`` while the device is offline.
  ///
  /// The overlay appears only once the path is known to be unsatisfied, so an app never flashes "offline" at
  /// launch, while the first path is still on its way. A path that requires a connection
  /// (`NetworkPath.Status.requiresConnection`) is not covered: a connection attempt brings the network up there (an
  /// on-demand VPN, cellular that wakes), so the app must be free to make it. It fades in and out.
  ///
  /// On watchOS the modifier does nothing: `NWPathMonitor` reports an ordinary watch app as offline whatever the
  /// network (Apple's TN3135), so NetStatus reports no path there (Sources/NetStatusCore/PathSources/DefaultPathSource.swift), and
  /// a path injected by hand would not be the system's either.
  ///
  /// Its words are ``NetworkUnavailableView``'s: English, or Traditional Chinese when the host app is localised for
  /// zh-Hant (or sets `CFBundleAllowMixedLocalizations`).
  ///
  /// The model is the one you pass, else the one in the environment (`EnvironmentValues.networkStatus`),
  /// else a model of `NetworkMonitor.shared` that the modifier creates when the view appears.
  public struct NeedsInternetModifier: ViewModifier {
    private let model: NetworkStatusModel?
    @Environment(\.networkStatus) private var environmentModel
    @State private var sharedModel: NetworkStatusModel?

    /// Creates the modifier; `model` is optional (see the type's description).
    public init(model: NetworkStatusModel? = nil) {
      self.model = model
    }

    /// The view, with the overlay while offline (on watchOS, the view unchanged).
    public func body(content: Content) -> some View {
      #if os(watchOS)
        return content
      #else
        let network = model ?? environmentModel ?? sharedModel
        let offline = network?.coversContentWhileOffline ?? false
        return ZStack {
          content
          if offline {
            NetworkUnavailableView(
              title: Text("No Internet Connection", bundle: .module),
              description: Text("This app requires an active internet connection.", bundle: .module)
            )
            .frame(maxWidth: .infinity, maxHeight: .infinity)
            .background(.ultraThinMaterial)
            .transition(.opacity)
          }
        }
        .animation(.easeInOut, value: offline)
        .onAppear {
          if model == nil, environmentModel == nil, sharedModel == nil {
            sharedModel = NetworkStatusModel()
          }
        }
      #endif
    }
  }

  extension View {
    /// Covers the view with "No Internet Connection" while the device is offline (never before the first path is
    /// known; never on watchOS, see ``NeedsInternetModifier``).
    ///
    /// ```swift
    /// FeedView()
    ///     .needsInternet()
    /// ```
    ///
    /// - Parameter model: The model to follow; by default the environment's, else `NetworkMonitor.shared`'s.
    public func needsInternet(_ model: NetworkStatusModel? = nil) -> some View {
      modifier(NeedsInternetModifier(model: model))
    }
  }

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
#endif
