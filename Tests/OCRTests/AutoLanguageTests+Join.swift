import Dispatch
import Geometry
import Ink
import Locking
import Testing
@testable import OCR

/// `auto`'s two jobs and how their results meet (`AutoLanguageJoin`): early answers, the Latin job
/// put off on dense ink, the order things arrive in, and a Korean reading read again in its job.
extension AutoLanguageTests {
    /// A reading that settles the choice for the script the ink is taken to be is the answer as
    /// soon as it and the density are known (a sure Latin one on sparse ink; a sure Korean one of
    /// Hangul that fills the ink on dense ink); otherwise both readings are waited for.
    @Test func aSettlingReadingAnswersWithoutWaitingForTheOther() {
        let answers = Locking.Lock<[String]>([])
        func join() -> AutoLanguageJoin {
            let join = AutoLanguageJoin { result in answers.withLock { $0.append((try? result.get().reading.text) ?? "error") } }
            join.arm()
            return join
        }
        let noise = Self.reading([Self.line("z", 0.8, width: 40), Self.line("g 2 -", 0.7, y: 40, width: 60)], ocrMs: 3)
        let of = Self.reading([Self.line("of", 0.96, width: 50)], ocrMs: 3)
        let young = Self.reading([Self.line("영", 0.87, width: 50)], ocrMs: 3)

        let sparse = join()
        sparse.deliver(0, .success(of))
        #expect(answers.withLock { $0 }.isEmpty, "the density is not known yet")
        sparse.know(density: 2.5)
        #expect(answers.withLock { $0 } == ["of"])
        sparse.deliver(1, .success(young))
        #expect(answers.withLock { $0 } == ["of"], "answered once")

        answers.withLock { $0 = [] }
        let dense = join()
        dense.know(density: 3)
        dense.deliver(0, .success(of))
        #expect(answers.withLock { $0 }.isEmpty, "on dense ink a sure Latin reading waits for the Korean one")
        dense.deliver(1, .success(young))
        #expect(answers.withLock { $0 } == ["영"])

        answers.withLock { $0 = [] }
        let sureKorean = join()
        sureKorean.know(density: 3)
        sureKorean.deliver(1, .success(Self.reading([Self.line("물렁댈", 0.6, width: 120)], ocrMs: 5)))
        #expect(answers.withLock { $0 } == ["물렁댈"])
        sureKorean.deliver(0, .success(noise))
        #expect(answers.withLock { $0 } == ["물렁댈"], "answered once")

        answers.withLock { $0 = [] }
        let unsureKorean = join()
        unsureKorean.know(density: 3)
        unsureKorean.deliver(1, .success(Self.reading([Self.line("물렁댈", 0.3, width: 120)], ocrMs: 5)))
        #expect(answers.withLock { $0 }.isEmpty, "an unsure Korean reading waits for the Latin one")
        unsureKorean.deliver(0, .success(noise))
        #expect(answers.withLock { $0 } == ["물렁댈"])

        // Nothing is answered before both jobs are queued, nor once the request is abandoned.
        answers.withLock { $0 = [] }
        let abandoned = AutoLanguageJoin { result in answers.withLock { $0.append((try? result.get().reading.text) ?? "error") } }
        abandoned.know(density: 2.5)
        abandoned.deliver(0, .success(of))
        #expect(answers.withLock { $0 }.isEmpty, "not armed")
        abandoned.abandon()
        abandoned.arm()
        abandoned.deliver(1, .success(young))
        #expect(answers.withLock { $0 }.isEmpty, "an abandoned request answers nothing")
    }

