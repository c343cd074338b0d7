import Ink
import Locking

/// `"lang": "auto"`: no language to choose. The ink is read by the Latin and the Korean model at
/// once (one job each on the worker pool), and one reading is kept:
///
/// 1. A reading that settles it: the Korean one when it is sure (confidence 0.5 or more), mostly
///    Hangul and fills the ink (`settles(korean:)`); the Latin one when it is sure (0.85 or more,
///    `settles(latin:)`). When both settle, the Korean one on ink written as densely as Hangul
///    (`StrokeDensity`, lines found as for Hangul: 3 strokes per line height or more,
///    `hangulDensity`; held-out Korean hands and notes at least 3.3 for nine samples in ten,
///    held-out Latin words and text segments at most 3.0 for nine in ten), else the Latin one.
/// 2. Else the Korean reading when the Korean model wrote mostly Hangul (a syllable counts as 2.5
///    Latin letters: it is about as wide as two or three) and its reading fills the ink (a
///    syllable is about as wide as the line is high, a Latin letter or digit half of that: Latin
///    ink it misreads comes back as one or two syllables), or when the Latin model read nothing;
///    else the Latin reading.
///
/// The models' confidences alone do not decide: the Latin model reads Hangul as noise about as
/// confident as the Korean model's reading. Rules and thresholds were chosen on held-out ink
/// (training/RUNS.md, "Reading without a language"). The density only says which of two settling
/// readings wins: it was measured on ink drawn from fonts, and a quick real hand that joins its
/// strokes writes Hangul less densely.
///
/// Line by line: when both readings are there, their lines are grouped by the strokes they read
/// (`LineGroups`: a Korean line and the Latin lines of the same strokes), and each group is chosen
/// by the same rule on its own, its density that of its own strokes. A group goes against the
/// whole ink's choice only when its own reading of the other script settles it on ink as dense as
/// that script writes (a sure Korean reading on dense ink, a sure Latin one on sparse ink): a short
/// Latin word in a column of names, read by the Korean model as a syllable that fills it, stays
/// Latin. When some groups go against it, the answer is each group's lines as its chosen model
/// read them (a Korean note above an English one); else, or with one group, the whole ink's choice.
/// Lines are found by each model's own line finder, and Hangul's (syllable blocks) can join a
/// line of capitals or digits to the line under it: those are chosen together.
///
/// The first reading to arrive is the answer when it settles the choice and would win over the
/// other (a Korean one on dense ink, a Latin one on other ink) and, on ink of several lines, every
/// line of it settles on its own: the same answer as when both are there, sooner. Each model
/// reads its own script faster than the other script.
public enum AutoLanguage {
    /// The request name.
    public static let name = "auto"

    static let syllableWeight = 2.5
    static let minimumFill = 0.4
    static let latinSureAbove = 0.85
    static let koreanSureAbove = 0.5
    /// Strokes per line height from which ink is taken to be Hangul.
    static let hangulDensity = 3.0

    /// Whether ink is written as densely as Hangul: the request's strokes as they came (not
    /// repaired or smoothed), in lines found with `segmentation` and syllable blocks grouped.
    static func isDense(_ strokes: [Stroke], segmentation: LineSegmenter.Options) -> Bool {
        var options = segmentation
        options.groupsSyllableBlocks = true
        return StrokeDensity.strokesPerLineHeight(strokes, segmenter: LineSegmenter(options: options)) >= hangulDensity
    }

    /// The reading kept from the Latin model's and the Korean model's readings of the same ink,
    /// `dense` or not; its timings are both readings' work.
    public static func choose(latin: Recognition, korean: Recognition, dense: Bool) -> Recognition {
        decide(latin: latin, korean: korean, dense: dense).reading
    }

    /// `choose`, with the index of the language chosen (0 Latin, 1 Korean; nil: line by line).
    /// `strokes`: the request's, for each line's density (without them every line counts as
    /// `dense`); `koreanAgain`: the Korean job's second reading of the same lines, whose lines
    /// stand for the first's when chosen line by line.
    static func decide(latin: Recognition, korean: Recognition, dense: Bool, strokes: [Stroke]? = nil,
                       koreanAgain: Recognition? = nil) -> (reading: Recognition, index: Int?) {
        if let mixed = byLine(latin: latin, korean: korean, dense: dense, strokes: strokes, koreanAgain: koreanAgain) {
            return (mixed, nil)
        }
        let index = looksKorean(latin: latin, korean: korean, dense: dense) ? 1 : 0
        var chosen = index == 1 ? korean : latin
        chosen.timings = latin.timings + korean.timings
        return (chosen, index)
    }

