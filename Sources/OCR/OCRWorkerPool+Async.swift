import Ink

extension OCRWorkerPool {
    /// Runs `work` on a worker and returns its result.
    ///
    /// - Throws: whatever `work` throws, `.overloaded` when the queue is full, `.shuttingDown`
    ///   when the pool stops before the job ran.
    public func run<Output: Sendable>(
        _ work: @escaping @Sendable (WorkerContext) throws(OCRError) -> Output
    ) async throws(OCRError) -> Output {
        let result: Result<Output, OCRError> = await withCheckedContinuation { continuation in
            do throws(OCRError) {
                try submit(work) { continuation.resume(returning: $0) }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }

    /// Recognises one image on a worker: the common case of `run`. Parameters as for
    /// `WorkerContext.recognize`.
    ///
    /// The language is checked before the job is queued, so an unknown language costs no
    /// queue slot.
    public func recognize(
        _ image: GrayImage,
        language: String? = nil,
        pageSegmentationMode: PageSegmentationMode = .singleLine,
        hint: CharacterHint = .text,
        deadline: Int? = nil,
        alternatives: Bool? = nil
    ) async throws(OCRError) -> HintedPage {
        if let language { _ = try configuration.catalog.model(for: language) }
        return try await run { context throws(OCRError) in
            try context.recognize(image, language: language, pageSegmentationMode: pageSegmentationMode,
                                  hint: hint, deadline: deadline, alternatives: alternatives)
        }
    }
}
