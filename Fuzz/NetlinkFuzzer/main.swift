// The libFuzzer target over the rtnetlink decoder (see Fuzz/README.md).
//
// Built with `-Xswiftc -sanitize=fuzzer,address`, it hands the command line to libFuzzer's driver. In an
// ordinary build (libFuzzer not linked), it replays the files named on the command line, once each.
import Glibc
import NetStatusNetlinkFuzzing
import NetlinkFuzzerSupport

/// libFuzzer's entry point: one input through the decoder, kernel state and path evaluator. Returns 0.
@_cdecl("LLVMFuzzerTestOneInput")
func netlinkFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  NetlinkFuzzing.exercise(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

/// Reads a whole file, or `nil` (with a message) when it cannot.
func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else {
    perror(path)
    return nil
  }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 64 * 1024)
  while true {
    let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
    if count == 0 { break }
    bytes += chunk[0..<count]
  }
  return bytes
}

if netlink_fuzzer_has_libfuzzer() != 0 {
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(netlink_fuzzer_run_driver(&argc, &argv, netlinkFuzzerTestOneInput))
}

var replayed = 0
for path in CommandLine.arguments.dropFirst() where !path.hasPrefix("-") {
  guard let bytes = readFile(path) else { exit(2) }
  _ = bytes.withUnsafeBufferPointer { netlinkFuzzerTestOneInput($0.baseAddress, $0.count) }
  replayed += 1
}
let summary = "replayed \(replayed) input(s); this build has no libFuzzer (see Fuzz/README.md)\n"
_ = write(STDERR_FILENO, summary, summary.utf8.count)
