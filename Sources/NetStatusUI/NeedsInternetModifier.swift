#if canImport(SwiftUI)
  import NetStatus
  import SwiftUI

  /// Covers a view while the internet is not there for it, saying why: NetStatus's ``InternetUnavailability``.
  ///
  /// - **Offline** (the path is unsatisfied): "No Internet Connection".
  /// - **A captive portal** (a ``ConnectivityMonitor`` got another answer than the expected one): "Log In to This
  ///   Network", with a "Log In" link to the page the portal redirected to, when it redirected to an `http` or
  ///   `https` URL.
  /// - **No internet access** (a route, but the ``ConnectivityMonitor``'s check was refused, unreachable or timed
  ///   out): "No Internet Access".
  ///
  /// The portal and no-access cases need a model that follows a ``ConnectivityMonitor``
  /// (`NetworkStatusModel(connectivity:)`); without one, a satisfied path is taken as it is, since nothing has
  /// checked the internet. Nothing is covered before the first path is known (an app never flashes "offline" at
  /// launch), while the connectivity check has not answered yet, or when the path requires a connection
  /// (`NetworkPath.Status.requiresConnection`: a connection attempt brings the network up there, an on-demand VPN or
  /// cellular that wakes, so the app must be free to make it). The cover fades in and out.
  ///
  /// On watchOS the modifier does nothing: `NWPathMonitor` reports an ordinary watch app as offline whatever the
  /// network (Apple's TN3135), so NetStatus reports no path there
  /// (Sources/NetStatusMonitor/Monitor/DefaultPathSource.swift), and a path injected by hand would not be the system's
  /// either.
  ///
  /// Its words are package resources: English, or Traditional Chinese when the host app is localised for zh-Hant
  /// (or sets `CFBundleAllowMixedLocalizations`).
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
        let unavailability = network?.internetUnavailability
        return ZStack {
          content
          if let unavailability {
            Self.cover(for: unavailability)
              .frame(maxWidth: .infinity, maxHeight: .infinity)
              .background(.ultraThinMaterial)
              .transition(.opacity)
          }
        }
        .animation(.easeInOut, value: unavailability)
        .onAppear {
          if model == nil, environmentModel == nil, sharedModel == nil {
            sharedModel = NetworkStatusModel()
          }
        }
      #endif
    }
  }

  extension NeedsInternetModifier {
    /// What covers the content, for each reason.
    @ViewBuilder
    static func cover(for unavailability: InternetUnavailability) -> some View {
      switch unavailability {
      case .offline:
        NetworkUnavailableView(
          title: Text("No Internet Connection", bundle: .module),
          description: Text("This app requires an active internet connection.", bundle: .module)
        )
      case .captivePortal(let loginURL):
        NetworkUnavailableView(
          title: Text("Log In to This Network", bundle: .module),
          systemImage: "person.badge.key",
          description: Text("This network needs you to log in before it reaches the internet.", bundle: .module),
          loginURL: loginURL.flatMap { URL(string: $0) }
        )
      case .noInternetAccess:
        NetworkUnavailableView(
          title: Text("No Internet Access", bundle: .module),
          description: Text("This network is connected, but the internet does not answer.", bundle: .module)
        )
      }
    }
  }

  extension View {
    /// Covers the view while the internet is not there for it: offline, held by a captive portal, or without
    /// internet access (the last two with a model that follows a `ConnectivityMonitor`); never before the first path
    /// is known; never on watchOS. ``NeedsInternetModifier`` says what is judged in each case.
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
#endif
