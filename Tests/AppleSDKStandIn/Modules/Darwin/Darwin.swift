// The Swift half of the Darwin stand-in: as in Apple's SDK, an overlay that re-exports the C module of the same name
// (Modules/Darwin/include: the declarations, with Darwin's types and numbers) and adds what C cannot say in Swift.
@_exported import Darwin

/// The calling thread's error number. Apple: `var errno: Int32 { get set }` (the C macro reads `*__error()`).
public var errno: Int32 {
  get { __error().pointee }
  set { __error().pointee = newValue }
}

/// Opens a file. Apple's overlay: `func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32` (C's `open` is
/// variadic).
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 {
  fatalError("The Darwin stand-in is for compiling only")
}

/// Opens or creates a file. Apple's overlay: `func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t)
/// -> Int32`.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 {
  fatalError("The Darwin stand-in is for compiling only")
}

/// The system's real-time clock, for `clock_gettime`. Apple: `var CLOCK_REALTIME: clockid_t { get }`.
public var CLOCK_REALTIME: clockid_t { _CLOCK_REALTIME }

/// The system's monotonic clock, for `clock_gettime`. Apple: `var CLOCK_MONOTONIC: clockid_t { get }`.
public var CLOCK_MONOTONIC: clockid_t { _CLOCK_MONOTONIC }
