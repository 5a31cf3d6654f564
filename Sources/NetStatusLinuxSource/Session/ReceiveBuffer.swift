#if os(Linux)
  /// A receive buffer that grows when a datagram did not fit.
  ///
  /// `@unchecked Sendable`: one thread uses it at a time, and nothing guards it: a starting session's own
  /// buffer is used only by the starting thread, and a hub loop's only by that loop's thread.
  final class ReceiveBuffer: @unchecked Sendable {
    static let initialSize = 64 * 1024
    static let maximumSize = 4 * 1024 * 1024

    private(set) var bytes: UnsafeMutableRawBufferPointer

    init(size: Int = initialSize) {
      bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
    }

    deinit { bytes.deallocate() }

    /// Doubles the buffer, up to ``maximumSize``; its contents are lost.
    func grow() {
      let size = min(bytes.count * 2, Self.maximumSize)
      guard size > bytes.count else { return }
      bytes.deallocate()
      bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
    }
  }
#endif
