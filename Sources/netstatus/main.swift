import NetStatusCLI

NetStatusCommand.main(Array(CommandLine.arguments.dropFirst()))
