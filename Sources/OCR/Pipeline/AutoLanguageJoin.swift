import Ink
import Locking

/// What one automatic language's job read: its first reading, which the choice is made on, and,
/// when the job read the ink again on its own (`InkRecognizer`: an unsure Korean reading of
/// Hangul), that reading (nil when reading it again failed: the first stands).
struct AutoReading: Sendable {
    var first: Recognition
    var again: Recognition?
    var triedAgain = false
}

/// The reading `auto` answers with, the index of its language (0 Latin, 1 Korean), whether it was
/// already read again (else an unsure one is, by its own model; one chosen line by line or to be
/// read apart is not), and strokes to read apart first.
struct AutoChoice: Sendable {
    var reading: Recognition
    var index: Int
    var readAgain = false
    /// Strokes to read with the Korean model alone before answering (`AutoSplit`); the reading
    /// stands when that fails.
    var split: AutoSplit?
}

/// Collects the Latin (index 0) and the Korean (index 1) model's results and how densely the ink
/// is written, with its strokes (`know(density:strokes:)`, from the first job to start), and, once armed
/// (both jobs are queued), calls the completion once: with a reading that wins whatever the other
/// says (`AutoLanguage.koreanAnswers`, `latinAnswers`) as soon as both it and the density are known
/// (the other result is then dropped), else when both results are there: `AutoLanguage.decide`'s
/// answer when both succeeded, the one that did, or the Latin model's failure. A Korean reading chosen that the Korean job read again is answered with its second
/// reading. Abandoned (the request could not be queued whole), it calls nothing. An early answer's
/// timings are its own job's work.
///
/// On ink as dense as most Hangul (`AutoLanguage.putOffDensity`), given `readLatinLater`, the
/// Latin job reads only when the Korean reading does not answer alone: until the Korean model's
/// first reading is in it is put off (`latinReadsNow`), then queued again by `readLatinLater` when
/// that reading does not answer (or the Korean job ended without one). The two models reading at
/// once slow each other (a Korean reading of Hangul about a fifth slower beside a Latin one on one
/// machine, `training/RUNS.md`), and most Korean readings of such ink answer alone.
final class AutoLanguageJoin: Sendable {
    typealias Outcome = Result<AutoReading, OCRError>

    private struct State {
        var results: [Outcome?] = [nil, nil]
        var density: Double?
        var strokes: [Stroke]?
        var armed = false
        var abandoned = false
        var answered = false
        /// The Korean job's first reading, as soon as it was made (`koreanRead`).
        var koreanFirst: Recognition?
        /// The Latin job was put off and is to be queued again (`latinReadsNow`).
        var latinPutOff = false
    }

    private let state = Lock(State())
    private let completion: @Sendable (Result<AutoChoice, OCRError>) -> Void
    private let readLatinLater: (@Sendable (AutoLanguageJoin) -> Void)?

    /// `readLatinLater` queues the Latin job again after it was put off (nil: it never is); it
    /// delivers that job's result, or its failure to be queued, as index 0.
    init(readLatinLater: (@Sendable (AutoLanguageJoin) -> Void)? = nil,
         completion: @escaping @Sendable (Result<AutoChoice, OCRError>) -> Void) {
        self.readLatinLater = readLatinLater
        self.completion = completion
    }

    func deliver(_ index: Int, _ result: Result<Recognition, OCRError>) {
        deliver(index, result.map { AutoReading(first: $0) })
    }

    func deliver(_ index: Int, _ result: Outcome) {
        answer { $0.results[index] = result }
    }

    /// The ink's strokes per line height (`AutoLanguage.density`), and its strokes (each line's
    /// density, when chosen line by line).
    func know(density: Double, strokes: [Stroke]? = nil) {
        answer {
            $0.density = density
            $0.strokes = strokes
        }
    }

    /// Both jobs are queued: from now on it may answer (with what has arrived so far, too).
    func arm() {
        answer { $0.armed = true }
    }

    /// Whether the density is known (a job that starts later need not work it out again).
    var knowsDensity: Bool { state.withLock { $0.density != nil } }

    /// Whether the Latin job, starting with the density known, reads now: not on ink as dense as
    /// most Hangul while the Korean reading may still answer alone (it is then put off: its job
    /// ends without delivering, and `readLatinLater` queues it again when needed).
    func latinReadsNow() -> Bool {
        guard readLatinLater != nil else { return true }
        return state.withLock { s in
            guard !s.answered, !s.abandoned, let density = s.density, density >= AutoLanguage.putOffDensity,
                  s.koreanFirst == nil, s.results[1] == nil else { return true }
            s.latinPutOff = true
            return false
        }
    }

