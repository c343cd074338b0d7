import Foundation
import InkStickerApp

exit(InkStickerMain.run(arguments: Array(CommandLine.arguments.dropFirst()),
                        environment: ProcessInfo.processInfo.environment))