    /// On ink as dense as most Hangul the Latin job is put off until the Korean model's first
    /// reading is in, and queued again only when that reading does not answer alone (or the Korean
    /// job failed); on sparser ink, once the Korean reading is in, or without a way to queue it
    /// again, it reads at once. The answer is the rule's either way.
    @Test func onDenseInkTheLatinJobWaitsForTheKoreanReading() {
        let noise = Self.reading([Self.line("z", 0.8, width: 40), Self.line("g 2 -", 0.7, y: 40, width: 60)], ocrMs: 3)
        let sure = Self.reading([Self.line("물렁댈", 0.6, width: 120)], ocrMs: 5)
        let unsure = Self.reading([Self.line("물렁댈", 0.3, width: 120)], ocrMs: 5)
        let dense = AutoLanguage.putOffDensity + 1, sparser = AutoLanguage.putOffDensity - 0.5
        #expect(AutoLanguage.isDense(sparser), "put off only on ink denser than the rule's dense ink")

        /// A join whose put-off Latin job, queued again, delivers `latin`; what it answered and how
        /// often the Latin job was queued again.
        func join(density: Double, latin: Result<Recognition, OCRError> = .success(noise),
                  queues: Bool = true) -> (AutoLanguageJoin, answers: Locking.Lock<[String]>, queued: Locking.Lock<Int>) {
            let answers = Locking.Lock<[String]>([]), queued = Locking.Lock(0)
            let readLatin: @Sendable (AutoLanguageJoin) -> Void = { join in
                queued.withLock { $0 += 1 }
                join.deliver(0, latin)
            }
            let join = AutoLanguageJoin(readLatinLater: queues ? readLatin : nil) { result in
                answers.withLock { $0.append((try? result.get().reading.text) ?? "error") }
            }
            join.know(density: density)
            join.arm()
            return (join, answers, queued)
        }

        let (answering, answered, notQueued) = join(density: dense)
        #expect(!answering.latinReadsNow(), "put off before the Korean reading")
        answering.koreanRead(sure)
        answering.deliver(1, .success(sure))
        #expect(answered.withLock { $0 } == ["물렁댈"] && notQueued.withLock { $0 } == 0, "a sure Korean reading answers alone")

        let (waiting, waited, queued) = join(density: dense)
        #expect(!waiting.latinReadsNow())
        waiting.koreanRead(unsure)
        #expect(queued.withLock { $0 } == 1, "queued again as soon as the first Korean reading does not answer")
        waiting.deliver(1, .success(unsure))
        #expect(waited.withLock { $0 } == [AutoLanguage.choose(latin: noise, korean: unsure, density: dense).text])
        #expect(queued.withLock { $0 } == 1, "queued again once")

        let (failing, failed, requeued) = join(density: dense)
        #expect(!failing.latinReadsNow())
        failing.deliver(1, Result<Recognition, OCRError>.failure(.deadlineExceeded(milliseconds: 1)))
        #expect(requeued.withLock { $0 } == 1 && failed.withLock { $0 } == ["z\ng 2 -"], "the Korean job failed: the Latin one reads")

        let (refused, refusedAnswers, _) = join(density: dense, latin: .failure(.shuttingDown))
        #expect(!refused.latinReadsNow())
        refused.koreanRead(unsure)
        refused.deliver(1, .success(unsure))
        #expect(refusedAnswers.withLock { $0 } == ["물렁댈"], "the Latin job could not be queued again: the Korean reading of Hangul stands")

        let (sparse, _, _) = join(density: sparser)
        #expect(sparse.latinReadsNow(), "under putOffDensity both read at once")
        let (late, _, _) = join(density: dense)
        late.koreanRead(unsure)
        #expect(late.latinReadsNow(), "the Korean reading is in: no reason to wait")
        let (alone, _, _) = join(density: dense, queues: false)
        #expect(alone.latinReadsNow(), "nothing would queue it again")
    }