    /// The Korean job's first reading, as soon as it is made (before that job reads it again):
    /// a Latin job put off is queued again when this reading does not answer alone.
    func koreanRead(_ first: Recognition) {
        answer { $0.koreanFirst = first }
    }

    /// Whether the request needs no more readings: answered, or abandoned.
    var isDone: Bool { state.withLock { $0.answered || $0.abandoned } }

    func abandon() { state.withLock { $0.abandoned = true } }

    /// Records what `update` changes, then answers when that is enough.
    private func answer(after update: (inout State) -> Void) {
        var readsLatin = false
        defer { if readsLatin { readLatinLater?(self) } }
        // What to answer with, decided under the lock: a settling reading, or both results.
        let answer = state.withLock { s -> (latin: Outcome?, korean: Outcome?, density: Double, strokes: [Stroke]?)? in
            update(&s)
            defer {
                // The Latin job put off reads once the Korean reading is in and has not answered.
                if s.latinPutOff, !s.answered, !s.abandoned, Self.koreanNeedsLatin(s) {
                    s.latinPutOff = false
                    readsLatin = true
                }
            }
            guard s.armed, !s.abandoned, !s.answered else { return nil }
            if let density = s.density {
                let dense = AutoLanguage.isDense(density)
                if case .success(let korean)? = s.results[1], AutoLanguage.koreanAnswers(korean.first, dense: dense, strokes: s.strokes) {
                    s.answered = true
                    return (nil, s.results[1], density, nil)
                }
                if case .success(let latin)? = s.results[0], AutoLanguage.latinAnswers(latin.first, dense: dense, strokes: s.strokes) {
                    s.answered = true
                    return (s.results[0], nil, density, nil)
                }
            }
            guard let latin = s.results[0], let korean = s.results[1] else { return nil }
            // Two readings are chosen between by the density: the first job to start works it out
            // before it reads. A job that never ran (shut down) fails, and then it does not matter.
            if case .success = latin, case .success = korean, s.density == nil { return nil }
            s.answered = true
            return (latin, korean, s.density ?? AutoLanguage.hangulDensity, s.strokes)
        }
        guard let answer else { return }
        switch (answer.latin, answer.korean) {
        case (.success(let latin)?, nil): completion(.success(AutoChoice(reading: latin.first, index: 0)))
        case (nil, .success(let korean)?): completion(.success(Self.choice(korean.first, 1, korean: korean)))
        case (.success(let latin)?, .success(let korean)?):
            let decision = AutoLanguage.decide(latin: latin.first, korean: korean.first, density: answer.density,
                                               strokes: answer.strokes, koreanAgain: korean.again)
            // Chosen line by line, or to be split, it is not read again as a whole by either model.
            var choice = decision.index.map { Self.choice(decision.reading, $0, korean: korean) }
                ?? AutoChoice(reading: decision.reading, index: 1, readAgain: true)
            if let split = decision.split {
                choice.split = split
                choice.readAgain = true
            }
            completion(.success(choice))
        case (.success(let latin)?, .failure?): completion(.success(AutoChoice(reading: latin.first, index: 0)))
        case (.failure(let error)?, .success(let korean)?):
            // Alone, the Korean reading stands only for Hangul: it reads Latin ink as Hangul at times.
            completion(AutoLanguage.isMostlyHangul(korean.first.text)
                ? .success(Self.choice(korean.first, 1, korean: korean)) : .failure(error))
        case (.failure(let error)?, _): completion(.failure(error))
        case (nil, _): break   // not reached: a Korean result alone answers only when it settled it
        }
    }

    /// Whether the Korean job, put before the Latin one on dense ink, has ended or read without
    /// a reading that answers alone.
    private static func koreanNeedsLatin(_ s: State) -> Bool {
        if case .failure? = s.results[1] { return true }
        guard let first = s.koreanFirst ?? (try? s.results[1]?.get())?.first else { return false }
        return !AutoLanguage.koreanAnswers(first, dense: true, strokes: s.strokes)
    }

    /// The Korean job's second reading when the Korean one is chosen and was read again (its
    /// first when reading it again failed: not tried once more).
    private static func choice(_ reading: Recognition, _ index: Int, korean: AutoReading) -> AutoChoice {
        guard index == 1, korean.triedAgain else { return AutoChoice(reading: reading, index: index) }
        guard var again = korean.again else { return AutoChoice(reading: reading, index: 1, readAgain: true) }
        again.timings = again.timings + reading.timings
        return AutoChoice(reading: again, index: 1, readAgain: true)
    }
}
