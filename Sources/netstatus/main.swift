import NetStatusCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let code = await NetStatusCommand.run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