    /// The same through the pipeline, on one worker (so that no job starts before the answer by
    /// chance, and the Latin job, queued first, is taken first): a Hangul word the Korean model
    /// reads surely is read once, by it alone; one it reads unsure is read by both (the Latin
    /// model may find more than one line in it), and answered as both readings decide.
    @Test func aSureKoreanReadingOfDenseInkIsTheOnlyReading() throws {
        let catalog = TessdataCatalog(extraDirectories: [ShippedModelTests.modelsDirectory])
        let samples = try Corpus.samples("hangul-words.jsonl", folder: "hangul")
        let sure = try #require(samples.first { $0.text == "정도전" }), unsure = try #require(samples.first { $0.text == "물렁댈" })
        let segmentation = LineImager().options.segmentation
        for (sample, onlyKorean) in [(sure, true), (unsure, false)] {
            let strokes = RecognitionImagingTests.strokes(sample)
            let density = AutoLanguage.density(strokes, segmentation: segmentation)
            #expect(density >= AutoLanguage.putOffDensity, "\(sample.text): \(density)")
            var own = try ["ink", "kor-ink"].map { language in
                try #require(ShippedModelTests.recognitions([sample], language: language, quality: .fast, catalog: catalog)[0])
            }
            // As the Latin job does: its words marked with its model's list.
            let ink = try TesseractHandle(tessdataPath: ShippedModelTests.modelsDirectory, language: "ink")
            AutoLanguage.markDictionaryWords(&own[0], isWord: ink.isDictionaryWord)
            let pool = try OCRWorkerPool(configuration: OCRConfiguration(workerCount: 1, queueDepth: 8, defaultLanguage: "ink", catalog: catalog))
            defer { pool.shutdown() }
            let recognizer = InkRecognizer(pool: pool, automaticLanguages: ("ink", "kor-ink"))
            let done = DispatchSemaphore(value: 0)
            let text = Locking.Lock("")
            try recognizer.recognize(RecognitionRequest(strokes: strokes, language: AutoLanguage.name, quality: .fast),
                                     deadlineMilliseconds: 60_000) { result in
                text.withLock { $0 = (try? result.get().text) ?? "error" }
                done.signal()
            }
            try #require(done.wait(timeout: .now() + 120) == .success, "\(sample.text): no answer")
            pool.shutdown()   // let a job still queued end before counting
            let readings = pool.metrics.recognitions
            #expect(onlyKorean ? readings == 1 : readings > 1, "\(sample.text): \(readings) Tesseract readings")
            // The Latin job, taken first, was put off: counted as skipped, not as a job's work.
            #expect(pool.metrics.jobsSkipped == 1, "\(sample.text): \(pool.metrics)")
            #expect(pool.metrics.jobsSucceeded == (onlyKorean ? 1 : 2), "\(sample.text): \(pool.metrics)")
            #expect(text.withLock { $0 } == AutoLanguage.decide(latin: own[0], korean: own[1], density: density, strokes: strokes).reading.text)
        }
    }

