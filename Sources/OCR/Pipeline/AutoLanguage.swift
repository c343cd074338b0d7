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
/// on its own, its density that of its own lines. A group goes against the whole ink's choice
/// only when its own reading of the other script (the only one, when one model alone read it; else
/// it is left out) settles it on ink as dense as that script writes (a sure Korean reading on dense ink, a sure
/// Latin one on sparse ink): a short Latin word in a column of names, read by the Korean model as
/// a syllable that fills it, stays Latin. When some groups go against it, the answer is each
/// group's lines as its chosen model read them (a Korean note above an English one). Lines are
/// found by each model's own line finder, and Hangul's (syllable blocks) can join a line of
/// capitals, digits or a cursive word to the line above or under it (its letters are single tall
/// strokes): when the Korean model found one line, over the whole ink, where the Latin model found
/// sure Latin lines on sparse ink among others, and the other strokes are as dense as Hangul, those
/// are read by the Korean model alone (`AutoSplit`, a third job for such ink only). When every
/// group goes against the whole ink's choice, the answer is the other model's whole reading.
///
/// A reading answers before the other has arrived when it would be the answer whatever the other
/// says (`koreanAnswers`, `latinAnswers`): it settles the choice, on dense ink for a Korean one and
/// on other ink for a Latin one, its words read nearly all the strokes, and on several lines each
/// line settles it on strokes of its own written as densely as its script writes. `decide` answers the
/// same when both are there, so the answer does not depend on which arrives first. Each model reads
/// its own script faster than the other script.
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


    /// What `auto` answers with when both readings are there: a reading, the index of its
    /// language (0 Latin, 1 Korean; nil: line by line), and strokes still to be read by the Korean
    /// model alone (`split`, nil: none).
    struct Decision {
        var reading: Recognition
        var index: Int?
        var split: AutoSplit?
    }

    /// The answer from both readings. `strokes`: the request's (each line's density; without them
    /// every line counts as `dense`, and no line is read again alone); `koreanAgain`: the Korean
    /// job's second reading of the same ink, whose lines stand for the first's when chosen line by
    /// line. A reading that answers early (`koreanAnswers`, `latinAnswers`) is the answer here too,
    /// so the answer does not depend on which reading arrives first.
    static func decide(latin: Recognition, korean: Recognition, dense: Bool, strokes: [Stroke]? = nil,
                       koreanAgain: Recognition? = nil) -> Decision {
        let both = latin.timings + korean.timings
        func whole(_ index: Int) -> Decision {
            var chosen = index == 1 ? korean : latin
            chosen.timings = both
            return Decision(reading: chosen, index: index)
        }
        if koreanAnswers(korean, dense: dense, strokes: strokes) { return whole(1) }
        if latinAnswers(latin, dense: dense, strokes: strokes) { return whole(0) }
        var decision = whole(looksKorean(latin: latin, korean: korean, dense: dense) ? 1 : 0)
        if let choices = groupChoices(latin: latin, korean: korean, dense: dense, strokes: strokes) {
            if !choices.choices.contains(false) || !choices.choices.contains(true) {
                decision = whole(choices.choices[0] ? 1 : 0)
            } else {
                decision = Decision(reading: mixed(choices, latin: latin, korean: korean, koreanAgain: koreanAgain), index: nil)
            }
        }
        decision.split = split(latin: latin, korean: korean, strokes: strokes)
        return decision
    }

    /// Each group of lines (`LineGroups`) chosen on its own, when there are several: it takes the
    /// whole ink's choice unless its own reading of the other script (the only one, for a group
    /// one model alone read) settles it on ink as dense as that script writes. Nil for one group
    /// (or lines that name no strokes).
    static func groupChoices(latin: Recognition, korean: Recognition, dense: Bool,
                             strokes: [Stroke]?) -> (groups: [LineGroups.Group], choices: [Bool])? {
        guard let groups = LineGroups(latin: latin.lines, korean: korean.lines)?.groups, groups.count > 1 else { return nil }
        let whole = looksKorean(latin: latin, korean: korean, dense: dense)
        let choices = groups.map { group in
            let lines = (latin: reading(group.latin.map { latin.lines[$0] }), korean: reading(group.korean.map { korean.lines[$0] }))
            let groupDense = strokes.flatMap { density(of: lines.korean.lines, and: lines.latin.lines, in: $0) }.map { $0 >= hangulDensity } ?? dense
            // A group one model alone read is that model's reading, or nothing.
            let isKorean = group.latin.isEmpty || (!group.korean.isEmpty && looksKorean(latin: lines.latin, korean: lines.korean, dense: groupDense))
            guard isKorean != whole else { return whole }
            // Against the whole ink's choice, a group needs its own reading to settle it, on ink as
            // dense as its script writes.
            let goesAgainst = isKorean ? settles(korean: lines.korean) && groupDense : settles(latin: lines.latin) && !groupDense
            return goesAgainst ? isKorean : whole
        }
        return (groups, choices)
    }

    /// Each group's lines as its chosen model read them, top to bottom; a Korean line the Korean
    /// job read again (`koreanAgain`, the line of the same strokes) as read again.
    static func mixed(_ choices: (groups: [LineGroups.Group], choices: [Bool]), latin: Recognition, korean: Recognition,
                      koreanAgain: Recognition?) -> Recognition {
        let again = Dictionary((koreanAgain?.lines ?? []).map { (Set($0.words.flatMap(\.strokes)), $0) }, uniquingKeysWith: { a, _ in a })
        let lines = zip(choices.groups, choices.choices).flatMap { group, isKorean in
            isKorean ? group.korean.map { korean.lines[$0] }.map { again[Set($0.words.flatMap(\.strokes))] ?? $0 }
                : group.latin.map { latin.lines[$0] }
        }
        var answer = reading(lines)
        for whole in [koreanAgain ?? korean, latin] where !whole.text.isEmpty && !answer.candidates.contains(where: { $0.text == whole.text }) {
            answer.candidates.append(Recognition.Candidate(text: whole.text, confidence: min(whole.confidence, answer.confidence)))
        }
        answer.timings = latin.timings + korean.timings + (koreanAgain?.timings ?? Recognition.Timings())
        return answer
    }

    /// Strokes per line height of `lines` (each the strokes its words read, as found), and of the
    /// strokes of `others` none of `lines` read, taken as one more line; nil when no word names
    /// strokes.
    static func density(of lines: [Recognition.Line], and others: [Recognition.Line] = [], in strokes: [Stroke]) -> Double? {
        let valid = { (line: Recognition.Line) in Set(line.words.flatMap(\.strokes).filter { strokes.indices.contains($0) }) }
        var sets = lines.map(valid).filter { !$0.isEmpty }
        let read = sets.reduce(into: Set<Int>()) { $0.formUnion($1) }
        let left = others.reduce(into: Set<Int>()) { $0.formUnion(valid($1)) }.subtracting(read)
        if !left.isEmpty { sets.append(left) }
        guard !sets.isEmpty else { return nil }
        return StrokeDensity.strokesPerLineHeight(strokes, lines: sets.map { $0.sorted() })
    }

    /// A reading of `lines` alone (no timings; its one candidate is its text).
    static func reading(_ lines: [Recognition.Line]) -> Recognition {
        let text = lines.map(\.text).joined(separator: "\n")
        let confidence = RecognitionPipeline.confidence(of: lines)
        return Recognition(text: text, confidence: confidence, candidates: text.isEmpty ? [] : [.init(text: text, confidence: confidence)],
                           lines: lines, timings: Recognition.Timings())
    }

    /// When the Korean model found one line where the Latin model found several, some of them
    /// sure Latin lines on sparse ink and some not, the Korean line finder has joined a line of
    /// Latin to a line of something else (its syllable blocks join close lines whose letters are
    /// single tall strokes): the strokes of the other lines, to be read by the Korean model alone
    /// (`AutoSplit`), when they are written as densely as Hangul. Nil otherwise, or without
    /// strokes.
    static func split(latin: Recognition, korean: Recognition, strokes: [Stroke]?) -> AutoSplit? {
        guard let strokes, korean.lines.count == 1, latin.lines.count > 1 else { return nil }
        // Sure lines of two characters or more, a letter among them, on sparse ink (a stroke of a
        // syllable the Latin model took for a digit, or a row of finals read as `00`, is not a
        // line of Latin).
        var sure = latin.lines.filter { line in
            line.text.filter { !$0.isWhitespace }.count >= 2 && line.text.contains(where: \.isLetter) && settles(latin: reading([line]))
                && (density(of: [line], in: strokes).map { $0 < hangulDensity } ?? false)
        }
        var kept = Set(sure.flatMap { $0.words.flatMap(\.strokes) })
        let rest = strokes.indices.filter { !kept.contains($0) && strokes[$0].bounds != nil }
        guard !rest.isEmpty else { return nil }
        // Each a line of its own: at most a quarter of its height shared with the other strokes.
        let boxes = rest.compactMap { strokes[$0].bounds }
        let restBox = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
        sure = sure.filter { line in
            min(line.box.maxY, restBox.maxY) - max(line.box.minY, restBox.minY) <= 0.25 * min(line.box.height, restBox.height)
        }
        // ... that the Korean line joined (read strokes of).
        let joined = Set(korean.lines[0].words.flatMap(\.strokes))
        sure = sure.filter { line in line.words.contains { word in word.strokes.contains(where: joined.contains) } }
        guard !sure.isEmpty, sure.count < latin.lines.count else { return nil }
        kept = Set(sure.flatMap { $0.words.flatMap(\.strokes) })
        let others = strokes.indices.filter { !kept.contains($0) && strokes[$0].bounds != nil }
        // Only Hangul could be read better: ink of the other strokes as sparse as Latin is not
        // read a third time.
        guard !others.isEmpty, StrokeDensity.strokesPerLineHeight(strokes, lines: [others]) >= hangulDensity else { return nil }
        return AutoSplit(sure: sure, latin: latin.lines.filter { line in !sure.contains(line) }, strokes: others)
    }

    /// Whether the Korean reading is the answer whatever the Latin one says, so that it may answer
    /// before that is there: it settles the choice on dense ink and, when the strokes are known,
    /// its words read nearly all the strokes and, on several lines, each line settles it on
    /// strokes of its own written as densely as Hangul (else a line of Latin may be among them or
    /// left out, to be chosen line by line).
    static func koreanAnswers(_ korean: Recognition, dense: Bool, strokes: [Stroke]?) -> Bool {
        dense && settles(korean: korean) && answersAlone(korean, dense: true, strokes: strokes, settles: settles(korean:))
    }

    /// The same for the Latin reading: it settles the choice on ink that is not dense, and on
    /// several lines so does each line, on strokes of its own written less densely than Hangul.
    static func latinAnswers(_ latin: Recognition, dense: Bool, strokes: [Stroke]?) -> Bool {
        !dense && settles(latin: latin) && answersAlone(latin, dense: false, strokes: strokes, settles: settles(latin:))
    }

    /// Share of the strokes a reading's words must read to answer alone.
    static let minimumCoverage = 0.8

    private static func answersAlone(_ reading: Recognition, dense: Bool, strokes: [Stroke]?,
                                     settles: (Recognition) -> Bool) -> Bool {
        guard let strokes else { return reading.lines.count <= 1 || reading.lines.allSatisfy { settles(Self.reading([$0])) } }
        let drawn = strokes.indices.filter { strokes[$0].bounds != nil }
        let read = Set(reading.lines.flatMap { $0.words.flatMap(\.strokes) })
        guard Double(drawn.filter(read.contains).count) >= minimumCoverage * Double(drawn.count) else { return false }
        // One line: the whole ink's density has said it (measured on lines found as for Hangul,
        // which a line's own box would not match: a short Latin word is as dense as Hangul in its
        // own box more often).
        guard reading.lines.count > 1 else { return true }
        return reading.lines.allSatisfy { line in
            guard let lineDensity = density(of: [line], in: strokes) else { return false }
            return settles(Self.reading([line])) && (lineDensity >= hangulDensity) == dense
        }
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
/// both readings' lines. Nil when a line with text names no strokes; a line with neither is in no
/// group.
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
        var unread = Set<Int>()   // lines with neither text nor strokes: in no group
        for (i, line) in lines.enumerated() {
            let strokes = line.words.flatMap(\.strokes)
            if strokes.isEmpty, !line.text.isEmpty { return nil }
            if strokes.isEmpty { unread.insert(i) }
            for stroke in strokes {
                if let other = owner[stroke] { parent[root(i)] = root(other) } else { owner[stroke] = i }
            }
        }
        var byRoot: [Int: Group] = [:]
        for (i, line) in lines.enumerated() where !unread.contains(i) {
            var group = byRoot[root(i), default: Group()]
            if i < latin.count { group.latin.append(i) } else { group.korean.append(i - latin.count) }
            group.top = min(group.top, line.box.minY)
            group.first = min(group.first, i)
            byRoot[root(i)] = group
        }
        groups = byRoot.values.sorted { ($0.top, $0.first) < ($1.top, $1.first) }
    }
}

