// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// The view controllers and bar items Examples/UIKitSample uses. The SDK's classes are Objective-C classes; without
// Objective-C interop (the stand-in build has none) they are Swift classes with the same names, members and
// isolation. Not in watchOS's UIKit.

/// Apple: `@MainActor class UIViewController : UIResponder`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIViewController: UIResponder {
  /// What the stand-in's subclasses initialize their superclass with (the SDK's designated initializer is
  /// `init(nibName:bundle:)`, which no example uses).
  init(_compilingOnly: Void) {}

  /// Apple: `init?(coder: NSCoder)` (`required`, from `NSCoding`).
  public required init?(coder: NSCoder) {}

  /// Apple: `func viewDidLoad()`.
  open func viewDidLoad() {}

  /// Apple: `var title: String? { get set }`.
  open var title: String?

  /// Apple: `var navigationItem: UINavigationItem { get }`.
  open var navigationItem: UINavigationItem { fatalError("The UIKit stand-in is for compiling only") }
}

/// Apple: `@MainActor class UINavigationController : UIViewController`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UINavigationController: UIViewController {
  /// Apple: `init(rootViewController: UIViewController)`.
  public init(rootViewController: UIViewController) {
    super.init(_compilingOnly: ())
  }

  /// Apple: `init?(coder aDecoder: NSCoder)`.
  public required init?(coder aDecoder: NSCoder) {
    super.init(coder: aDecoder)
  }
}

/// Apple: `@MainActor class UITableViewController : UIViewController`, which also adopts `UITableViewDataSource` and
/// `UITableViewDelegate`: the data source methods below are the protocol's, which the class implements (subclasses
/// override them).
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UITableViewController: UIViewController {
  /// Apple: `init(style: UITableView.Style)`.
  public init(style: UITableView.Style) {
    super.init(_compilingOnly: ())
  }

  /// Apple: `init?(coder: NSCoder)`.
  public required init?(coder: NSCoder) {
    super.init(coder: coder)
  }

  /// Apple: `var tableView: UITableView! { get set }`.
  open var tableView: UITableView!

  /// Apple (`UITableViewDataSource`): `optional func numberOfSections(in tableView: UITableView) -> Int`.
  open func numberOfSections(in tableView: UITableView) -> Int { 1 }

  /// Apple (`UITableViewDataSource`): `optional func tableView(_ tableView: UITableView, titleForHeaderInSection
  /// section: Int) -> String?`.
  open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }

  /// Apple (`UITableViewDataSource`): `func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) ->
  /// Int`.
  open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }

  /// Apple (`UITableViewDataSource`): `func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) ->
  /// UITableViewCell` (iOS 8, tvOS 9: its `IndexPath` is a Swift type).
  @available(iOS 8.0, tvOS 9.0, *)
  @available(watchOS, unavailable)
  open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    fatalError("The UIKit stand-in is for compiling only")
  }
}

/// Apple: `@MainActor class UINavigationItem : NSObject`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UINavigationItem: NSObject {
  /// Apple: `var rightBarButtonItem: UIBarButtonItem? { get set }`.
  open var rightBarButtonItem: UIBarButtonItem?
}

/// Apple: `@MainActor class UIBarItem : NSObject`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIBarItem: NSObject {
  /// Apple: `var title: String? { get set }`.
  open var title: String?
}

/// Apple: `@MainActor class UIBarButtonItem : UIBarItem`.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIBarButtonItem: UIBarItem {}

@available(iOS 14.0, tvOS 14.0, *)
@available(watchOS, unavailable)
extension UIBarButtonItem {
  /// Apple: `@MainActor @preconcurrency convenience init(title: String? = nil, image: UIImage? = nil, primaryAction:
  /// UIAction? = nil, menu: UIMenu? = nil)`.
  @MainActor @preconcurrency
  public convenience init(
    title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil, menu: UIMenu? = nil
  ) {
    self.init()
  }
}
