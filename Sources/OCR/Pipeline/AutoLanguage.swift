import Ink

/// `"lang": "auto"`: no language to choose. The ink is read by the Latin and the Korean model at
/// once (one job each on the worker pool; on ink as dense as most Hangul, `putOffDensity`, the
/// Latin model reads only when the Korean reading does not answer alone), and one reading is kept:
///
/// 1. A reading that settles it: the Korean one when it is sure (confidence 0.5 or more), mostly
///    Hangul and fills the ink (`settles(korean:)`); the Latin one when it is sure (0.85 or more,
///    or 0.5 or more when its words are words of the Latin model's word list: `settles(latin:)`).
///    When both settle, the Korean one on ink written as densely as Hangul (`StrokeDensity`,
///    lines found as for Hangul: 3 strokes per line height or more, `hangulDensity`; held-out
///    Korean hands and notes at least 3.3 for nine samples in ten, held-out Latin words and text
///    segments at most 3.0 for nine in ten), else the Latin one.
/// 2. Else the Korean reading when the Korean model wrote mostly Hangul (a syllable counts as 2.5
///    Latin letters: it is about as wide as two or three) and its reading fills the ink (a
///    syllable is about as wide as the line is high, a Latin letter or digit half of that: Latin
///    ink it misreads comes back as one or two syllables; on ink as sparse as Latin, under 2 strokes
///    per line height, which held-out Hangul hardly ever is, it must fill 0.8 of it; and not when
///    a narrow Korean line holds rows the Latin model read as lines of letters, `joinsRows`), or
///    when the Latin model read nothing; else the Latin reading.
///
/// The models' confidences alone do not decide: the Latin model reads Hangul as noise about as
/// confident as the Korean model's reading. Rules and thresholds were chosen on held-out ink
/// (training/RUNS.md, "Reading without a language"). The density only says which of two settling
/// readings wins and, on ink as sparse as Latin, how much an unsure Korean reading must fill: it
/// was measured on ink drawn from fonts, and a quick real hand that joins its strokes writes Hangul
/// less densely (so the sparse bound sits well under any held-out Hangul).
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
    /// Confidence from which a Latin reading of the Latin model's own words settles the choice
    /// (`isDictionaryReading`).
    static let latinWordsSureAbove = 0.5
    static let koreanSureAbove = 0.5
    /// Strokes per line height from which ink is taken to be Hangul.
    static let hangulDensity = 3.0

    /// Strokes per line height under which ink is taken to be Latin when neither reading is sure:
    /// held-out Latin words and text segments 60-84 % of samples, held-out Korean hands and notes
    /// 0-1 %.
    static let latinDensity = 2.0
    /// How much of ink that sparse the Korean reading must fill to be chosen when neither reading
    /// is sure (`minimumFill` elsewhere): of the held-out samples that rule chose Korean, the Latin
    /// ones filled 0.75 (median), the Korean ones 1.46 (median; a tenth under 1.06).
    static let sparseFill = 0.8

    /// Strokes per line height from which the Latin model reads only when the Korean reading does
    /// not answer alone (`AutoLanguageJoin.latinReadsNow`): 97 % of the 12 held-out Clova hands'
    /// samples and 84 % of the held-out notes, 3 % of 1,000 words and 10 % of 600 text segments of
    /// the Latin training persons (`inkbench density`; at 3, 11 % and 19 % of those, whose Latin
    /// reading would then wait for the Korean one).
    static let putOffDensity = 4.0

    /// Whether ink of `density` (`density(_:segmentation:)`) is written as densely as Hangul.
    static func isDense(_ density: Double) -> Bool { density >= hangulDensity }

    /// Whether ink of `density` is written as sparsely as Latin.
    static func isSparse(_ density: Double) -> Bool { density < latinDensity }

    /// Strokes per line height of ink: the request's strokes as they came (not repaired or
    /// smoothed), in lines found with `segmentation` and syllable blocks grouped.
    static func density(_ strokes: [Stroke], segmentation: LineSegmenter.Options) -> Double {
        var options = segmentation
        options.groupsSyllableBlocks = true
        return StrokeDensity.strokesPerLineHeight(strokes, segmenter: LineSegmenter(options: options))
    }

    /// The reading kept from the Latin model's and the Korean model's readings of the same ink,
    /// written with `density` strokes per line height; its timings are both readings' work.
    public static func choose(latin: Recognition, korean: Recognition, density: Double) -> Recognition {
        decide(latin: latin, korean: korean, density: density).reading
    }

    /// What `auto` answers with when both readings are there: a reading, the index of its
    /// language (0 Latin, 1 Korean; nil: line by line), and strokes still to be read by the Korean
    /// model alone (`split`, nil: none).
    struct Decision {
        var reading: Recognition
        var index: Int?
        var split: AutoSplit?
    }

    /// The answer from both readings of ink written with `density` strokes per line height.
    /// `strokes`: the request's (each line's density; without them every line counts as dense
    /// as the whole ink, and no line is read again alone); `koreanAgain`: the Korean job's second
    /// reading of the same ink, whose lines stand for the first's when chosen line by line. A
    /// reading that answers early (`koreanAnswers`, `latinAnswers`) is the answer here too, so the
    /// answer does not depend on which reading arrives first.
    static func decide(latin: Recognition, korean: Recognition, density: Double, strokes: [Stroke]? = nil,
                       koreanAgain: Recognition? = nil) -> Decision {
        let dense = isDense(density)
        let both = latin.timings + korean.timings
        func whole(_ index: Int) -> Decision {
            var chosen = index == 1 ? korean : latin
            chosen.timings = both
            return Decision(reading: chosen, index: index)
        }
        if koreanAnswers(korean, dense: dense, strokes: strokes) { return whole(1) }
        if latinAnswers(latin, dense: dense, strokes: strokes) { return whole(0) }
        let looks = looksKorean(latin: latin, korean: korean, dense: dense, sparse: isSparse(density))
        var decision = whole(looks ? 1 : 0)
        if let choices = groupChoices(latin: latin, korean: korean, whole: looks, dense: dense, strokes: strokes) {
            if !choices.choices.contains(false) || !choices.choices.contains(true) {
                decision = whole(choices.choices[0] ? 1 : 0)
            } else {
                decision = Decision(reading: mixed(choices, latin: latin, korean: korean, koreanAgain: koreanAgain), index: nil)
            }
        }
        decision.split = split(latin: latin, korean: korean, strokes: strokes)
        return decision
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
            return settles(Self.reading([line])) && isDense(lineDensity) == dense
        }
    }

    /// The rule of the whole ink (or of one group of lines): 1. and 2. above; on `sparse` ink, an
    /// unsure Korean reading must fill `sparseFill` of it.
    static func looksKorean(latin: Recognition, korean: Recognition, dense: Bool, sparse: Bool) -> Bool {
        let latinSettles = settles(latin: latin)
        if settles(korean: korean), dense || !latinSettles { return true }
        if latinSettles { return false }
        if latin.text.isEmpty { return !korean.text.isEmpty }
        if joinsRows(korean: korean, latin: latin) { return false }
        return isMostlyHangul(korean.text) && fill(korean, latin) >= (sparse ? sparseFill : minimumFill)
    }

    /// Width over height under which a Korean line holds at most two syllables.
    static let narrowLineAspect = 2.0
    /// Letters in a row a Latin line needs to count as a row of writing in `joinsRows` (the Latin
    /// model reads two lines of Hangul stacked as rows such as `L E E` or `at cs`).
    static let rowLetters = 3

    /// Whether the Korean line finder joined rows of writing that the Latin model read as lines
    /// of letters: a Korean line no wider than `narrowLineAspect` times its height holds two or
    /// more Latin lines with `rowLetters` letters or more in a row, one under the other (a column
    /// of names, a list). A Hangul line that narrow is a syllable or two; the Latin model cuts
    /// Hangul into rows of a few noise characters, or across a long line. Its fill then counts
    /// rows as if they were one line, so an unsure Korean reading of it is not kept by its fill.
    /// Asked of the whole ink as well as of each group of lines: one such line anywhere takes the
    /// fill from the whole Korean reading.
    static func joinsRows(korean: Recognition, latin: Recognition) -> Bool {
        let rows = latin.lines.filter { line in
            var run = 0, longest = 0
            for scalar in line.text.unicodeScalars {
                run = scalar.isASCII && scalar.properties.isAlphabetic ? run + 1 : 0
                longest = max(longest, run)
            }
            return longest >= rowLetters
        }
        guard rows.count >= 2 else { return false }
        return korean.lines.contains { line in
            let box = line.box
            guard box.height > 0, box.width <= narrowLineAspect * box.height else { return false }
            let inside = rows.map(\.box).filter { row in
                guard let common = row.intersection(box) else { return false }
                return common.height > 0.5 * row.height && common.width > 0.5 * row.width
            }.sorted { $0.minY < $1.minY }
            // Two of them one under the other: at most a quarter of the smaller height shared.
            return zip(inside, inside.dropFirst()).contains { upper, lower in
                min(upper.maxY, lower.maxY) - max(upper.minY, lower.minY) <= 0.25 * min(upper.height, lower.height)
            }
        }
    }

    /// Whether the Latin reading settles the choice (whatever the Korean model wrote, unless that
    /// settles it too and the ink is dense): a sure one, or one of words of the Latin model's
    /// word list read at `latinWordsSureAbove` or more (`isDictionaryReading`).
    static func settles(latin: Recognition) -> Bool {
        guard !latin.text.isEmpty else { return false }
        return latin.confidence >= latinSureAbove || (latin.confidence >= latinWordsSureAbove && isDictionaryReading(latin))
    }

    /// Whether every word of a reading is one of the Latin model's word list (`inDictionary`,
    /// marked by the Latin job: `markDictionaryWords`), with three letters or more in its words
    /// of two or more. The Latin model reads Hangul as short strings of letters and digits; read
    /// as whole words of its list, the ink was mostly Latin (held-out: `training/RUNS.md`).
    static func isDictionaryReading(_ reading: Recognition) -> Bool {
        var letters = 0
        for word in reading.lines.flatMap(\.words) {
            guard word.inDictionary else { return false }
            // `I` and `a` are words, but what the Latin model makes of a lone vertical stroke: they
            // are not counted towards the three letters.
            let count = word.text.unicodeScalars.filter { $0.properties.isAlphabetic }.count
            if count >= 2 { letters += count }
        }
        return letters >= 3
    }

    /// Marks the words of `reading` that `isWord` (the Latin model's word list) has: letters
    /// only once the punctuation and symbols around them are taken off (an apostrophe inside
    /// stays; a digit anywhere, `4ox`, is not a word), two or more of them (`I`, `a` alone).
    static func markDictionaryWords(_ reading: inout Recognition, isWord: (String) -> Bool) {
        for line in reading.lines.indices {
            for index in reading.lines[line].words.indices {
                let core = Self.letterCore(reading.lines[line].words[index].text)
                let long = core.count >= 2 || core == "I" || core == "a" || core == "A"
                reading.lines[line].words[index].inDictionary = long
                    && core.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII || $0 == "'" }
                    && isWord(core)
            }
        }
    }

    /// A word without the punctuation and symbols before and after it (`(Paradox),` → `Paradox`).
    static func letterCore(_ word: String) -> String {
        let isKept = { (c: Character) in !(c.isPunctuation || c.isSymbol) }
        guard let first = word.firstIndex(where: isKept), let last = word.lastIndex(where: isKept) else { return "" }
        return String(word[first...last])
    }

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