/// Ink the Korean model read as one line that holds sure Latin lines and other strokes, written
/// as densely as Hangul (`AutoLanguage.split`): the sure lines are kept, and the other strokes are
/// read by the Korean model alone; that reading or the Latin model's lines of them, as the rule
/// chooses for dense ink.
struct AutoSplit: Sendable, Equatable {
    /// The Latin model's sure lines.
    var sure: [Recognition.Line]
    /// Its other lines.
    var latin: [Recognition.Line]
    /// The other strokes (indexes into the request's), in order.
    var strokes: [Int]

    /// The answer, given the Korean model's reading of `strokes` alone (its words' strokes are
    /// indexes into `strokes`), and the work done before it.
    func answer(korean: Recognition, before: Recognition.Timings) -> Recognition {
        var korean = korean
        for l in korean.lines.indices {
            for w in korean.lines[l].words.indices {
                korean.lines[l].words[w].strokes = korean.lines[l].words[w].strokes.compactMap {
                    strokes.indices.contains($0) ? strokes[$0] : nil
                }
            }
        }
        let others = AutoLanguage.looksKorean(latin: AutoLanguage.reading(latin), korean: korean, dense: true) ? korean.lines : latin
        var answer = AutoLanguage.reading((sure + others).sorted { $0.box.minY < $1.box.minY })
        answer.timings = before + korean.timings
        return answer
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

/// Collects the Latin (index 0) and the Korean (index 1) model's results and whether the ink is
/// dense, with its strokes (`know(dense:strokes:)`, from the first job to start), and, once armed
/// (both jobs are queued), calls the completion once: with a reading that wins whatever the other
/// says (`AutoLanguage.koreanAnswers`, `latinAnswers`) as soon as both it and the density are known
/// (the other result is then dropped), else when both results are there: `AutoLanguage.decide`'s
/// answer when both succeeded, the one that did, or the Latin model's failure. A Korean reading chosen that the Korean job read again is answered with its second
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
                if case .success(let korean)? = s.results[1], AutoLanguage.koreanAnswers(korean.first, dense: dense, strokes: s.strokes) {
                    s.answered = true
                    return (nil, s.results[1], dense, nil)
                }
                if case .success(let latin)? = s.results[0], AutoLanguage.latinAnswers(latin.first, dense: dense, strokes: s.strokes) {
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
            let decision = AutoLanguage.decide(latin: latin.first, korean: korean.first, dense: answer.dense,
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

    /// The Korean job's second reading when the Korean one is chosen and was read again (its
    /// first when reading it again failed: not tried once more).
    private static func choice(_ reading: Recognition, _ index: Int, korean: AutoReading) -> AutoChoice {
        guard index == 1, korean.triedAgain else { return AutoChoice(reading: reading, index: index) }
        guard var again = korean.again else { return AutoChoice(reading: reading, index: 1, readAgain: true) }
        again.timings = again.timings + reading.timings
        return AutoChoice(reading: again, index: 1, readAgain: true)
    }
}
