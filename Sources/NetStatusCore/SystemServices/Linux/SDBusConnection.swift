#if os(Linux)
  import NetStatusSystem
  import CNetStatusShim
  import Glibc

  /// A D-Bus connection through sd-bus, loaded at run time (CNetStatusShim's `CNetStatusSDBus.h`): property reads
  /// and signal subscriptions, used by one thread at a time.
  ///
  /// `@unchecked Sendable`: the connection is made on a monitor's starting thread and then used only by the one
  /// thread ``NetworkManagerWatch`` hands it to; nothing else touches it, so nothing needs to guard it.
  final class SDBusConnection: @unchecked Sendable {
    /// Why a connection could not be made or used.
    struct Failure: Error, Sendable, Hashable {
      /// The negative errno sd-bus returned.
      var code: Int32
      /// The D-Bus error's name, when the peer answered with one.
      var errorName: String
      /// What failed, for people.
      var description: String
    }

    private let bus: OpaquePointer

    /// Loads libsystemd's sd-bus (once per process): `nil`, or why it cannot be used.
    static func loadLibrary() -> String? {
      var reason = [CChar](repeating: 0, count: 256)
      guard cns_sdbus_load(&reason, reason.count) != 0 else { return nil }
      return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` if set, else `/run/dbus/system_bus_socket`), or to the
    /// bus at `address`.
    ///
    /// - Parameter callTimeout: How long a property read may wait for its answer.
    init(address: String?, callTimeout: Duration) throws(Failure) {
      let microseconds =
        UInt64(callTimeout.components.seconds) * 1_000_000
        + UInt64(callTimeout.components.attoseconds / 1_000_000_000_000)
      var made: OpaquePointer?
      let result = cns_bus_open(address, microseconds, &made)
      guard result >= 0, let made else {
        throw Failure(
          code: -result, errorName: "",
          description: "cannot connect to the \(address.map { "bus at \($0)" } ?? "system bus"): "
            + SystemErrno.describe(-result))
      }
      bus = made
    }

    deinit { cns_bus_close(bus) }

    /// Counts every signal matching `rule` (a D-Bus match rule) in ``takeSignals()``.
    func addMatch(_ rule: String) throws(Failure) {
      let result = cns_bus_add_match(bus, rule)
      guard result >= 0 else {
        throw Failure(code: -result, errorName: "", description: "AddMatch failed: " + SystemErrno.describe(-result))
      }
    }

    /// The connection's descriptor.
    var fd: Int32 { cns_bus_fd(bus) }
    /// The poll(2) events to wait for now.
    var events: Int16 { Int16(truncatingIfNeeded: cns_bus_events(bus)) }
    /// How long to wait at most, in milliseconds, or -1.
    var timeoutMilliseconds: Int32 { cns_bus_timeout_ms(bus) }

    /// Handles every pending message.
    ///
    /// - Throws: ``Failure`` when the connection is lost.
    func processAll() throws(Failure) {
      while true {
        let result = cns_bus_process(bus)
        if result == 0 { return }
        if result < 0 {
          throw Failure(
            code: -result, errorName: "", description: "the bus connection was lost: " + SystemErrno.describe(-result))
        }
      }
    }

    /// The number of matching signals handled since the last call.
    func takeSignals() -> UInt64 { cns_bus_take_signals(bus) }

    /// A `u` property of `path`'s `interface` at `destination`.
    func uint32(_ destination: String, _ path: String, _ interface: String, _ property: String) throws(Failure)
      -> UInt32
    {
      var value: UInt32 = 0
      var name = [CChar](repeating: 0, count: 256)
      let result = cns_bus_get_u32(bus, destination, path, interface, property, &value, &name, name.count)
      try check(result, name, property)
      return value
    }

    /// An `s` property.
    func string(_ destination: String, _ path: String, _ interface: String, _ property: String) throws(Failure)
      -> String
    {
      var value: UnsafeMutablePointer<CChar>?
      var name = [CChar](repeating: 0, count: 256)
      let result = cns_bus_get_string(bus, destination, path, interface, property, &value, &name, name.count)
      try check(result, name, property)
      defer { free(value) }
      return value.map { String(cString: $0) } ?? ""
    }

    /// An `ao` or `as` property.
    func strings(_ destination: String, _ path: String, _ interface: String, _ property: String) throws(Failure)
      -> [String]
    {
      var value: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
      var name = [CChar](repeating: 0, count: 256)
      let result = cns_bus_get_strv(bus, destination, path, interface, property, &value, &name, name.count)
      try check(result, name, property)
      defer { cns_strv_free(value) }
      var strings: [String] = []
      var index = 0
      while let value, let item = value[index] {
        strings.append(String(cString: item))
        index += 1
      }
      return strings
    }

    private func check(_ result: Int32, _ name: [CChar], _ property: String) throws(Failure) {
      guard result < 0 else { return }
      let errorName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw Failure(
        code: -result, errorName: errorName, description: "reading \(property): " + SystemErrno.describe(-result))
    }
  }
#endif