    /// Each group of lines (`LineGroups`) chosen on its own (see the type), when there are
    /// several and some go against the whole ink's choice; else nil.
    static func byLine(latin: Recognition, korean: Recognition, dense: Bool, strokes: [Stroke]?,
                       koreanAgain: Recognition?) -> Recognition? {
        guard let groups = LineGroups(latin: latin.lines, korean: korean.lines)?.groups, groups.count > 1 else { return nil }
        let whole = looksKorean(latin: latin, korean: korean, dense: dense)
        let choices = groups.map { group in
            let lines = (latin: reading(group.latin.map { latin.lines[$0] }), korean: reading(group.korean.map { korean.lines[$0] }))
            let groupDense = strokes.flatMap { density(of: lines.latin.lines + lines.korean.lines, in: $0) }.map { $0 >= hangulDensity } ?? dense
            let isKorean = looksKorean(latin: lines.latin, korean: lines.korean, dense: groupDense)
            guard isKorean != whole else { return whole }
            // Against the whole ink's choice, a group needs its own reading to settle it, on ink as
            // dense as its script writes.
            let goesAgainst = isKorean ? settles(korean: lines.korean) && groupDense : settles(latin: lines.latin) && !groupDense
            return goesAgainst ? isKorean : whole
        }
        guard choices.contains(true), choices.contains(false) else { return nil }
        let koreanLines = koreanAgain.flatMap { $0.lines.count == korean.lines.count ? $0.lines : nil } ?? korean.lines
        let lines = zip(groups, choices).flatMap { group, isKorean in
            isKorean ? group.korean.map { koreanLines[$0] } : group.latin.map { latin.lines[$0] }
        }
        var mixed = reading(lines)
        for whole in [korean, latin] where !whole.text.isEmpty && !mixed.candidates.contains(where: { $0.text == whole.text }) {
            mixed.candidates.append(Recognition.Candidate(text: whole.text, confidence: min(whole.confidence, mixed.confidence)))
        }
        mixed.timings = latin.timings + korean.timings + (koreanAgain?.timings ?? Recognition.Timings())
        return mixed
    }

    /// Strokes per line height of the strokes of `lines`' words, taken as one line; nil when
    /// their words name no strokes.
    static func density(of lines: [Recognition.Line], in strokes: [Stroke]) -> Double? {
        let indexes = Set(lines.flatMap { $0.words.flatMap(\.strokes) }).filter { strokes.indices.contains($0) }
        guard !indexes.isEmpty else { return nil }
        return StrokeDensity.strokesPerLineHeight(strokes, lines: [indexes.sorted()])
    }

    /// A reading of `lines` alone (no timings; its one candidate is its text).
    static func reading(_ lines: [Recognition.Line]) -> Recognition {
        let text = lines.map(\.text).joined(separator: "\n")
        let confidence = RecognitionPipeline.confidence(of: lines)
        return Recognition(text: text, confidence: confidence, candidates: text.isEmpty ? [] : [.init(text: text, confidence: confidence)],
                           lines: lines, timings: Recognition.Timings())
    }

    /// Whether a reading that settles the choice may answer before the other reading is there:
    /// on one line, yes; on several, when each of its lines settles on its own (else a line of the
    /// other script may be among them, to be chosen line by line).
    static func answersEarly(_ reading: Recognition, settles: (Recognition) -> Bool) -> Bool {
        reading.lines.count <= 1 || reading.lines.allSatisfy { settles(Self.reading([$0])) }
    }

    static func looksKorean(latin: Recognition, korean: Recognition, dense: Bool) -> Bool {
        let latinSettles = settles(latin: latin)
        if settles(korean: korean), dense || !latinSettles { return true }
        if latinSettles { return false }
        if latin.text.isEmpty { return !korean.text.isEmpty }
        return isMostlyHangul(korean.text) && fill(korean, latin) >= minimumFill
    }

    /// Whether the Latin reading settles the choice (whatever the Korean model wrote, unless that
    /// settles it too and the ink is dense): a sure one.
    static func settles(latin: Recognition) -> Bool { !latin.text.isEmpty && latin.confidence >= latinSureAbove }

