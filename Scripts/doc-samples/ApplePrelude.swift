// The app's own SwiftUI views that the documentation's Apple-only samples show (Scripts/check-doc-samples.py,
// --apple; CONTRIBUTING.md, "Code samples in the docs"). Compiled against the Apple stand-in SDK only.
import SwiftUI

/// The app's feed, which needs the network.
struct FeedView: View {
  var body: some View { Text("Feed") }
}
