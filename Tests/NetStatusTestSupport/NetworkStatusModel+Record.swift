import NetStatusCore
import Observation

extension NetworkStatusModel {
  /// Records `read(self)` after every change of what it reads, through Observation (the way SwiftUI follows a
  /// model): on the main actor, once per change, for as long as the model lives.
  @MainActor
  package func record<Value: Sendable>(
    _ read: @escaping @MainActor (NetworkStatusModel) -> Value, into recorder: Recorder<Value>
  ) {
    withObservationTracking {
      _ = read(self)
    } onChange: { [weak self] in
      // Weak: the model keeps this closure (in its registrar) until the next change, which may never come; a strong
      // capture would be a cycle keeping the model and its monitor alive (LeakSanitizer found it).
      Task { @MainActor in
        guard let model = self else { return }
        recorder.append(read(model))
        model.record(read, into: recorder)
      }
    }
  }
}
