// The UIKit stand-in (Tests/AppleSDKStandIn/README.md): the members NetStatus uses, with Apple's Swift signatures,
// isolation and availability, for compiling only. As in Apple's SDK, importing UIKit also imports Foundation.
@_exported import Foundation

/// Apple: `@MainActor class UIResponder : NSObject`.
@MainActor
open class UIResponder: NSObject {}

/// Apple: `@MainActor class UIApplication : UIResponder`. Not in watchOS's UIKit.
@available(watchOS, unavailable)
@MainActor
open class UIApplication: UIResponder {
  /// Apple: `class var shared: UIApplication { get }`.
  open class var shared: UIApplication { fatalError("The UIKit stand-in is for compiling only") }

  /// Apple: `nonisolated class let willEnterForegroundNotification: NSNotification.Name`.
  nonisolated public static let willEnterForegroundNotification = NSNotification.Name(
    "UIApplicationWillEnterForegroundNotification")

  /// Apple: `nonisolated class let didBecomeActiveNotification: NSNotification.Name`.
  nonisolated public static let didBecomeActiveNotification = NSNotification.Name(
    "UIApplicationDidBecomeActiveNotification")
}
