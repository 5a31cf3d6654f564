// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// The views, the table and its cells' content configuration, windows and images Examples/UIKitSample uses.

/// Apple: `@MainActor class UIView : UIResponder`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIView: UIResponder {}

/// Apple: `@MainActor class UIScrollView : UIView`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIScrollView: UIView {}

/// Apple: `@MainActor class UITableView : UIScrollView`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UITableView: UIScrollView {
  /// Apple: `enum UITableView.Style`.
  public enum Style: Int, Sendable {
    case plain
    case grouped
    /// Apple: `case insetGrouped` (iOS 13; not in tvOS).
    @available(iOS 13.0, *)
    @available(tvOS, unavailable)
    case insetGrouped
  }

  /// Apple: `func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String)` (iOS 6).
  @available(iOS 6.0, *)
  @available(watchOS, unavailable)
  open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {}

  /// Apple: `func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell`
  /// (iOS 6).
  @available(iOS 6.0, *)
  @available(watchOS, unavailable)
  open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
    fatalError("The UIKit stand-in is for compiling only")
  }

  /// Apple: `func reloadData()`.
  open func reloadData() {}
}

/// Apple: `@MainActor class UITableViewCell : UIView`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UITableViewCell: UIView {
  /// Apple: `enum UITableViewCell.SelectionStyle`.
  public enum SelectionStyle: Int, Sendable {
    case none
    case blue
    case gray
    /// Apple: ``case `default` `` (iOS 7).
    @available(iOS 7.0, *)
    case `default`
  }

  /// Apple: `var selectionStyle: UITableViewCell.SelectionStyle { get set }`.
  open var selectionStyle: SelectionStyle {
    get { .default }
    set {}
  }
}

@available(iOS 14.0, tvOS 14.0, *)
@available(watchOS, unavailable)
extension UITableViewCell {
  /// Apple: `@MainActor @preconcurrency func defaultContentConfiguration() -> UIListContentConfiguration`.
  @MainActor @preconcurrency
  public func defaultContentConfiguration() -> UIListContentConfiguration { UIListContentConfiguration() }

  /// Apple: `@MainActor @preconcurrency var contentConfiguration: (any UIContentConfiguration)? { get set }`.
  @MainActor @preconcurrency
  public var contentConfiguration: (any UIContentConfiguration)? {
    get { nil }
    set {}
  }
}

/// Apple: `protocol UIContentConfiguration` (its requirements, `makeContentView()` and `updated(for:)`, are left
/// out: no example calls or implements them).
@available(iOS 14.0, tvOS 14.0, *)
@available(watchOS, unavailable)
public protocol UIContentConfiguration {}

/// Apple: `struct UIListContentConfiguration`, a `UIContentConfiguration` and `Hashable`.
@available(iOS 14.0, tvOS 14.0, *)
@available(watchOS, unavailable)
public struct UIListContentConfiguration: UIContentConfiguration, Hashable {
  init() {}
  /// Apple: `var text: String? { get set }`.
  public var text: String?
  /// Apple: `var image: UIImage? { get set }`.
  public var image: UIImage?
}

/// Apple: `@MainActor class UIWindow : UIView`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIWindow: UIView {
  /// Apple: `init(windowScene: UIWindowScene)` (iOS 13, tvOS 13).
  @available(iOS 13.0, tvOS 13.0, *)
  @available(watchOS, unavailable)
  public init(windowScene: UIWindowScene) {}

  /// Apple: `var rootViewController: UIViewController? { get set }` (iOS 4).
  @available(iOS 4.0, *)
  @available(watchOS, unavailable)
  open var rootViewController: UIViewController? {
    get { nil }
    set {}
  }

  /// Apple: `func makeKeyAndVisible()`.
  open func makeKeyAndVisible() {}
}

/// Apple: `class UIImage : NSObject`, immutable and `Sendable`. In watchOS's UIKit too.
@available(iOS 2.0, watchOS 2.0, *)
open class UIImage: NSObject, @unchecked Sendable {
  /// Apple: `init?(systemName name: String)` (iOS 13, tvOS 13, watchOS 6).
  @available(iOS 13.0, tvOS 13.0, watchOS 6.0, *)
  public init?(systemName name: String) {}
}

@available(iOS 7.0, tvOS 9.0, watchOS 2.0, *)
extension IndexPath {
  /// Apple (UIKit): `var row: Int { get set }`.
  public var row: Int {
    get { fatalError("The UIKit stand-in is for compiling only") }
    set {}
  }

  /// Apple (UIKit): `var section: Int { get set }`.
  public var section: Int {
    get { fatalError("The UIKit stand-in is for compiling only") }
    set {}
  }
}
