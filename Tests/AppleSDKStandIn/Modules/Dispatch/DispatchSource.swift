// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (A stand-in copies Apple's declarations; each quotes Apple's declaration.)
// Dispatch sources in the Dispatch stand-in (Tests/AppleSDKStandIn/README.md): Apple's Swift signatures, for
// compiling only; nothing here runs. In Apple's SDK `DispatchSource` and the source protocols are Objective-C classes
// and protocols (`OS_dispatch_source`) that the overlay extends; without Objective-C they are Swift ones here.

/// Apple: `class DispatchSource`.
public final class DispatchSource: DispatchObject, @unchecked Sendable {
  /// Apple: `class func makeSignalSource(signal: Int32, queue: DispatchQueue? = nil) -> any DispatchSourceSignal`.
  public class func makeSignalSource(signal: Int32, queue: DispatchQueue? = nil) -> any DispatchSourceSignal {
    fatalError("The Dispatch stand-in is for compiling only")
  }
}

/// Apple: `protocol DispatchSourceProtocol : NSObjectProtocol` (class-bound here, as an Objective-C protocol is).
public protocol DispatchSourceProtocol: AnyObject {}

extension DispatchSourceProtocol {
  /// Apple: `typealias DispatchSourceHandler = @convention(block) () -> Void` (the documentation prints it without
  /// its convention; the mangling of the methods that take it, `yyXL`, is a block).
  public typealias DispatchSourceHandler = @convention(block) () -> Void

  /// Apple: `func setEventHandler(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], handler:
  /// Self.DispatchSourceHandler?)`.
  public func setEventHandler(
    qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], handler: Self.DispatchSourceHandler?
  ) {}

  /// Apple: `func resume()`.
  public func resume() {}

  /// Apple: `func cancel()`.
  public func cancel() {}
}

/// Apple: `protocol DispatchSourceSignal : DispatchSourceProtocol, Sendable` (as DispatchSourceTimer and
/// DispatchSourceProcess are declared).
public protocol DispatchSourceSignal: DispatchSourceProtocol, Sendable {}
