import JetsimCLI

JetsimCommand.main()
