import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What an ``NWConnection`` does: its state, handlers and pending sends and receives, behind one lock, and (on Linux)
/// the thread that runs its socket. `@unchecked Sendable`: every stored `var` is read and written with `lock` held,
/// and nothing is called while it is held but the C library's `write(2)` to the wake pipe.
final class StandInConnection: @unchecked Sendable {
  typealias ReceiveCompletion = @Sendable (Data?, NWConnection.ContentContext?, Bool, NWError?) -> Void

  private struct Send {
    var bytes: ArraySlice<UInt8>
    var completion: (@Sendable (NWError?) -> Void)?
  }

  private struct Receive {
    var maximumLength: Int
    var completion: ReceiveCompletion
  }

  let endpoint: NWEndpoint
  private let lock = NSLock()
  private var currentState = NWConnection.State.setup
  private var handler: (@Sendable (NWConnection.State) -> Void)?
  private var deliveryQueue: DispatchQueue?
  private var sends: [Send] = []
  private var receives: [Receive] = []
  private var cancelled = false
  private var cancels = 0
  private var ended = false
  private var socketHook: (@Sendable () throws -> Void)?
  private var callHook: (@Sendable (String) -> Void)?
  private var nameHook: (@Sendable (String) -> [NWEndpoint.Host])?
  /// The wake pipe's write end while the thread runs; -1 before it starts and once it has ended.
  private var wakeWrite: Int32 = -1

  init(endpoint: NWEndpoint) {
    self.endpoint = endpoint
  }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  var state: NWConnection.State { locked { currentState } }
  var queue: DispatchQueue? { locked { deliveryQueue } }
  var cancelCount: Int { locked { cancels } }
  var hasEnded: Bool { locked { ended } }

  var stateUpdateHandler: (@Sendable (NWConnection.State) -> Void)? {
    get { locked { handler } }
    set { locked { handler = newValue } }
  }

  var onSocketThread: (@Sendable () throws -> Void)? {
    get { locked { socketHook } }
    set { locked { socketHook = newValue } }
  }

  var onCall: (@Sendable (String) -> Void)? {
    get { locked { callHook } }
    set { locked { callHook = newValue } }
  }

  var resolveName: (@Sendable (String) -> [NWEndpoint.Host])? {
    get { locked { nameHook } }
    set { locked { nameHook = newValue } }
  }

  /// Tells the test hook `onCall`, if set, that `name` was called.
  func called(_ name: String) {
    locked { callHook }?(name)
  }

  // MARK: API