    /// Whether the Korean reading settles the choice (whatever the Latin model wrote, unless that
    /// settles it too and the ink is not dense): sure, mostly Hangul, and filling the ink.
    static func settles(korean: Recognition) -> Bool {
        korean.confidence >= koreanSureAbove && isMostlyHangul(korean.text) && fill(korean) >= minimumFill
    }

    static func isHangulSyllable(_ scalar: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(scalar.value) }

    /// Whether Hangul syllables, weighted, are at least half of the letters of `text` (digits,
    /// punctuation and spaces do not count).
    static func isMostlyHangul(_ text: String) -> Bool {
        var hangul = 0.0, latin = 0.0
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            if isHangulSyllable(scalar) { hangul += syllableWeight } else { latin += 1 }
        }
        return hangul > 0 && hangul >= 0.5 * (hangul + latin)
    }

    /// How much of the ink the Korean reading's characters would fill: their widths in line
    /// heights (a syllable 1, any other character 0.5, a space 0.3) over the lines' lengths (the
    /// box of every line of both readings, or of the Korean one alone, cut into the Korean
    /// reading's number of lines).
    static func fill(_ korean: Recognition, _ latin: Recognition? = nil) -> Double {
        let boxes = (korean.lines + (latin?.lines ?? [])).map(\.box)
        guard let first = boxes.first else { return 0 }
        let union = boxes.dropFirst().reduce(first) { $0.union($1) }
        let lines = Double(max(1, korean.lines.count))
        let length = union.width / max(1, union.height / lines) * lines
        var width = 0.0
        for line in korean.lines {
            for scalar in line.text.unicodeScalars {
                width += isHangulSyllable(scalar) ? 1 : (scalar.properties.isWhitespace ? 0.3 : 0.5)
            }
        }
        return width / max(length, 1e-6)
    }
}

/// The lines two readings of the same ink found, in groups that share strokes: a line of one
/// reading and a line of the other that read any stroke in common are in the same group (the
/// Korean model groups syllable blocks, so a Hangul line may be two Latin ones, and a line of one
/// script may be cut differently by the two). Groups are top to bottom; each holds indexes into
/// both readings' lines. Nil when a line with text names no strokes.
struct LineGroups {
    struct Group {
        var latin: [Int] = []
        var korean: [Int] = []
        var top = Double.infinity
        /// The group's first line (ties of `top`).
        var first = Int.max
    }

    var groups: [Group]

    init?(latin: [Recognition.Line], korean: [Recognition.Line]) {
        let lines = latin + korean
        var parent = Array(lines.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        var owner: [Int: Int] = [:]   // stroke → a line that read it
        for (i, line) in lines.enumerated() {
            let strokes = line.words.flatMap(\.strokes)
            if strokes.isEmpty, !line.text.isEmpty { return nil }
            for stroke in strokes {
                if let other = owner[stroke] { parent[root(i)] = root(other) } else { owner[stroke] = i }
            }
        }
        var byRoot: [Int: Group] = [:]
        for (i, line) in lines.enumerated() {
            var group = byRoot[root(i), default: Group()]
            if i < latin.count { group.latin.append(i) } else { group.korean.append(i - latin.count) }
            group.top = min(group.top, line.box.minY)
            group.first = min(group.first, i)
            byRoot[root(i)] = group
        }
        groups = byRoot.values.sorted { ($0.top, $0.first) < ($1.top, $1.first) }
    }
}

/// What one automatic language's job read: its first reading, which the choice is made on, and,
/// when the job read the ink again on its own (`InkRecognizer`: an unsure Korean reading of
/// Hangul), that reading (nil when reading it again failed: the first stands).
struct AutoReading: Sendable {
    var first: Recognition
    var again: Recognition?
    var triedAgain = false
}

/// The reading `auto` answers with, the index of its language (0 Latin, 1 Korean), and whether it
/// was already read again (else an unsure one is, by its own model).
struct AutoChoice: Sendable {
    var reading: Recognition
    var index: Int
    var readAgain = false
}

/// Collects the Latin (index 0) and the Korean (index 1) model's results and whether the ink is
/// dense (`know(dense:)`, from the first job to start), and, once armed (both jobs are queued),
/// calls the completion once: with a reading that settles the choice and wins whatever the other
/// says as soon as both it and the density are known (the other result is then dropped), else
/// when both results are there: the choice when both succeeded, the one that did, or the first
/// failure. A Korean reading chosen that the Korean job read again is answered with its second
/// reading. Abandoned (the request could not be queued whole), it calls nothing. An early answer's
/// timings are its own job's work.
final class AutoLanguageJoin: Sendable {
    typealias Outcome = Result<AutoReading, OCRError>

