import Dispatch
import Foundation
import Locking
import Testing
@testable import OCR

/// Collects completions from worker threads.
private final class Completions<Output: Sendable>: Sendable {
    private let results = Lock<[Result<Output, OCRError>]>([])
    func record(_ result: Result<Output, OCRError>) { results.withLock { $0.append(result) } }
    var all: [Result<Output, OCRError>] { results.withLock { $0 } }
}

@Suite struct OCRWorkerPoolTests {
    private func pool(workers: Int, queueDepth: Int, cache: Int = 2,
                      catalog: TessdataCatalog = TessdataCatalog(environment: [:])) throws -> OCRWorkerPool {
        try OCRWorkerPool(configuration: OCRConfiguration(
            workerCount: workers, queueDepth: queueDepth, cachedLanguagesPerWorker: cache, catalog: catalog))
    }

    @Test func startsReadyAndRecognisesThroughTheAsyncAPI() async throws {
        let pool = try pool(workers: 1, queueDepth: 2)
        defer { pool.shutdown() }
        #expect(pool.isReady)
        let page = try await pool.recognize(try Fixtures.image("artless"))
        #expect(page.page.text == "artless")
        let metrics = pool.metrics
        #expect(metrics.recognitions == 1 && metrics.jobsSucceeded == 1)
        #expect(metrics.recognitionTime > .zero && metrics.busyTime >= metrics.recognitionTime)
    }

    @Test func aJobThatDidNoWorkIsCountedApartWithoutItsTime() throws {
        let pool = try pool(workers: 1, queueDepth: 2)
        defer { pool.shutdown() }
        let completions = Completions<Int>()
        // The second job takes far longer, and says it did nothing.
        try pool.submit({ _ in Thread.sleep(forTimeInterval: 0.05); return 1 }, completion: completions.record)
        try pool.submit({ context in Thread.sleep(forTimeInterval: 1); context.didNoWork(); return 2 }, completion: completions.record)
        #expect(eventually(within: 30) { completions.all.count == 2 })
        let metrics = pool.metrics
        #expect(metrics.jobsSucceeded == 1 && metrics.jobsSkipped == 1 && metrics.jobsFailed == 0)
        #expect(metrics.busyTime >= .milliseconds(50) && metrics.busyTime < .seconds(1), "the first job's time only: \(metrics.busyTime)")
        // The flag is the job's own: the next job on the same worker counts as work again, and one
        // that says it did nothing and then throws failed, with its time.
        try pool.submit({ _ in 3 }, completion: completions.record)
        try pool.submit({ context throws(OCRError) -> Int in
            context.didNoWork()
            Thread.sleep(forTimeInterval: 1)
            throw .shuttingDown
        }, completion: completions.record)
        #expect(eventually(within: 30) { completions.all.count == 4 })
        let after = pool.metrics
        #expect(after.jobsSucceeded == 2 && after.jobsSkipped == 1 && after.jobsFailed == 1)
        #expect(after.busyTime >= metrics.busyTime + .seconds(1), "the failed job's time counts")
    }

