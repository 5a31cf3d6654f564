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

    /// Creates the view with NetStatus's own words, in the user's language where NetStatus has it (English and
    /// Traditional Chinese, package resources): "No Internet Connection", "Please check your connection and try
    /// again."
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

    /// Creates the view from finished texts.
    init(title: Text, systemImage: String = "wifi.exclamationmark", description: Text) {
      self.title = title
      self.systemImage = systemImage
      self.description = description
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
      }
    }
  }

  #Preview("No Internet Connection") {
    NetworkUnavailableView()
  }
#endif