    /// Whatever order the readings, the density and the arming come in, there is one answer, and
    /// it is the rule's (`decide` when both readings succeeded; line by line for ink of two
    /// scripts).
    @Test func theAnswerDoesNotDependOnTheOrderThingsArriveIn() {
        let latins: [Result<Recognition, OCRError>] = [
            .success(Self.reading([Self.line("of", 0.96, width: 50)], ocrMs: 3)),
            .success(Self.reading([Self.line("inpot", 0.6, width: 200)], ocrMs: 3)),
            .success(Self.reading([Self.line("z", 0.8, width: 40), Self.line("g 2 -", 0.7, y: 40, width: 60)], ocrMs: 3)),
            .success(Self.reading([Self.line("z 2 -", 0.5, y: 0, width: 120, strokes: [0, 1, 2]),
                                   Self.line("coffee", 0.9, y: 60, width: 150, strokes: [3, 4])], ocrMs: 3)),
            .failure(.deadlineExceeded(milliseconds: 1)),
        ]
        let koreans: [Result<Recognition, OCRError>] = [
            .success(Self.reading([Self.line("영", 0.87, width: 50)], ocrMs: 3)),
            .success(Self.reading([Self.line("물렁댈", 0.3, width: 120)], ocrMs: 3)),
            .success(Self.reading([Self.line("물렁댈", 0.6, width: 120)], ocrMs: 3)),
            .success(Self.reading([Self.line("회", 0.9, width: 200)], ocrMs: 3)),
            .success(Self.reading([Self.line("물렁댈", 0.9, y: 0, width: 120, strokes: [0, 1, 2]),
                                   Self.line("코", 0.3, y: 60, width: 150, strokes: [3, 4])], ocrMs: 3)),
            // Sure, on the first three strokes: answers at once on ink of those only.
            .success(Self.reading([Self.line("물렁댈", 0.9, y: 0, width: 40, strokes: [0, 1, 2])], ocrMs: 3)),
            // Each line sure, the second on sparse strokes: a Latin word read as a syllable.
            .success(Self.reading([Self.line("물렁댈", 0.8, y: 0, width: 120, strokes: [0, 1, 2]),
                                   Self.line("사과", 0.8, y: 60, width: 80, strokes: [3, 4])], ocrMs: 3)),
            .failure(.deadlineExceeded(milliseconds: 1)),
        ]
        // Strokes 0-2 dense on the first line, 3-4 sparse on the second.
        let strokes: [Stroke] = (0..<3).map { i in Stroke(points: [Point(x: Double(i) * 16, y: 0), Point(x: Double(i) * 16, y: 40)]) }
            + (0..<2).map { i in Stroke(points: [Point(x: Double(i) * 75, y: 60), Point(x: Double(i) * 75 + 75, y: 100)]) }
        let events = [0, 1, 2, 3]   // deliver the Latin reading, the Korean one, the density, arm
        func permutations(_ items: [Int]) -> [[Int]] {
            items.count <= 1 ? [items] : items.indices.flatMap { i in
                permutations(items.enumerated().filter { $0.offset != i }.map(\.element)).map { [items[i]] + $0 }
            }
        }
        let denseOnly = Array(strokes[..<3])
        #expect(AutoLanguage.koreanAnswers(Self.reading([Self.line("물렁댈", 0.9, y: 0, width: 40, strokes: [0, 1, 2])], ocrMs: 3),
                                           dense: true, strokes: denseOnly))
        for (density, ink) in [3, 2.5, 1].flatMap({ d in [nil, strokes, denseOnly].map { (d, $0) } }) {
            for latin in latins {
                for korean in koreans {
                    let expected: String = switch (latin, korean) {
                    case (.success(let l), .success(let k)): AutoLanguage.decide(latin: l, korean: k, density: density, strokes: ink).reading.text
                    case (.success(let l), .failure): l.text
                    case (.failure, .success(let k)): AutoLanguage.isMostlyHangul(k.text) ? k.text : "error"
                    case (.failure, .failure): "error"
                    }
                    for order in permutations(events) {
                        let answers = Locking.Lock<[String]>([])
                        let join = AutoLanguageJoin { result in answers.withLock { $0.append((try? result.get().reading.text) ?? "error") } }
                        for event in order {
                            switch event {
                            case 0: join.deliver(0, latin)
                            case 1: join.deliver(1, korean)
                            case 2: join.know(density: density, strokes: ink)
                            default: join.arm()
                            }
                        }
                        #expect(answers.withLock { $0 } == [expected], "density \(density), strokes \(ink != nil), order \(order)")
                    }
                }
            }
        }
    }

    /// A Korean reading chosen that its job read again is answered with the second reading, and
    /// not read once more; when reading it again failed, the first stands.
    @Test func aKoreanReadingReadAgainInItsJobIsAnsweredAsReadAgain() {
        let answers = Locking.Lock<[(String, Bool)]>([])
        let first = Self.reading([Self.line("물렁댈", 0.6, width: 120)], ocrMs: 5)
        for again in [Self.reading([Self.line("물렁대", 0.7, width: 120)], ocrMs: 9), nil] {
            let join = AutoLanguageJoin { result in
                answers.withLock { $0.append(((try? result.get().reading.text) ?? "error", (try? result.get().readAgain) ?? false)) }
            }
            join.arm()
            join.know(density: 3)
            join.deliver(1, .success(AutoReading(first: first, again: again, triedAgain: true)))
        }
        #expect(answers.withLock { $0.map(\.0) } == ["물렁대", "물렁댈"])
        #expect(answers.withLock { $0.map(\.1) } == [true, true])
    }
}
