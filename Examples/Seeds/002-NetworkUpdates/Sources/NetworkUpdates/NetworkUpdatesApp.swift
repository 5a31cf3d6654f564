// Seed 002 with NetStatus: loops over the shared monitor's changes on the main actor, in an `async` main (which on
// Linux runs the main queue with dispatchMain()).
import SeedHarness

@main
struct NetworkUpdatesApp {
  @MainActor
  static func main() async {
    Harness.start()
    // A settings screen opens and closes first: its loop ends, and the feed's, after it, still gets every change.
    await Screen(name: "settings").appearAndGoAway()
    await Screen(name: "feed").follow()
  }
}