    @Test func rejectsWithOverloadedWhenTheQueueIsFull() throws {
        let pool = try pool(workers: 1, queueDepth: 1)
        defer { pool.shutdown() }
        let release = DispatchSemaphore(value: 0)
        let completions = Completions<Int>()
        try pool.submit({ _ in release.wait(); return 1 }, completion: completions.record)
        #expect(eventually { pool.busyWorkers == 1 })
        // The worker is busy: one job may wait, the next is refused at once.
        try pool.submit({ _ in 2 }, completion: completions.record)
        #expect(pool.queueDepth == 1)
        #expect {
            try pool.submit({ _ in 3 }, completion: completions.record)
        } throws: { error in
            guard case let .overloaded(seconds) = error as? OCRError else { return false }
            return seconds >= 1
        }
        #expect(pool.metrics.jobsRejected == 1)
        release.signal()
        #expect(eventually { completions.all.count == 2 })
        #expect(completions.all.compactMap { try? $0.get() }.sorted() == [1, 2])
    }

    @Test func shutdownCompletesQueuedJobsWithShuttingDown() throws {
        let pool = try pool(workers: 1, queueDepth: 4)
        let release = DispatchSemaphore(value: 0)
        let running = Completions<Int>()
        let queued = Completions<Int>()
        try pool.submit({ _ in release.wait(); return 1 }, completion: running.record)
        #expect(eventually { pool.busyWorkers == 1 })
        for value in 2...4 { try pool.submit({ _ in value }, completion: queued.record) }

        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pool.shutdown()
            stopped.signal()
        }
        // Queued jobs are completed with an error without waiting for the running one.
        #expect(eventually { queued.all.count == 3 })
        #expect(queued.all.allSatisfy { if case .failure(.shuttingDown) = $0 { true } else { false } })
        #expect(!pool.isReady)
        #expect(throws: OCRError.shuttingDown) { try pool.submit({ _ in 5 }, completion: queued.record) }
        // The running job finishes normally, then the threads are joined.
        release.signal()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(running.all.count == 1 && (try? running.all[0].get()) == 1)
        #expect(pool.metrics.jobsCancelled == 3)
        pool.shutdown()
    }

    @Test func twoWorkersRunJobsConcurrently() throws {
        let pool = try pool(workers: 2, queueDepth: 2)
        defer { pool.shutdown() }
        // Each job waits for the other to start: this only completes if both run at once.
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let completions = Completions<Int>()
        try pool.submit({ context in
            first.signal()
            return second.wait(timeout: .now() + 10) == .success ? context.workerIndex : -1
        }, completion: completions.record)
        try pool.submit({ context in
            second.signal()
            return first.wait(timeout: .now() + 10) == .success ? context.workerIndex : -1
        }, completion: completions.record)
        #expect(eventually(within: 15) { completions.all.count == 2 })
        #expect(Set(completions.all.compactMap { try? $0.get() }) == [0, 1])
    }

    @Test func concurrentRecognitionsOnTwoWorkersAreCorrect() async throws {
        let pool = try pool(workers: 2, queueDepth: 8)
        defer { pool.shutdown() }
        let words = ["pedicure", "artless", "koan", "sharpness"]
        let images = try words.map { try Fixtures.image($0) }
        let texts = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, image) in images.enumerated() {
                group.addTask { (index, try await pool.recognize(image).page.text) }
            }
            var texts = Array(repeating: "", count: words.count)
            for try await (index, text) in group { texts[index] = text }
            return texts
        }
        #expect(texts == words)
    }

    @Test func unknownLanguageIsATypedErrorListingInstalledLanguages() async throws {
        let pool = try pool(workers: 1, queueDepth: 1)
        defer { pool.shutdown() }
        await #expect(throws: OCRError.unknownLanguage("klingon", installed: pool.languages)) {
            try await pool.recognize(try Fixtures.image("koan"), language: "klingon")
        }
        #expect(pool.languages.contains("eng"))
        // Checked before queueing: the job never reached a worker.
        #expect(pool.metrics.jobsFailed == 0)
    }

    @Test func unknownDefaultLanguageFailsStartUp() {
        #expect(throws: OCRError.unknownLanguage("klingon", installed: TessdataCatalog(environment: [:]).languages)) {
            try OCRWorkerPool(configuration: OCRConfiguration(workerCount: 1, defaultLanguage: "klingon",
                                                              catalog: TessdataCatalog(environment: [:])))
        }
    }

    @Test func workerInitialisationFailureIsReportedByInit() throws {
        // Listed by the catalog but not loadable: the failure happens on the worker threads.
        let directory = try Fixtures.temporaryDirectory()
        try Data(repeating: 1, count: 1024).write(to: directory.appendingPathComponent("bad.traineddata"))
        let catalog = TessdataCatalog(tessdataDirectory: directory.path, environment: [:])
        #expect {
            try OCRWorkerPool(configuration: OCRConfiguration(workerCount: 2, defaultLanguage: "bad", catalog: catalog))
        } throws: { error in
            guard case let .initializationFailed(language, path, _, _) = error as? OCRError else { return false }
            return language == "bad" && path == directory.path
        }
    }

    @Test func otherLanguagesLoadLazilyFromExtraDirectoriesAndTheCacheIsBounded() async throws {
        // Two extra "languages" that are the English model under other names, as a project
        // model such as Models/ink.traineddata would be.
        let models = try Fixtures.temporaryDirectory()
        let english = Fixtures.tessdata + "/eng.traineddata"
        for name in ["ink", "ink2"] {
            try FileManager.default.createSymbolicLink(atPath: models.appendingPathComponent("\(name).traineddata").path,
                                                       withDestinationPath: english)
        }
        let catalog = TessdataCatalog(extraDirectories: [models.path], environment: [:])
        let pool = try pool(workers: 1, queueDepth: 2, cache: 1, catalog: catalog)
        defer { pool.shutdown() }
        #expect(pool.languages.contains("ink") && pool.languages.contains("ink2"))
        let image = try Fixtures.image("koan")
        let loaded = try await pool.run { context throws(OCRError) -> [[String]] in
            var loaded = [context.loadedLanguages]
            #expect(try context.recognize(image, language: "ink").page.text == "koan")
            loaded.append(context.loadedLanguages)
            _ = try context.handle(for: "ink2")
            loaded.append(context.loadedLanguages)
            return loaded
        }
        #expect(loaded == [["eng"], ["eng", "ink"], ["eng", "ink2"]])
    }

    @Test func aliasesOfOneModelShareOneHandle() async throws {
        let models = try Fixtures.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: models.appendingPathComponent("ink.traineddata").path,
                                                   withDestinationPath: Fixtures.tessdata + "/eng.traineddata")
        let catalog = TessdataCatalog(extraDirectories: [models.path], aliases: ["handwriting": "ink", "print": "eng"],
                                      environment: [:])
        let pool = try pool(workers: 1, queueDepth: 2, cache: 2, catalog: catalog)
        defer { pool.shutdown() }
        let image = try Fixtures.image("koan")
        let loaded = try await pool.run { context throws(OCRError) -> [[String]] in
            var loaded = [context.loadedLanguages]
            #expect(try context.recognize(image, language: "print").page.text == "koan")
            loaded.append(context.loadedLanguages)
            #expect(try context.recognize(image, language: "handwriting").page.text == "koan")
            _ = try context.handle(for: "ink")
            loaded.append(context.loadedLanguages)
            return loaded
        }
        // The default (eng) handle serves "print"; "handwriting" and "ink" share one more.
        #expect(loaded == [["eng"], ["eng"], ["eng", "ink"]])
    }

    @Test func oversizedImagesAreRefusedBeforeTesseract() async throws {
        let pool = try OCRWorkerPool(configuration: OCRConfiguration(workerCount: 1, catalog: TessdataCatalog(environment: [:]),
                                                                     maximumImageWidth: 100))
        defer { pool.shutdown() }
        await #expect(throws: OCRError.self) {
            try await pool.recognize(try Fixtures.image("sharpness"))
        }
        #expect(pool.metrics.recognitions == 0)
    }

    @Test func deadlineMissesAreCounted() async throws {
        let pool = try pool(workers: 1, queueDepth: 1)
        defer { pool.shutdown() }
        let lines = try Corpus.samples("print.jsonl").filter { !$0.text.contains("\n") }.prefix(8)
        let page = Fixtures.stacked(lines.map { TestRasterizer.draw($0.strokes) })
        await #expect(throws: OCRError.deadlineExceeded(milliseconds: 1)) {
            try await pool.recognize(page, pageSegmentationMode: .singleBlock, deadline: 1)
        }
        #expect(pool.metrics.deadlineExceeded == 1 && pool.metrics.jobsFailed == 1)
    }
}
