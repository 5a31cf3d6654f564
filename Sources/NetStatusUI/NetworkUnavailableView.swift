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
    private let title: LocalizedStringKey
    private let systemImage: String
    private let description: LocalizedStringKey

    /// Creates the view.
    ///
    /// - Parameters:
    ///   - title: The headline.
    ///   - systemImage: The SF Symbol shown above it.
    ///   - description: What the user can do about it.
    public init(
      _ title: LocalizedStringKey = "No Internet Connection",
      systemImage: String = "wifi.exclamationmark",
      description: LocalizedStringKey = "Please check your connection and try again."
    ) {
      self.title = title
      self.systemImage = systemImage
      self.description = description
    }

    /// The view's content.
    public var body: some View {
      ContentUnavailableView {
        Label(title, systemImage: systemImage)
      } description: {
        Text(description)
      }
    }
  }

  #Preview("No Internet Connection") {
    NetworkUnavailableView()
  }
#endif
