import Foundation

exit(await DemoCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), console: .standard))
