import JetsimCLI

JetsimCommand.runFromCommandLine()
