import NetStatusNetlink
import NetStatusPathModel

/// The fuzzing entry point: everything that reads netlink bytes (rtnetlink's, and generic netlink's:
/// ``exerciseGenericNetlink(_:)``), fed one datagram.
///
/// `Fuzz/NetlinkFuzzer` calls it from `LLVMFuzzerTestOneInput`, and the tests replay the committed corpus
/// through it. It is `package`, not public: only targets of this package see it.
package enum NetlinkFuzzing {
  /// Decodes `bytes` as one datagram. When it decodes, applies its messages to a kernel state (checking that
  /// applying a message twice changes nothing, as ``KernelState`` promises), hands the datagram's route and
  /// error messages, in order, to the evaluator as the answers of the lookups it asks for, and evaluates a
  /// path under several filters, checking the path's invariants.
  ///
  /// Malformed input must only ever make the decoder throw: a trap here is a bug the fuzzer found.
  package static func exercise(_ bytes: UnsafeRawBufferPointer) {
    checkLookupReply(bytes)
    checkRouteMessage(bytes)
    exerciseGenericNetlink(bytes)
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
      InterfaceFilter.unrestricted, InterfaceFilter(requiredInterfaceType: .loopback),
      InterfaceFilter(requiredInterfaceType: .cellular), InterfaceFilter(prohibitedInterfaceTypes: [.other]),
    ]
    var results: [RouteLookupResult] = []
    for message in messages {
      switch message.event {
      case .newRoute(let route), .deletedRoute(let route): results.append(.route(route))
      case .error(let code), .done(let code): results.append(.failed(errno: code))
      default: break
      }
    }
    let classify = { (link: NetlinkLink) in types[Int(link.index.magnitude % UInt32(types.count))] }
    for filter in filters {
      var remaining = results[...]
      var answers = RouteLookupAnswers()
      for request in PathEvaluator.primaryLookups(state: state, filter: filter) {
        if let result = remaining.popFirst() { answers[request] = result }
      }
      for request in PathEvaluator.interfaceLookups(state: state, answers: answers, filter: filter, classify: classify)
      {
        if let result = remaining.popFirst() { answers[request] = result }
      }
      let path = PathEvaluator.evaluate(
        state: state, answers: answers, supportsDNS: true, filter: filter, classify: classify)
      if path.status == .satisfied {
        precondition(!path.availableInterfaces.isEmpty, "a satisfied path without an interface: \(path)")
      }
      precondition(path.availableInterfaces.allSatisfy { filter.allows($0.type) }, "the filter leaked: \(path)")
      precondition(filter.apply(to: path) == path, "filtering again changed the path: \(path)")
      _ = path.description
    }
  }

  /// Checks that ``NetlinkMessageDecoder/lookupReply(in:portID:)``, for the port the datagram names, agrees with
  /// ``NetlinkMessageDecoder/decode(_:)``: when it decodes the datagram, the full decoder gives one message with
  /// the same sequence number and the same result; when it throws, the full decoder throws the same error.
  package static func checkLookupReply(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= RTNL.headerLength else { return }
    let port = bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
    let lean = Result { () throws(NetlinkDecodeError) in try NetlinkMessageDecoder.lookupReply(in: bytes, portID: port)
    }
    let full = Result { () throws(NetlinkDecodeError) in try NetlinkMessageDecoder.decode(bytes) }
    switch (lean, full) {
    case (.success(nil), _):
      return  // not a lookup reply: the full decoder's alone
    case (.success(let reply?), .success(let messages)):
      precondition(messages.count == 1, "a lookup reply of \(messages.count) messages")
      let expected: RouteLookupResult?
      switch messages[0].event {
      case .newRoute(let route): expected = .route(route)
      case .error(let code) where code != 0: expected = .failed(errno: code)
      default: expected = nil
      }
      let message = messages[0]
      precondition(
        reply == NetlinkMessageDecoder.LookupReply(sequence: message.sequence, result: expected),
        "the lookup reply \(reply) is not what \(message) says")
    case (.failure(let leanError), .failure(let fullError)):
      precondition(leanError == fullError, "the lookup reply failed with \(leanError), the decoder with \(fullError)")
    case (.success(let reply?), .failure(let error)):
      preconditionFailure("the lookup reply decoded as \(reply), the decoder threw \(error)")
    case (.failure(let error), .success(let messages)):
      preconditionFailure("the lookup reply threw \(error), the decoder gave \(messages)")
    }
  }

  /// Checks that ``NetlinkMessageDecoder/routeMessage(in:)`` agrees with ``NetlinkMessageDecoder/decode(_:)``: when
  /// it decodes the datagram, the full decoder gives one route message with the same header and fields, which
  /// matters to the lookups alike; when it throws, the full decoder throws the same error.
  package static func checkRouteMessage(_ bytes: UnsafeRawBufferPointer) {
    let lean = Result { () throws(NetlinkDecodeError) in try NetlinkMessageDecoder.routeMessage(in: bytes) }
    let full = Result { () throws(NetlinkDecodeError) in try NetlinkMessageDecoder.decode(bytes) }
    switch (lean, full) {
    case (.success(nil), _):
      return  // not a route message alone in its datagram: the full decoder's alone
    case (.success(let notification?), .success(let messages)):
      precondition(messages.count == 1, "a route message of \(messages.count) messages")
      let message = messages[0]
      let route: NetlinkRoute?
      switch message.event {
      case .newRoute(let decoded), .deletedRoute(let decoded): route = decoded
      default: route = nil
      }
      let expected = NetlinkMessageDecoder.RouteMessage(
        type: message.type, sequence: message.sequence, portID: message.portID, route: route.map(RouteFields.init))
      precondition(notification == expected, "the route message \(notification) is not what \(message) says")
      precondition(
        RouteLookupRequest.mayChangeAnswers(notification.route) == RouteLookupRequest.mayChangeAnswers(message),
        "the route message \(notification) and \(message) matter differently to the lookups")
    case (.failure(let leanError), .failure(let fullError)):
      precondition(leanError == fullError, "the route message failed with \(leanError), the decoder with \(fullError)")
    case (.success(let notification?), .failure(let error)):
      preconditionFailure("the route message decoded as \(notification), the decoder threw \(error)")
    case (.failure(let error), .success(let messages)):
      preconditionFailure("the route message threw \(error), the decoder gave \(messages)")
    }
  }
}
