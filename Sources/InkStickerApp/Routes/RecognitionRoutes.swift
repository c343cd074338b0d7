import Foundation
import Geometry
import HTTPServer
import Ink
import JSONKit
import OCR

/// `POST /v1/recognize` (ink in, text out, nothing stored) and `GET /v1/languages`.
enum RecognitionRoutes {
    static func register(_ router: inout RouterBuilder, _ services: AppServices) {
        router.add(.get, "/v1/languages", .inline { _ in
            JSONBody.response(.ok, .object([
                ("languages", .array(services.recognizer.languages.map { .string($0) })),
                ("default", .string(services.configuration.defaultLanguage)),
                ("aliases", .object(services.recognizer.languageAliases.sorted { $0.key < $1.key }
                    .map { ($0.key, JSONValue.string($0.value)) })),
                ("hintModels", .object(services.recognizer.hintModels.sorted { $0.key < $1.key }
                    .map { model, hints in
                        (model, JSONValue.object(hints.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
                    })),
            ]))
        })
        router.add(.post, "/v1/recognize", bodyLimit: services.configuration.maxInkBodyBytes, .deferred { context, responder in
            try services.admitInk(context)
            services.onBlocking(responder, requestID: context.request.requestID) {
                let started = DispatchTime.now()
                let body = try InkBody.read(context, limits: services.inkDecoder.limits)
                if let unknown = body.unknownQueryError(accepted: InkBody.recognizeQuery) { throw unknown }
                var collector = FieldCollector()
                collector.record(body.object.unknownMemberViolations(allowed: InkRequest.members, at: .root))
                let request = try InkRequest.decode(body, decoder: services.inkDecoder,
                                                    defaultLanguage: services.configuration.defaultLanguage, collector: &collector)
                guard collector.isEmpty, let request else { throw body.queryError(collector.violations) }
                let decodeMs = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
                guard services.recognizer.languages.contains(request.language) else {
                    throw ErrorMapping.ocrError(.unknownLanguage(request.language, installed: services.recognizer.languages))
                }
                if context.query["debug"] == "png" {
                    // The exact images the recogniser would read, instead of reading them.
                    return try RenderRoutes.png(of: services.recognizer.lineImages(for: request.strokes,
                                                                                   hint: request.charset ?? .text,
                                                                                   language: request.language))
                }
                if request.strokes.isEmpty {
                    return JSONBody.response(.ok, RecognitionJSON.recognition(.empty, decodeMs: decodeMs))
                }
                try services.recognizer.recognize(request, deadlineMilliseconds: services.configuration.ocrDeadlineMs) { result in
                    switch result {
                    case .success(let recognition):
                        responder.send(JSONBody.response(.ok, RecognitionJSON.recognition(recognition, decodeMs: decodeMs)))
                    case .failure(let error):
                        responder.fail(ErrorMapping.ocrError(error))
                    }
                }
                return nil
            }
        })
    }
}

/// The JSON of a recognition result.
enum RecognitionJSON {
    static func recognition(_ r: Recognition, decodeMs: Double) -> JSONValue {
        .object([
            ("text", .string(r.text)),
            ("confidence", .number(rounded(r.confidence))),
            ("candidates", .array(r.candidates.map { .object([("text", .string($0.text)), ("confidence", .number(rounded($0.confidence)))]) })),
            ("lines", .array(r.lines.map { line in
                .object([
                    ("text", .string(line.text)),
                    ("confidence", .number(rounded(line.confidence))),
                    ("box", rect(line.box)),
                    ("words", .array(line.words.map { word in
                        .object([
                            ("text", .string(word.text)),
                            ("confidence", .number(rounded(word.confidence))),
                            ("box", rect(word.box)),
                            ("strokes", .array(word.strokes.map { .number(Double($0)) })),
                        ])
                    })),
                ])
            })),
            ("timings", .object([
                ("decodeMs", .number(rounded(decodeMs))),
                ("renderMs", .number(rounded(r.timings.renderMs))),
                ("ocrMs", .number(rounded(r.timings.ocrMs))),
            ])),
        ])
    }

    static func rect(_ r: Rect) -> JSONValue {
        .object([("x", .number(rounded(r.x))), ("y", .number(rounded(r.y))),
                 ("width", .number(rounded(r.width))), ("height", .number(rounded(r.height)))])
    }

    /// Four decimals are plenty for confidences, milliseconds and board coordinates.
    static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}
