import Foundation
import InkStickerApp
import OCR

OpenMPGuard.reexecIfNeeded()
exit(InkStickerMain.run(arguments: Array(CommandLine.arguments.dropFirst()),
                        environment: ProcessInfo.processInfo.environment))