    private struct State {
        var results: [Outcome?] = [nil, nil]
        var dense: Bool?
        var strokes: [Stroke]?
        var armed = false
        var abandoned = false
        var answered = false
    }

    private let state = Lock(State())
    private let completion: @Sendable (Result<AutoChoice, OCRError>) -> Void

    init(completion: @escaping @Sendable (Result<AutoChoice, OCRError>) -> Void) {
        self.completion = completion
    }

    func deliver(_ index: Int, _ result: Result<Recognition, OCRError>) {
        deliver(index, result.map { AutoReading(first: $0) })
    }

    func deliver(_ index: Int, _ result: Outcome) {
        answer { $0.results[index] = result }
    }

    /// Whether the ink is dense, and its strokes (each line's density, when chosen line by line).
    func know(dense: Bool, strokes: [Stroke]? = nil) {
        answer {
            $0.dense = dense
            $0.strokes = strokes
        }
    }

    /// Both jobs are queued: from now on it may answer (with what has arrived so far, too).
    func arm() {
        answer { $0.armed = true }
    }

    /// Whether the density is known (a job that starts later need not work it out again).
    var knowsDensity: Bool { state.withLock { $0.dense != nil } }

    /// Whether the request needs no more readings: answered, or abandoned.
    var isDone: Bool { state.withLock { $0.answered || $0.abandoned } }

    func abandon() { state.withLock { $0.abandoned = true } }

    /// Records what `update` changes, then answers when that is enough.
    private func answer(after update: (inout State) -> Void) {
        // What to answer with, decided under the lock: a settling reading, or both results.
        let answer = state.withLock { s -> (latin: Outcome?, korean: Outcome?, dense: Bool, strokes: [Stroke]?)? in
            update(&s)
            guard s.armed, !s.abandoned, !s.answered else { return nil }
            if let dense = s.dense {
                if dense, case .success(let korean)? = s.results[1], AutoLanguage.settles(korean: korean.first),
                   AutoLanguage.answersEarly(korean.first, settles: AutoLanguage.settles(korean:)) {
                    s.answered = true
                    return (nil, s.results[1], dense, nil)
                }
                if !dense, case .success(let latin)? = s.results[0], AutoLanguage.settles(latin: latin.first),
                   AutoLanguage.answersEarly(latin.first, settles: AutoLanguage.settles(latin:)) {
                    s.answered = true
                    return (s.results[0], nil, dense, nil)
                }
            }
            guard let latin = s.results[0], let korean = s.results[1] else { return nil }
            // Two readings are chosen between by the density: the first job to start works it out
            // before it reads. A job that never ran (shut down) fails, and then it does not matter.
            if case .success = latin, case .success = korean, s.dense == nil { return nil }
            s.answered = true
            return (latin, korean, s.dense ?? true, s.strokes)
        }
        guard let answer else { return }
        switch (answer.latin, answer.korean) {
        case (.success(let latin)?, nil): completion(.success(AutoChoice(reading: latin.first, index: 0)))
        case (nil, .success(let korean)?): completion(.success(Self.choice(korean.first, 1, korean: korean)))
        case (.success(let latin)?, .success(let korean)?):
            let (reading, index) = AutoLanguage.decide(latin: latin.first, korean: korean.first, dense: answer.dense,
                                                       strokes: answer.strokes, koreanAgain: korean.again)
            // Chosen line by line, it is not read again as a whole by either model.
            completion(.success(index.map { Self.choice(reading, $0, korean: korean) }
                ?? AutoChoice(reading: reading, index: 1, readAgain: true)))
        case (.success(let latin)?, .failure?): completion(.success(AutoChoice(reading: latin.first, index: 0)))
        case (.failure(let error)?, .success(let korean)?):
            // Alone, the Korean reading stands only for Hangul: it reads Latin ink as Hangul at times.
            completion(AutoLanguage.isMostlyHangul(korean.first.text)
                ? .success(Self.choice(korean.first, 1, korean: korean)) : .failure(error))
        case (.failure(let error)?, _): completion(.failure(error))
        case (nil, _): break   // not reached: a Korean result alone answers only when it settled it
        }
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
