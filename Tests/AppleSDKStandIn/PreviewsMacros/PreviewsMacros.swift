// The `#Preview` macro's expansion for the stand-in SDK (Tests/AppleSDKStandIn/README.md), loaded by the compiler as
// a plugin library built against the toolchain's own swift-syntax (Scripts/check-apple-build.sh). Like Xcode's, it
// expands to a `DeveloperToolsSupport.PreviewRegistry` whose `makePreview()` builds the preview's body with SwiftUI's
// `ViewBuilder` on the main actor, so that the body is type-checked as it is on a Mac; nothing runs it.
import SwiftSyntax
import SwiftSyntaxMacros

/// `#Preview`'s expansion for a SwiftUI view (Xcode's `PreviewsMacros.SwiftUIView`).
public struct SwiftUIView: DeclarationMacro {
  /// A `PreviewRegistry` whose `makePreview()` builds the body with `ViewBuilder` on the main actor.
  public static func expansion(
    of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    let name = node.arguments.first { $0.label == nil }.map { "\($0.expression.trimmed)" } ?? "nil"
    guard
      let body = node.trailingClosure
        ?? node.arguments.first(where: { $0.label?.text == "body" })?.expression
        .as(ClosureExprSyntax.self)
    else {
      throw PreviewError.noBody
    }
    let registry = context.makeUniqueName("PreviewRegistry")
    let location = context.location(of: node)
    let line = location.map { "\($0.line)" } ?? "0"
    let column = location.map { "\($0.column)" } ?? "0"
    let file = location.map { "\($0.file)" } ?? "\"\""
    return [
      """
      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      struct \(registry): DeveloperToolsSupport.PreviewRegistry {
        static let fileID: String = \(raw: file)
        static let line: Int = \(raw: line)
        static let column: Int = \(raw: column)
        @MainActor static func makePreview() throws -> DeveloperToolsSupport.Preview {
          DeveloperToolsSupport.Preview(\(raw: name)) { () -> any SwiftUI.View in
            @SwiftUI.ViewBuilder @MainActor func body() -> some SwiftUI.View {
              \(body.statements.trimmed)
            }
            return body()
          }
        }
      }
      """
    ]
  }
}

enum PreviewError: Error, CustomStringConvertible {
  case noBody
  var description: String { "#Preview needs a body closure" }
}
