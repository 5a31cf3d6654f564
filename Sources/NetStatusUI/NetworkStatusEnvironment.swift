#if canImport(SwiftUI)
  import NetStatus
  import SwiftUI

  /// The environment key of `EnvironmentValues.networkStatus`. A classic key rather than `@Entry`, whose macro
  /// needs Xcode 16's SDKs; NetStatus needs Xcode 26 in any case (swift-tools-version 6.2, Package.swift), so this
  /// is a matter of taste, not of support.
  private struct NetworkStatusKey: EnvironmentKey {
    static let defaultValue: NetworkStatusModel? = nil
  }

  extension EnvironmentValues {
    /// The network status model that ``NeedsInternetModifier`` and your own views read, if one was injected.
    ///
    /// ```swift
    /// @Environment(\.networkStatus) private var network
    ///
    /// var body: some View {
    ///     Text(network?.isConnected == true ? "Online" : "Offline")
    /// }
    /// ```
    public var networkStatus: NetworkStatusModel? {
      get { self[NetworkStatusKey.self] }
      set { self[NetworkStatusKey.self] = newValue }
    }
  }

  extension View {
    /// Injects a network status model for this view and its descendants, for example one driven by a
    /// `ScriptedPathSource` (NetStatusTesting) in a preview.
    ///
    /// ```swift
    /// ContentView()
    ///     .networkStatus(NetworkStatusModel(monitor: NetworkMonitor(source: ScriptedPathSource(.offline))))
    /// ```
    public func networkStatus(_ model: NetworkStatusModel) -> some View {
      environment(\.networkStatus, model)
    }
  }
#endif
