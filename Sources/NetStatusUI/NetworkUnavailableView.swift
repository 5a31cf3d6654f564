#if canImport(SwiftUI)
  import SwiftUI

  /// "No Internet Connection", as a `ContentUnavailableView`.
  ///
  /// `ContentUnavailableView` needs iOS 17, macOS 14, tvOS 17, watchOS 10 or visionOS 1: NetStatus's deployment
  /// targets (which it sets, with Observation), so it is used without an availability check.
  ///
  /// ```swift
  /// if !network.isConnected {
  ///     NetworkUnavailableView()
  /// }
  /// ```
  public struct NetworkUnavailableView: View {
    private let title: Text
    private let systemImage: String
    private let description: Text
    private let loginURL: URL?

    /// Creates the view with NetStatus's own words (package resources, in English and Traditional Chinese): "No
    /// Internet Connection", "Please check your connection and try again."
    ///
    /// Which language is shown is the app's, not NetStatus's: iOS and macOS pick a package's strings among the
    /// languages the host app itself is localised for. A Traditional Chinese user sees the Chinese words only when
    /// the app is localised for zh-Hant (or sets `CFBundleAllowMixedLocalizations` in its Info.plist); in an
    /// English-only app, English. To choose the words yourself, use ``init(_:systemImage:description:)``.
    ///
    /// - Parameter systemImage: The SF Symbol shown above the headline.
    public init(systemImage: String = "wifi.exclamationmark") {
      self.init(
        title: Text("No Internet Connection", bundle: .module),
        systemImage: systemImage,
        description: Text("Please check your connection and try again.", bundle: .module)
      )
    }

    /// Creates the view with your own words, looked up in your app's strings.
    ///
    /// - Parameters:
    ///   - title: The headline.
    ///   - systemImage: The SF Symbol shown above it.
    ///   - description: What the user can do about it.
    public init(
      _ title: LocalizedStringKey,
      systemImage: String = "wifi.exclamationmark",
      description: LocalizedStringKey
    ) {
      self.init(title: Text(title), systemImage: systemImage, description: Text(description))
    }

    /// Creates the view from finished texts, with a "Log In" link to `loginURL` (a captive portal's page) if given.
    init(title: Text, systemImage: String = "wifi.exclamationmark", description: Text, loginURL: URL? = nil) {
      self.title = title
      self.systemImage = systemImage
      self.description = description
      self.loginURL = loginURL
    }

    /// The view's content.
    public var body: some View {
      ContentUnavailableView {
        Label {
          title
        } icon: {
          Image(systemName: systemImage)
        }
      } description: {
        description
      } actions: {
        if let loginURL {
          Link(destination: loginURL) {
            Text("Log In", bundle: .module)
          }
        }
      }
    }
  }
#endif
