// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// Menu elements and closure-based actions, as a bar button item's `primaryAction` takes them
// (Examples/UIKitSample). Not in watchOS's UIKit.

/// Apple: `@MainActor class UIMenuElement : NSObject`.
@available(iOS 13.0, tvOS 13.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIMenuElement: NSObject {
  /// Apple: `struct UIMenuElement.Attributes`, an `OptionSet`.
  public struct Attributes: OptionSet, Sendable {
    /// Apple: `init(rawValue: UInt)`.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public let rawValue: UInt
  }

  /// Apple: `enum UIMenuElement.State`.
  public enum State: Int, Sendable {
    case off
    case on
    case mixed
  }
}

/// Apple: `@MainActor class UIMenu : UIMenuElement`.
@available(iOS 13.0, tvOS 13.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIMenu: UIMenuElement {}

/// Apple: `@MainActor class UIAction : UIMenuElement`.
@available(iOS 13.0, tvOS 13.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIAction: UIMenuElement {
  /// Apple: `struct UIAction.Identifier`, `Hashable` and `RawRepresentable`.
  public struct Identifier: Hashable, RawRepresentable {
    /// Apple: `init(rawValue: String)`.
    public init(rawValue: String) { self.rawValue = rawValue }
    public let rawValue: String
  }
}

@available(iOS 13.0, tvOS 14.0, *)
@available(watchOS, unavailable)
extension UIAction {
  /// Apple: `@MainActor @preconcurrency convenience init(title: String = "", image: UIImage? = nil, identifier:
  /// UIAction.Identifier? = nil, discoverabilityTitle: String? = nil, attributes: UIMenuElement.Attributes = [],
  /// state: UIMenuElement.State = .off, handler: @escaping UIActionHandler)` (iOS 13, tvOS 14).
  @MainActor @preconcurrency
  public convenience init(
    title: String = "", image: UIImage? = nil, identifier: UIAction.Identifier? = nil,
    discoverabilityTitle: String? = nil, attributes: UIMenuElement.Attributes = [], state: UIMenuElement.State = .off,
    handler: @escaping UIActionHandler
  ) {
    self.init()
  }
}

/// Apple: `typealias UIActionHandler = (UIAction) -> Void` (documented without versions; not in watchOS).
@available(watchOS, unavailable)
public typealias UIActionHandler = (UIAction) -> Void
