import Foundation

/// The seed examples' side of the driver that runs them (Scripts/run-seed-examples.py), kept apart from the flows
/// themselves.
///
/// The driver changes the network, reads what the example prints, and writes lines to its standard input:
/// - `ping N`: answered with `pong N` from the main queue, so a main queue that stopped shows as a missing pong;
/// - `tap`: the example's button (the tutorials' start/stop button), run on the main actor.
public enum Harness {
  /// Answers the driver's lines from a thread of its own. (The driver runs the example under `stdbuf -oL`, so that
  /// what it prints reaches the pipe line by line, as it reaches a terminal.)
  public static func start(onTap: (@MainActor @Sendable () -> Void)? = nil) {
    let reader = Thread {
      while let line = readLine() {
        DispatchQueue.main.async {
          MainActor.assumeIsolated {
            if line.hasPrefix("ping ") {
              print("pong " + line.dropFirst(5))
            } else if line == "tap", let onTap {
              onTap()
            }
          }
        }
      }
    }
    reader.start()
  }
}
