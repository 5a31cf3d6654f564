// The UIKit stand-in (Tests/AppleSDKStandIn/README.md): the members NetStatus uses, with Apple's Swift signatures,
// isolation and availability, for compiling only. As in Apple's SDK, importing UIKit also imports Foundation.
@_exported import Foundation

/// Apple: `@MainActor class UIResponder : NSObject`. iOS 2.0; not in watchOS's UIKit.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIResponder: NSObject {}

/// Apple: `@MainActor class UIApplication : UIResponder`. iOS 2.0; not in watchOS's UIKit.
@available(iOS 2.0, *)
@available(watchOS, unavailable)
@MainActor
open class UIApplication: UIResponder {
  /// Apple: `class var shared: UIApplication { get }`.
  open class var shared: UIApplication { fatalError("The UIKit stand-in is for compiling only") }

  /// Apple: `nonisolated class let willEnterForegroundNotification: NSNotification.Name`, iOS 4.0.
  @available(iOS 4.0, *)
  @available(watchOS, unavailable)
  nonisolated public static let willEnterForegroundNotification = NSNotification.Name(
    "UIApplicationWillEnterForegroundNotification")

  /// Apple: `nonisolated class let didBecomeActiveNotification: NSNotification.Name`.
  nonisolated public static let didBecomeActiveNotification = NSNotification.Name(
    "UIApplicationDidBecomeActiveNotification")
}
