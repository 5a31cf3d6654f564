@_exported import DeveloperToolsSupport

/// Apple: `@freestanding(declaration) macro Preview(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor ()
/// -> any View)`. Its expansion (Tests/AppleSDKStandIn/PreviewsMacros) type-checks the body as the real one does: a
/// `PreviewRegistry` whose `makePreview()` builds it (the macro: macOS 10.15, iOS 13, tvOS 13, watchOS 6; its expansion
/// is macOS 14, iOS 17, tvOS 17, watchOS 10).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@freestanding(declaration)
public macro Preview(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View) =
  #externalMacro(module: "PreviewsMacros", type: "SwiftUIView")

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Preview {
  /// Apple: `@MainActor init(_ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>..., body: @escaping
  /// @MainActor () -> any View)`.
  @MainActor
  public init(_ name: String? = nil, body: @escaping @MainActor () -> any View) {
    self.init(_compilingOnly: ())
  }
}
