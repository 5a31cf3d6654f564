import NetStatusCore

extension NetworkPath {
  /// A distinct satisfied path for tests: one interface of `type` with the given index.
  package static func test(_ type: InterfaceType, index: Int = 2, expensive: Bool? = nil) -> NetworkPath {
    var path = NetworkPath.connected(via: type, index: index)
    if let expensive { path.isExpensive = expensive }
    return path
  }
}
