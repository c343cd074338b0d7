import Foundation
import OCR

// Tesseract's OpenMP must be limited before libgomp loads: re-exec with OMP_THREAD_LIMIT=1.
OpenMPGuard.reexecIfNeeded()

let usage = """
    usage: inkbench COMMAND [options]
      eval    recognise corpus files in-process and score them (CER, exact match)
      render  write each sample's line images as PGM files
      micro   ink JSON decoding and rasterizing timings
      trace   symbols, boxes and choices Tesseract reports for chosen samples
      bare    one ink's line image: Tesseract in-process vs the whole pipeline
      gestures  writing over fields that must stay writing, and generated gestures (bench/gestures.sh)
      density   strokes per line height of each sample (how auto tells Hangul from Latin)
    Run a command without arguments for its options.
    """

let arguments = CommandLine.arguments.dropFirst()
do {
    switch arguments.first {
    case "eval": try EvalCommand.run(arguments.dropFirst())
    case "render": try RenderCommand.run(arguments.dropFirst())
    case "micro": try MicroCommand.run(arguments.dropFirst())
    case "bare": try BareCommand.run(arguments.dropFirst())
    case "trace": try TraceCommand.run(arguments.dropFirst())
    case "gestures": try GesturesCommand.run(arguments.dropFirst())
    case "density": try DensityCommand.run(arguments.dropFirst())
    default:
        print(usage)
        exit(arguments.isEmpty ? 0 : 2)
    }
} catch {
    FileHandle.standardError.write(Data("inkbench: \(error)\n".utf8))
    exit(2)
}
