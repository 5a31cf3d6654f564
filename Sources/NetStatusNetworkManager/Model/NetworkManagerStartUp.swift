/// The wait for NetworkManager's first status when a monitor of the machine's own namespace starts (up to
/// `NetworkManagerWatch`'s start-up budget on Linux), for a program that stops meanwhile.
package enum NetworkManagerStartUp {
  /// Ends every wait for the system bus's NetworkManager's first status at once: the monitors starting go on
  /// without its view (the status says why). `netstatus` calls it on a stop signal, so that a bus or
  /// NetworkManager that does not answer never delays its exit. Nothing happens when nothing waits, and nothing
  /// outside Linux.
  ///
  /// - Parameter reason: Why, as the status says it after "not waited for: ".
  package static func abandon(because reason: String = "the program is stopping") {
    #if os(Linux)
      NetworkManagerWatch.system.abandonStartUp(because: reason)
    #endif
  }
}
