#if os(Linux)
  import NetStatusSystem
  import CNetStatusShim
  import Glibc

  /// A D-Bus connection through sd-bus, loaded at run time (CNetStatusShim's `CNetStatusSDBus.h`), that never
  /// blocks: match rules and property reads are sent at once, and their answers and the signals come back as
  /// ``Event``s from ``processAll()``, for the caller's poll(2) loop to drive (``fd``, ``events``,
  /// ``timeoutMilliseconds``).
  ///
  /// `@unchecked Sendable`: the connection is made on a monitor's starting thread and then used only by the one
  /// thread ``NetworkManagerWatch`` hands it to (the thread's start orders the two); nothing else touches it, so
  /// nothing needs to guard it.
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

    /// What the connection received.
    enum Event: Sendable, Hashable {
      /// The answer to the read or call `token`, from `sender` (the unique name of the connection that answered;
      /// empty when sd-bus made the answer itself, as its timeout).
      case answer(token: UInt64, sender: String, Result<NetworkManagerMirror.Value, NetworkManagerMirror.ReadFailure>)
      /// The bus answered an AddMatch: `nil`, or why it refused it.
      case matchInstalled(NetworkManagerMirror.ReadFailure?)
      /// A property's value from a signal: `PropertiesChanged`, or one of the properties `InterfacesAdded` carries.
      case changed(path: String, interface: String, property: String, NetworkManagerMirror.Value)
      /// `PropertiesChanged` naming a property without its value.
      case invalidated(path: String, interface: String, property: String)
      case deviceAdded(String)
      case deviceRemoved(String)
      /// `NameOwnerChanged` of the well-known name `name`: the new owner, empty when the name left the bus.
      case ownerChanged(name: String, owner: String)
      /// An object and its interfaces: one of ``getManagedObjects(_:_:token:timeout:)``'s answer `token` (its
      /// properties follow as ``listedProperty(token:path:interface:property:_:)``), or `InterfacesAdded` (`token`
      /// 0, its properties following as ``changed(path:interface:property:_:)``, as any signal's).
      case object(token: UInt64, path: String, interfaces: [String])
      /// A property of an object a listing's ``object(token:path:interfaces:)`` announced (`token` never 0).
      case listedProperty(token: UInt64, path: String, interface: String, property: String, NetworkManagerMirror.Value)
      /// `InterfacesRemoved`: the object at `path` lost these interfaces.
      case objectRemoved(path: String, interfaces: [String])
      /// The end of ``getManagedObjects(_:_:token:timeout:)``'s answer `token`: `nil`, or why it failed.
      case listed(token: UInt64, NetworkManagerMirror.ReadFailure?)
      /// A method call to an object ``export(_:)`` exported, answered already with an empty return if the caller
      /// expects an answer: its object `path`, `interface`, `method`, its first argument if it is an object path,
      /// its second if it is a byte.
      case methodCall(sender: String, path: String, interface: String, method: String, object: String?, byte: UInt8?)
    }

    private let bus: OpaquePointer

    /// Loads libsystemd's sd-bus (once per process): `nil`, or why it cannot be used.
    static func loadLibrary() -> String? {
      var reason = [CChar](repeating: 0, count: 256)
      guard cns_sdbus_load(&reason, reason.count) != 0 else { return nil }
      return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` if set, else `/run/dbus/system_bus_socket`), or to the
    /// bus at `address`, without waiting for it to answer.
    init(address: String?) throws(Failure) {
      var made: OpaquePointer?
      let result = cns_bus_open(address, &made)
      guard result >= 0, let made else {
        throw Failure(
          code: -result, errorName: "",
          description: "cannot connect to the \(address.map { "bus at \($0)" } ?? "system bus"): "
            + Errno.describe(-result))
      }
      bus = made
    }

    deinit { cns_bus_close(bus) }

    /// Subscribes to the signals matching `rule` (a D-Bus match rule); the bus's answer is a
    /// ``Event/matchInstalled(_:)``.
    func addMatch(_ rule: String) throws(Failure) {
      let result = cns_bus_add_match(bus, rule)
      guard result >= 0 else {
        throw Failure(code: -result, errorName: "", description: "AddMatch failed: " + Errno.describe(-result))
      }
    }

    /// Sends `Get(interface, property)` to `path` at `destination`; the answer is an ``Event/answer(token:sender:_:)``,
    /// sd-bus's timeout error after `timeout` once the connection runs.
    func get(
      _ destination: String, _ path: String, _ interface: String, _ property: String, token: UInt64,
      timeout: Duration
    ) throws(Failure) {
      let result = cns_bus_get(bus, destination, path, interface, property, token, Self.microseconds(timeout))
      guard result >= 0 else {
        throw Failure(
          code: -result, errorName: "", description: "reading \(property): " + Errno.describe(-result))
      }
    }

    /// Calls `GetManagedObjects` of the object manager at `path` of `destination`; its answer is a series of
    /// ``Event/object(token:path:interfaces:)`` and ``Event/listedProperty(token:path:interface:property:_:)``, then an
    /// ``Event/listed(token:_:)``.
    func getManagedObjects(_ destination: String, _ path: String, token: UInt64, timeout: Duration) throws(Failure) {
      let result = cns_bus_get_managed_objects(bus, destination, path, token, Self.microseconds(timeout))
      guard result >= 0 else {
        throw Failure(code: -result, errorName: "", description: "GetManagedObjects: " + Errno.describe(-result))
      }
    }

    /// Calls `interface`.`method`(`object`, `numbers`) (signature `oan`) on `path` of `destination`; the answer is
    /// an ``Event/answer(token:sender:_:)`` (``NetworkManagerMirror/Value/other(signature:)`` with an empty
    /// signature when it returns nothing).
    func call(
      _ destination: String, _ path: String, _ interface: String, _ method: String, object: String,
      numbers: [Int16], token: UInt64, timeout: Duration
    ) throws(Failure) {
      let result = numbers.withUnsafeBufferPointer {
        cns_bus_call_object_int16s(
          bus, destination, path, interface, method, object, $0.baseAddress, $0.count, token,
          Self.microseconds(timeout))
      }
      guard result >= 0 else {
        throw Failure(code: -result, errorName: "", description: "\(method): " + Errno.describe(-result))
      }
    }

    /// Exports an object at `path`: each method call to it is answered at once with an empty return (unless sent
    /// with NO_REPLY_EXPECTED, as iwd calls its agents) and becomes an
    /// ``Event/methodCall(sender:path:interface:method:object:byte:)``.
    func export(_ path: String) throws(Failure) {
      let result = cns_bus_export(bus, path)
      guard result >= 0 else {
        throw Failure(code: -result, errorName: "", description: "exporting \(path): " + Errno.describe(-result))
      }
    }

    private static func microseconds(_ duration: Duration) -> UInt64 {
      UInt64(duration.components.seconds) * 1_000_000
        + UInt64(duration.components.attoseconds / 1_000_000_000_000)
    }

    /// The connection's descriptor.
    var fd: Int32 { cns_bus_fd(bus) }
    /// The poll(2) events to wait for now.
    var events: Int16 { Int16(truncatingIfNeeded: cns_bus_events(bus)) }
    /// How long to wait at most, in milliseconds, or -1.
    var timeoutMilliseconds: Int32 { cns_bus_timeout_ms(bus) }

    /// Handles every pending message and returns what they brought.
    ///
    /// - Throws: ``Failure`` when the connection is lost.
    func processAll() throws(Failure) -> [Event] {
      while true {
        let result = cns_bus_process(bus)
        if result == 0 { break }
        if result < 0 {
          throw Failure(
            code: -result, errorName: "", description: "the bus connection was lost: " + Errno.describe(-result))
        }
      }
      var events: [Event] = []
      while let event = cns_bus_next_event(bus) {
        defer { cns_bus_event_free(event) }
        if let decoded = Self.decode(event.pointee) { events.append(decoded) }
      }
      return events
    }

    private static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
      pointer.map { String(cString: $0) } ?? ""
    }

    private static func strings(_ event: cns_bus_event) -> [String] {
      var strings: [String] = []
      var index = 0
      while let list = event.strv, let item = list[index] {
        strings.append(String(cString: item))
        index += 1
      }
      return strings
    }

    private static func value(_ event: cns_bus_event) -> NetworkManagerMirror.Value? {
      switch event.value_kind {
      case Int32(CNS_VALUE_U32_BOOL): return .numberAndFlag(event.u32, event.flag != 0)
      case Int32(CNS_VALUE_NAMED_U32S):
        let names = strings(event)
        return .namedNumbers(
          names.indices.map { NetworkManagerMirror.NamedNumber(name: names[$0], number: event.u32v?[$0] ?? 0) })
      case Int32(CNS_VALUE_U32): return .uint32(event.u32)
      case Int32(CNS_VALUE_BYTE): return .byte(UInt8(truncatingIfNeeded: event.u32))
      case Int32(CNS_VALUE_STRING): return .string(text(event.string))
      case Int32(CNS_VALUE_STRV): return .strings(strings(event))
      case Int32(CNS_VALUE_OTHER): return .other(signature: text(event.string))
      default: return nil
      }
    }

    private static func failure(_ event: cns_bus_event, _ what: String) -> NetworkManagerMirror.ReadFailure? {
      guard event.code < 0 else { return nil }
      return NetworkManagerMirror.ReadFailure(
        errorName: text(event.error_name), code: -event.code, description: what + Errno.describe(-event.code))
    }

    private static func decode(_ event: cns_bus_event) -> Event? {
      let path = text(event.path)
      let interface = text(event.interface)
      let name = text(event.name)
      switch event.kind {
      case Int32(CNS_EVENT_REPLY):
        if let failure = failure(event, "reading a property: ") {
          return .answer(token: event.token, sender: text(event.sender), .failure(failure))
        }
        // An empty return (a method call's) has no value: an empty signature stands for it.
        return .answer(token: event.token, sender: text(event.sender), .success(value(event) ?? .other(signature: "")))
      case Int32(CNS_EVENT_MATCH_INSTALLED): return .matchInstalled(failure(event, "AddMatch failed: "))
      case Int32(CNS_EVENT_PROPERTY):
        guard let value = value(event) else { return nil }
        if event.token != 0 {
          return .listedProperty(token: event.token, path: path, interface: interface, property: name, value)
        }
        return .changed(path: path, interface: interface, property: name, value)
      case Int32(CNS_EVENT_OBJECT):
        return .object(token: event.token, path: path, interfaces: strings(event))
      case Int32(CNS_EVENT_OBJECT_REMOVED): return .objectRemoved(path: path, interfaces: strings(event))
      case Int32(CNS_EVENT_LISTED):
        guard event.code < 0 else { return .listed(token: event.token, nil) }
        if event.error_name == nil, let signature = event.string {
          let failure = NetworkManagerMirror.ReadFailure(
            errorName: "", code: -event.code,
            description: "GetManagedObjects answered `\(String(cString: signature))`, not `a{oa{sa{sv}}}`")
          return .listed(token: event.token, failure)
        }
        return .listed(token: event.token, failure(event, "GetManagedObjects: "))
      case Int32(CNS_EVENT_METHOD_CALL):
        return .methodCall(
          sender: text(event.sender), path: path, interface: interface, method: name,
          object: event.string.map { String(cString: $0) },
          byte: event.value_kind == Int32(CNS_VALUE_BYTE) ? UInt8(truncatingIfNeeded: event.u32) : nil)
      case Int32(CNS_EVENT_INVALIDATED): return .invalidated(path: path, interface: interface, property: name)
      case Int32(CNS_EVENT_DEVICE_ADDED): return .deviceAdded(path)
      case Int32(CNS_EVENT_DEVICE_REMOVED): return .deviceRemoved(path)
      case Int32(CNS_EVENT_OWNER): return .ownerChanged(name: text(event.string), owner: name)
      default: return nil
      }
    }
  }
#endif
