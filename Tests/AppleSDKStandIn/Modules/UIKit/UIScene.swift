// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// Scenes and their delegates, as Examples/UIKitSample/SceneDelegate.swift uses them. Not in watchOS's UIKit.

/// Apple: `@MainActor class UIScene : UIResponder`.
@available(iOS 13.0, tvOS 13.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIScene: UIResponder {
  /// Apple: `@MainActor class UIScene.ConnectionOptions : NSObject`.
  open class ConnectionOptions: NSObject {}
}

/// Apple: `@MainActor class UIWindowScene : UIScene`.
@available(iOS 13.0, tvOS 13.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIWindowScene: UIScene {}

/// Apple: `@MainActor class UISceneSession : NSObject`.
@available(iOS 13.0, tvOS 13.0, *)
@available(watchOS, unavailable)
@MainActor
open class UISceneSession: NSObject {}

/// Apple: `@MainActor protocol UISceneDelegate : NSObjectProtocol`. Its requirements are all `optional`
/// (Objective-C); without Objective-C interop the stand-in cannot mark them so, and declares only the one the
/// examples implement, which a conformer must then implement.
@available(iOS 13.0, tvOS 13.0, *)
@available(watchOS, unavailable)
@MainActor
public protocol UISceneDelegate: NSObjectProtocol {
  /// Apple: `optional func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions:
  /// UIScene.ConnectionOptions)`.
  func scene(
    _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
}

/// Apple: `@MainActor protocol UIWindowSceneDelegate : UISceneDelegate`. Its requirements are `optional`, as
/// `UISceneDelegate`'s are: the stand-in declares the one the examples implement.
@available(iOS 13.0, tvOS 13.0, *)
@available(watchOS, unavailable)
@MainActor
public protocol UIWindowSceneDelegate: UISceneDelegate {
  /// Apple: `optional var window: UIWindow? { get set }`.
  var window: UIWindow? { get set }
}
