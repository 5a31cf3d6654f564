import NetStatusCLI

NetStatusCommand.main(NetStatusCommand.processArguments)