  /// Starts the connection's thread, which connects only to addresses of `version` (the parameters' IP version), over
  /// the interface named `interface` only, when given (the parameters' required interface).
  func start(queue: DispatchQueue, version: NWProtocolIP.Options.Version, interface: String?) {
    #if canImport(Glibc)
      var pipeEnds: [Int32] = [-1, -1]
      // pipe2(2) is declared only under _GNU_SOURCE: pipe, then the flags. A child process spawned in between may
      // inherit the ends; nothing waits for their end-of-file.
      let opened = pipe(&pipeEnds) == 0
      if opened {
        for end in pipeEnds {
          _ = fcntl(end, F_SETFD, FD_CLOEXEC)
          _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
      }
      guard opened else {
        locked { deliveryQueue = deliveryQueue ?? queue }
        update(to: .failed(.posix(POSIXErrorCode(rawValue: errno) ?? .EMFILE)))
        return
      }
    #endif
    // A connection starts once, and a cancelled one not at all.
    let proceed = locked { () -> Bool in
      guard deliveryQueue == nil, !cancelled else { return false }
      deliveryQueue = queue
      #if canImport(Glibc)
        wakeWrite = pipeEnds[1]
      #endif
      return true
    }
    #if canImport(Glibc)
      guard proceed else {
        close(pipeEnds[0])
        close(pipeEnds[1])
        return
      }
      let wakeRead = pipeEnds[0]
      // Apple's `Version` is not declared `Sendable`, so neither is the stand-in's; the value is a plain enum case,
      // copied into the thread and never shared.
      nonisolated(unsafe) let version = version
      Thread { [self] in run(wakeRead: wakeRead, version: version, interface: interface) }.start()
    #else
      _ = (proceed, version, interface)
    #endif
  }

  func cancel() {
    let notStarted = locked { () -> Bool in
      cancels += 1
      guard !cancelled else { return false }
      cancelled = true
      if wakeWrite >= 0 { wake() }
      return deliveryQueue == nil
    }
    if notStarted { update(to: .cancelled) }
  }

  func send(_ bytes: [UInt8], completion: (@Sendable (NWError?) -> Void)?) {
    let refused = locked { () -> Bool in
      guard !ended, !cancelled else { return true }
      sends.append(Send(bytes: bytes[...], completion: completion))
      wake()
      return false
    }
    if refused, let completion { deliver { completion(.posix(.ECANCELED)) } }
  }

  func receive(maximumLength: Int, completion: @escaping ReceiveCompletion) {
    let refused = locked { () -> Bool in
      guard !ended, !cancelled else { return true }
      receives.append(Receive(maximumLength: maximumLength, completion: completion))
      wake()
      return false
    }
    if refused { deliver { completion(nil, nil, false, .posix(.ECANCELED)) } }
  }

  // MARK: Delivery

  /// Moves to `state` (never out of `.cancelled`) and tells the handler on the queue.
  private func update(to state: NWConnection.State) {
    let delivery = locked { () -> (@Sendable (NWConnection.State) -> Void)?? in
      guard currentState != .cancelled, currentState != state else { return nil }
      currentState = state
      return .some(handler)
    }
    guard let delivery, let handler = delivery else { return }
    deliver { handler(state) }
  }

  /// Runs `work` on the delivery queue (in order with everything else delivered).
  private func deliver(_ work: @escaping @Sendable () -> Void) {
    locked { deliveryQueue }?.async(execute: work)
  }

  /// Wakes the thread; `lock` is held.
  private func wake() {
    #if canImport(Glibc)
      guard wakeWrite >= 0 else { return }
      var byte: UInt8 = 1
      _ = write(wakeWrite, &byte, 1)
    #endif
  }

  #if canImport(Glibc)
    // MARK: The connection's thread

    private enum Step {
      case proceed
      case cancelled
      case failed(Int32)
    }

    private func run(wakeRead: Int32, version: NWProtocolIP.Options.Version, interface: String?) {
      var fd: Int32 = -1
      defer { end(socket: fd, wakeRead: wakeRead) }
      if let hook = onSocketThread {
        do {
          try hook()
        } catch {
          update(to: .failed(.posix(.EPERM)))
          waitForCancel(wakeRead)
          return
        }
      }
      // Only the version's addresses, as Apple's required IP version "disables all other versions for a connection";
      // none is a name without an address of that version.
      guard let addresses = resolve(version: version) else {
        update(to: .waiting(.dns(NWError.noSuchRecord)))
        waitForCancel(wakeRead)
        return
      }
      update(to: .preparing)
      var lastError: Int32 = ENETUNREACH
      for address in addresses {
        switch connect(address, interface: interface, wakeRead: wakeRead) {
        case .success(let connected):
          fd = connected
        case .failure(.cancelled):
          return
        case .failure(.failed(let code)), .failure(.other(let code)):
          lastError = code
          continue
        }
        break
      }
      guard fd >= 0 else {
        update(to: .waiting(.posix(Self.code(lastError))))
        waitForCancel(wakeRead)
        return
      }
      update(to: .ready)
      if case .failed(let code) = serve(fd, wakeRead: wakeRead) {
        fail(with: .posix(Self.code(code)))
        waitForCancel(wakeRead)
      }
    }

    private enum ConnectError: Error {
      case cancelled
      case failed(Int32)
      case other(Int32)
    }

    /// Connects to `address`, over the interface named `interface` only when given (`SO_BINDTODEVICE`: the routes
    /// through that interface alone; `ENODEV` once it is gone).
    private func connect(_ address: [UInt8], interface: String?, wakeRead: Int32) -> Result<Int32, ConnectError> {
      let family = Int32(address.count == MemoryLayout<sockaddr_in6>.size ? AF_INET6 : AF_INET)
      let fd = socket(
        family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
      guard fd >= 0 else { return .failure(.other(errno)) }
      if let interface {
        let bound = interface.withCString { setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, $0, socklen_t(strlen($0) + 1)) }
        if bound != 0 {
          let code = errno
          close(fd)
          return .failure(.failed(code))
        }
      }
      let started = address.withUnsafeBytes { bytes in
        Glibc.connect(fd, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
      }
      if started != 0 {
        let code = errno
        guard code == EINPROGRESS else {
          close(fd)
          return .failure(.failed(code))
        }
        switch wait(fd, events: Int16(POLLOUT), wakeRead: wakeRead) {
        case .cancelled:
          close(fd)
          return .failure(.cancelled)
        case .failed(let code):
          close(fd)
          return .failure(.failed(code))
        case .proceed:
          var pending: Int32 = 0
          var length = socklen_t(MemoryLayout<Int32>.size)
          if getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length) != 0 { pending = errno }
          if pending != 0 {
            close(fd)
            return .failure(.failed(pending))
          }
        }
      }
      return .success(fd)
    }

    /// Moves bytes until cancelled or a socket error.
    private func serve(_ fd: Int32, wakeRead: Int32) -> Step {
      var buffer = [UInt8](repeating: 0, count: 65536)
      var atEnd = false
      while true {
        let (stop, send, receive) = locked { (cancelled, sends.first, receives.first) }
        if stop { return .cancelled }
        if atEnd, let receive {
          locked { _ = receives.removeFirst() }
          deliver { receive.completion(nil, .defaultStream, true, nil) }
          continue
        }
        var events: Int16 = 0
        if send != nil { events |= Int16(POLLOUT) }
        if receive != nil { events |= Int16(POLLIN) }
        // The socket only while something waits on it: a closed peer's POLLHUP would otherwise wake the loop for ever.
        var descriptors = [
          pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
          pollfd(fd: events == 0 ? -1 : fd, events: events, revents: 0),
        ]
        let ready = poll(&descriptors, 2, -1)
        if ready < 0 {
          if errno == EINTR { continue }
          return .failed(errno)
        }
        if descriptors[0].revents != 0 { drain(wakeRead) }
        let revents = descriptors[1].revents
        if let send, revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
          let sent = send.bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
          if sent < 0 {
            let code = errno
            if code == EAGAIN || code == EINTR { continue }
            return .failed(code)
          }
          let done = locked { () -> Bool in
            sends[0].bytes = sends[0].bytes.dropFirst(sent)
            guard sends[0].bytes.isEmpty else { return false }
            sends.removeFirst()
            return true
          }
          if done, let completion = send.completion { deliver { completion(nil) } }
        }
        if let receive, revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
          let count = buffer.withUnsafeMutableBytes {
            recv(fd, $0.baseAddress, min($0.count, receive.maximumLength), 0)
          }
          if count < 0 {
            let code = errno
            if code == EAGAIN || code == EINTR { continue }
            return .failed(code)
          }
          locked { _ = receives.removeFirst() }
          if count == 0 {
            atEnd = true
            deliver { receive.completion(nil, .defaultStream, true, nil) }
          } else {
            let data = Data(buffer[..<count])
            deliver { receive.completion(data, .defaultStream, false, nil) }
          }
        }
      }
    }

    /// Fails the pending sends and receives with `error`, and the connection.
    private func fail(with error: NWError) {
      let (pendingSends, pendingReceives) = locked { () -> ([Send], [Receive]) in
        defer {
          sends = []
          receives = []
        }
        return (sends, receives)
      }
      update(to: .failed(error))
      for send in pendingSends { if let completion = send.completion { deliver { completion(error) } } }
      for receive in pendingReceives { deliver { receive.completion(nil, nil, false, error) } }
    }

    /// Waits on `fd` for `events`, or until cancelled.
    private func wait(_ fd: Int32, events: Int16, wakeRead: Int32) -> Step {
      while true {
        if locked({ cancelled }) { return .cancelled }
        var descriptors = [
          pollfd(fd: fd, events: events, revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, 2, -1)
        if ready < 0 {
          if errno == EINTR { continue }
          return .failed(errno)
        }
        if descriptors[1].revents != 0 { drain(wakeRead) }
        if descriptors[0].revents != 0 { return .proceed }
      }
    }

    private func waitForCancel(_ wakeRead: Int32) {
      while !locked({ cancelled }) {
        var descriptor = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, -1) > 0 { drain(wakeRead) }
      }
    }

    private func drain(_ fd: Int32) {
      var bytes = [UInt8](repeating: 0, count: 64)
      while read(fd, &bytes, bytes.count) > 0 {}
    }

    /// Closes everything, completes what is pending with `ECANCELED`, and ends in `.cancelled`.
    private func end(socket fd: Int32, wakeRead: Int32) {
      if fd >= 0 { close(fd) }
      let (pendingSends, pendingReceives, writeEnd) = locked { () -> ([Send], [Receive], Int32) in
        ended = true
        defer {
          sends = []
          receives = []
          wakeWrite = -1
        }
        return (sends, receives, wakeWrite)
      }
      close(writeEnd)
      close(wakeRead)
      let error = NWError.posix(.ECANCELED)
      for send in pendingSends { if let completion = send.completion { deliver { completion(error) } } }
      for receive in pendingReceives { deliver { receive.completion(nil, nil, false, error) } }
      update(to: .cancelled)
    }

    /// The addresses of `version` to connect to (socket addresses' bytes), or `nil` when the host has none: a name by
    /// `getaddrinfo(3)` asked for that family only (or by the test hook `resolveName`), a literal if it is of that
    /// version.
    private func resolve(version: NWProtocolIP.Options.Version) -> [[UInt8]]? {
      guard case .hostPort(let host, let port) = endpoint else { return nil }
      let text: String
      switch host {
      case .ipv4, .ipv6: return Self.socketAddresses([host], version: version, port: port.rawValue)
      case .name(let name, _): text = name
      }
      if let hook = resolveName { return Self.socketAddresses(hook(text), version: version, port: port.rawValue) }
      var hints = addrinfo()
      switch version {
      case .v4: hints.ai_family = AF_INET
      case .v6: hints.ai_family = AF_INET6
      case .any: hints.ai_family = AF_UNSPEC
      }
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      var list: UnsafeMutablePointer<addrinfo>?
      guard getaddrinfo(text, String(port.rawValue), &hints, &list) == 0 else { return nil }
      defer { freeaddrinfo(list) }
      var found: [[UInt8]] = []
      var entry = list
      while let current = entry {
        if let address = current.pointee.ai_addr {
          found.append(Array(UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen))))
        }
        entry = current.pointee.ai_next
      }
      return found.isEmpty ? nil : found
    }

    /// The socket addresses of those of `hosts` (literals) that are of `version`, or `nil` when none is.
    private static func socketAddresses(_ hosts: [NWEndpoint.Host], version: NWProtocolIP.Options.Version, port: UInt16)
      -> [[UInt8]]?
    {
      var found: [[UInt8]] = []
      for host in hosts {
        switch (host, version) {
        case (.ipv4(let address), .any), (.ipv4(let address), .v4):
          found.append(socketAddress(ipv4: Array(address.rawValue), port: port))
        case (.ipv6(let address), .any), (.ipv6(let address), .v6):
          found.append(socketAddress(ipv6: Array(address.rawValue), port: port))
        default:
          continue
        }
      }
      return found.isEmpty ? nil : found
    }

    private static func socketAddress(ipv4 bytes: [UInt8], port: UInt16) -> [UInt8] {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: bytes) }
      return withUnsafeBytes(of: address) { Array($0) }
    }

    private static func socketAddress(ipv6 bytes: [UInt8], port: UInt16) -> [UInt8] {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
      return withUnsafeBytes(of: address) { Array($0) }
    }

    private static func code(_ errno: Int32) -> POSIXErrorCode {
      POSIXErrorCode(rawValue: errno) ?? .EIO
    }
  #endif
}
