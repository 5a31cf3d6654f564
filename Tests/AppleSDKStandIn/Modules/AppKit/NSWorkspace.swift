// The AppKit stand-in (Tests/AppleSDKStandIn/README.md): the members NetStatus uses, with Apple's Swift signatures,
// isolation and availability, for compiling only. As in Apple's SDK, importing AppKit also imports Foundation.
@_exported import Foundation

/// Apple: `class NSWorkspace : NSObject`. Not main-actor isolated: its notification center may be used from any
/// thread (macOS 10.6 and later). Unavailable to Mac Catalyst, as AppKit's API is (`API_UNAVAILABLE(macCatalyst)`).
@available(macCatalyst, unavailable)
open class NSWorkspace: NSObject, @unchecked Sendable {
  /// Apple: `class var shared: NSWorkspace { get }`.
  open class var shared: NSWorkspace { fatalError("The AppKit stand-in is for compiling only") }

  /// Apple: `var notificationCenter: NotificationCenter { get }`.
  open var notificationCenter: NotificationCenter { fatalError("The AppKit stand-in is for compiling only") }

  /// Apple: `class let didWakeNotification: NSNotification.Name`.
  public static let didWakeNotification = NSNotification.Name("NSWorkspaceDidWakeNotification")

  /// Apple: `class let willSleepNotification: NSNotification.Name`.
  public static let willSleepNotification = NSNotification.Name("NSWorkspaceWillSleepNotification")
}
