/// The fuzzing entry point: everything that reads rtnetlink bytes, fed one datagram.
///
/// `Fuzz/NetlinkFuzzer` calls it from `LLVMFuzzerTestOneInput`, and the tests replay the committed corpus
/// through it. It is `package`, not public: only targets of this package see it.
package enum NetlinkFuzzing {
  /// Decodes `bytes` as one datagram. When it decodes, applies its messages to a kernel state (checking that
  /// applying a message twice changes nothing, as ``KernelState`` promises) and evaluates a path from the
  /// state under several filters, checking the path's invariants.
  ///
  /// Malformed input must only ever make the decoder throw: a trap here is a bug the fuzzer found.
  package static func exercise(_ bytes: UnsafeRawBufferPointer) {
    let messages: [NetlinkMessage]
    do {
      messages = try NetlinkMessageDecoder.decode(bytes)
    } catch {
      return
    }
    var state = KernelState()
    for message in messages {
      state.apply(message)
      var replayed = state
      replayed.apply(message)
      precondition(replayed == state, "applying \(message) twice is not idempotent")
    }
    let types = InterfaceType.allCases
    let filters = [
      InterfaceFilter.none, InterfaceFilter(requiredInterfaceType: .loopback),
      InterfaceFilter(requiredInterfaceType: .cellular), InterfaceFilter(prohibitedInterfaceTypes: [.other]),
    ]
    for filter in filters {
      let path = PathEvaluator.evaluate(state: state, supportsDNS: true, filter: filter) { link in
        types[Int(link.index.magnitude % UInt32(types.count))]
      }
      if path.status == .satisfied {
        precondition(!path.availableInterfaces.isEmpty, "a satisfied path without an interface: \(path)")
      }
      precondition(path.availableInterfaces.allSatisfy { filter.allows($0.type) }, "the filter leaked: \(path)")
      precondition(filter.apply(to: path) == path, "filtering again changed the path: \(path)")
      _ = path.jsonRepresentation
    }
  }
}
