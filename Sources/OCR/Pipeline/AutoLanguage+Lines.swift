import Ink

/// `auto` line by line: the readings' lines grouped by strokes, each group chosen on its own, and
/// ink the Korean line finder joined read apart (see `AutoLanguage`).
extension AutoLanguage {
    /// Each group of lines (`LineGroups`) chosen on its own, when there are several: it takes the
    /// whole ink's choice (`whole`: Korean) unless its own reading of the other script (the only
    /// one, for a group one model alone read) settles it on ink as dense as that script writes.
    /// Nil for one group (or lines that name no strokes).
    static func groupChoices(latin: Recognition, korean: Recognition, whole: Bool, dense: Bool,
                             strokes: [Stroke]?) -> (groups: [LineGroups.Group], choices: [Bool])? {
        guard let groups = LineGroups(latin: latin.lines, korean: korean.lines)?.groups, groups.count > 1 else { return nil }
        let choices = groups.map { group in
            let lines = (latin: reading(group.latin.map { latin.lines[$0] }), korean: reading(group.korean.map { korean.lines[$0] }))
            let groupDense = strokes.flatMap { density(of: lines.korean.lines, and: lines.latin.lines, in: $0) }.map(isDense) ?? dense
            // A group one model alone read is that model's reading, or nothing. (Sparseness only
            // matters when neither reading is sure, and then a group keeps the whole ink's choice.)
            let isKorean = group.latin.isEmpty || (!group.korean.isEmpty
                && looksKorean(latin: lines.latin, korean: lines.korean, dense: groupDense, sparse: false))
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
        // line of Latin). Sure by confidence alone: a word of its list read less surely is not
        // taken for a line of its own here (the other strokes must then be as dense as Hangul
        // without it, and a column of names they are not).
        var sure = latin.lines.filter { line in
            line.text.filter { !$0.isWhitespace }.count >= 2 && line.text.contains(where: \.isLetter)
                && line.confidence >= latinSureAbove
                && (density(of: [line], in: strokes).map { !isDense($0) } ?? false)
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
        guard !others.isEmpty, isDense(StrokeDensity.strokesPerLineHeight(strokes, lines: [others])) else { return nil }
        return AutoSplit(sure: sure, latin: latin.lines.filter { line in !sure.contains(line) }, strokes: others)
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
        let others = AutoLanguage.looksKorean(latin: AutoLanguage.reading(latin), korean: korean, dense: true, sparse: false) ? korean.lines : latin
        var answer = AutoLanguage.reading((sure + others).sorted { $0.box.minY < $1.box.minY })
        answer.timings = before + korean.timings
        return answer
    }
}
