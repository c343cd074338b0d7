import Foundation
import Dispatch
import Geometry
import Ink
import Locking
import Testing
@testable import OCR

/// `auto` line by line: ink of two scripts, one per line, and lines the Korean line finder joined.
extension AutoLanguageTests {
    /// A line whose one word read `strokes`.
    static func line(_ text: String, _ confidence: Double, y: Double, width: Double, strokes: [Int]) -> Recognition.Line {
        let box = Rect(x: 0, y: y, width: width, height: 40)
        return Recognition.Line(text: text, confidence: confidence, box: box,
                                words: [Recognition.Word(text: text, confidence: confidence, box: box, strokes: strokes)])
    }

    /// Strokes 0-5 written densely (six strokes in two line heights) on the first line, 6-8
    /// sparsely (three in almost four) on the second.
    static let twoLines: [Stroke] = (0..<6).map { i in
        Stroke(points: [Point(x: Double(i) * 16, y: 0), Point(x: Double(i) * 16, y: 40)])
    } + (0..<3).map { i in
        Stroke(points: [Point(x: Double(i) * 50, y: 60), Point(x: Double(i) * 50 + 50, y: 100)])
    }

    /// Ink of two scripts, one per line: each line as its own model read it.
    @Test func eachLineIsReadByTheModelOfItsScript() {
        // A Hangul note above an English word: the Latin model reads the note as noise, the
        // Korean model the word as a syllable that does not fill it.
        let latin = Self.reading([Self.line("z 2 -", 0.5, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                  Self.line("coffee", 0.9, y: 60, width: 150, strokes: [6, 7, 8])], ocrMs: 3)
        let korean = Self.reading([Self.line("물렁댈", 0.8, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                   Self.line("코", 0.2, y: 60, width: 150, strokes: [6, 7, 8])], ocrMs: 5)
        #expect(AutoLanguage.density(of: [korean.lines[0]], in: Self.twoLines) == 3)
        #expect(AutoLanguage.density(of: [latin.lines[1]], in: Self.twoLines) == 0.8)
        for density in [AutoLanguage.hangulDensity, 2.5] {
            let decision = AutoLanguage.decide(latin: latin, korean: korean, density: density, strokes: Self.twoLines)
            let mixed = decision.reading
            #expect(mixed.text == "물렁댈\ncoffee" && decision.index == nil && decision.split == nil)
            #expect(mixed.lines.map(\.text) == ["물렁댈", "coffee"])
            #expect(mixed.candidates.map(\.text) == ["물렁댈\ncoffee", korean.text, latin.text])
            #expect(mixed.timings.ocrMs == 8)
        }
        // The Korean job's second reading stands for its lines.
        let again = Self.reading([Self.line("물렁대", 0.9, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                  Self.line("코", 0.3, y: 60, width: 150, strokes: [6, 7, 8])], ocrMs: 7)
        #expect(AutoLanguage.decide(latin: latin, korean: korean, density: 3, strokes: Self.twoLines, koreanAgain: again)
            .reading.text == "물렁대\ncoffee")
        // A line goes against the whole ink's choice only on ink as dense as its script writes
        // (here, without strokes, as the whole: dense, so the Latin line cannot).
        #expect(AutoLanguage.decide(latin: latin, korean: korean, density: 3).index == 1)
        // Lines of the two readings that share strokes are chosen together: a Hangul line the Latin
        // model cut in two is one group, and the ink one line (the whole is chosen).
        let cut = Self.reading([Self.line("z", 0.9, y: 0, width: 60, strokes: [0, 1, 2]),
                                Self.line("2 -", 0.9, y: 20, width: 60, strokes: [3, 4, 5])], ocrMs: 3)
        let one = Self.reading([Self.line("물렁댈", 0.8, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5])], ocrMs: 5)
        #expect(LineGroups(latin: cut.lines, korean: one.lines)?.groups.count == 1)
        #expect(AutoLanguage.decide(latin: cut, korean: one, density: 3).index == 1)
        // Every line chosen the same way: the whole reading, as chosen for the whole.
        let both = Self.reading([Self.line("물렁댈", 0.8, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                 Self.line("사과", 0.8, y: 60, width: 80, strokes: [6, 7, 8])], ocrMs: 5)
        #expect(AutoLanguage.decide(latin: latin, korean: both, density: 3).index == 1)
        // A sure syllable on strokes as sparse as Latin does not keep a sure Latin line from its
        // own model.
        let sure = Self.reading([Self.line("물렁댈", 0.8, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                 Self.line("코", 0.9, y: 60, width: 40, strokes: [6, 7, 8])], ocrMs: 5)
        let latinSure = Self.reading([Self.line("mulo", 0.9, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                      Self.line("coffee", 0.9, y: 60, width: 150, strokes: [6, 7, 8])], ocrMs: 3)
        #expect(AutoLanguage.decide(latin: latinSure, korean: sure, density: 3, strokes: Self.twoLines).reading.text == "물렁댈\ncoffee")
        // A line only one model read is that model's when it is sure of it; else nothing (strokes
        // the Korean model's words did not name, read by the Latin model as noise).
        let dropped = Self.reading([Self.line("물렁댈", 0.4, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5])], ocrMs: 5)
        var onlyLatin = Self.reading([Self.line("z 2 -", 0.3, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                      Self.line("coffee", 0.9, y: 60, width: 150, strokes: [6, 7, 8])], ocrMs: 3)
        #expect(AutoLanguage.decide(latin: onlyLatin, korean: dropped, density: 3, strokes: Self.twoLines).reading.text == "물렁댈\ncoffee")
        onlyLatin.lines[1].confidence = 0.5
        #expect(AutoLanguage.decide(latin: onlyLatin, korean: dropped, density: 3, strokes: Self.twoLines).reading.text == "물렁댈")
        // Lines that name no strokes cannot be grouped: the whole is chosen.
        let unnamed = Self.reading([Self.line("물렁댈", 0.8, y: 0, width: 120), Self.line("코", 0.2, y: 60, width: 150)], ocrMs: 5)
        #expect(LineGroups(latin: latin.lines, korean: unnamed.lines) == nil)
        #expect(AutoLanguage.decide(latin: latin, korean: unnamed, density: 3).index != nil)
    }

    /// A settling reading of several lines answers before the other only when each of its lines
    /// settles on its own: a line of the other script among them waits for the other reading.
    @Test func aReadingOfSeveralLinesAnswersEarlyOnlyWhenEveryLineSettles() {
        let answers = Locking.Lock<[String]>([])
        let latin = Self.reading([Self.line("z 2 -", 0.5, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                  Self.line("coffee", 0.9, y: 60, width: 150, strokes: [6, 7, 8])], ocrMs: 3)
        let korean = Self.reading([Self.line("물렁댈", 0.9, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                   Self.line("코", 0.3, y: 60, width: 150, strokes: [6, 7, 8])], ocrMs: 5)
        #expect(AutoLanguage.settles(korean: korean), "mostly Hangul and sure as a whole")
        let join = Self.armedJoin(recording: answers, dense: true, strokes: Self.twoLines)
        join.deliver(1, .success(korean))
        #expect(answers.withLock { $0 }.isEmpty, "its second line does not settle on its own")
        join.deliver(0, .success(latin))
        #expect(answers.withLock { $0 } == ["물렁댈\ncoffee"])

        let notes = Self.reading([Self.line("물렁댈", 0.9, y: 0, width: 120, strokes: [0, 1, 2]),
                                  Self.line("사과", 0.8, y: 60, width: 80, strokes: [3, 4])], ocrMs: 5)
        answers.withLock { $0 = [] }
        let hangul = Self.armedJoin(recording: answers, dense: true)
        hangul.deliver(1, .success(notes))
        #expect(answers.withLock { $0 } == ["물렁댈\n사과"], "every line settles")

        // With the strokes, each line must settle on strokes written as densely as its script: a
        // Latin word the Korean model read as a sure syllable waits for the Latin reading.
        let sureSyllable = Self.reading([Self.line("물렁댈", 0.9, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                         Self.line("사과", 0.8, y: 60, width: 80, strokes: [6, 7, 8])], ocrMs: 5)
        answers.withLock { $0 = [] }
        let word = Self.armedJoin(recording: answers, dense: true, strokes: Self.twoLines)
        word.deliver(1, .success(sureSyllable))
        #expect(answers.withLock { $0 }.isEmpty, "its second line lies on sparse strokes")
        word.deliver(0, .success(latin))
        #expect(answers.withLock { $0 } == ["물렁댈\ncoffee"])

        // Two dense lines, each read surely by the Korean model: the answer at once.
        let denseLines = Array(Self.twoLines[..<6]) + (0..<6).map { i in
            Stroke(points: [Point(x: Double(i) * 16, y: 60), Point(x: Double(i) * 16, y: 100)])
        }
        let twoNotes = Self.reading([Self.line("물렁댈", 0.9, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5]),
                                     Self.line("사과", 0.8, y: 60, width: 80, strokes: [6, 7, 8, 9, 10, 11])], ocrMs: 5)
        #expect(AutoLanguage.koreanAnswers(twoNotes, dense: true, strokes: denseLines))
        answers.withLock { $0 = [] }
        let early = Self.armedJoin(recording: answers, dense: true, strokes: denseLines)
        early.deliver(1, .success(twoNotes))
        #expect(answers.withLock { $0 } == ["물렁댈\n사과"])
        // Not when its words leave a fifth of the strokes or more unread (a line it left out).
        var partial = twoNotes
        partial.lines[1].words[0].strokes = [6]
        #expect(!AutoLanguage.koreanAnswers(partial, dense: true, strokes: denseLines))
        // A Latin reading answers at once on sparse lines, each sure.
        let sparseLines = Array(Self.twoLines[6...]) + (0..<3).map { i in
            Stroke(points: [Point(x: Double(i) * 50, y: 120), Point(x: Double(i) * 50 + 50, y: 160)])
        }
        let twoWords = Self.reading([Self.line("coffee", 0.9, y: 60, width: 150, strokes: [0, 1, 2]),
                                     Self.line("milk", 0.9, y: 120, width: 150, strokes: [3, 4, 5])], ocrMs: 3)
        #expect(AutoLanguage.latinAnswers(twoWords, dense: false, strokes: sparseLines))
        #expect(!AutoLanguage.latinAnswers(twoWords, dense: false, strokes: denseLines), "on dense strokes")
    }

    /// The Korean line finder joined a sure Latin line to the Hangul line above it (one Korean
    /// line, two Latin ones): the Hangul strokes are read by the Korean model alone, and that
    /// reading is kept beside the Latin line when it settles it.
    @Test func aSureLatinLineTheKoreanModelJoinedIsReadApart() {
        // Strokes 0-2 sparse on the lower line, 3-8 dense on the upper one.
        let ink = Array(Self.twoLines[6...]) + Array(Self.twoLines[..<6])
        let korean = Self.reading([Self.line("업", 0.29, y: 0, width: 150, strokes: Array(0...8))], ocrMs: 5)
        let latin = Self.reading([Self.line("87127", 0.58, y: 0, width: 120, strokes: [3, 4, 5, 6, 7, 8]),
                                  Self.line("creation", 0.95, y: 60, width: 150, strokes: [0, 1, 2])], ocrMs: 3)
        let decision = AutoLanguage.decide(latin: latin, korean: korean, density: 3, strokes: ink)
        let split = decision.split
        #expect(split == AutoSplit(sure: [latin.lines[1]], latin: [latin.lines[0]], strokes: [3, 4, 5, 6, 7, 8]))
        // The Korean model's reading of those strokes alone names them by their place among them.
        let alone = Self.reading([Self.line("발가락", 0.8, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5])], ocrMs: 4)
        let answer = split?.answer(korean: alone, before: decision.reading.timings)
        #expect(answer?.text == "발가락\ncreation")
        #expect(answer?.lines.first?.words.first?.strokes == [3, 4, 5, 6, 7, 8])
        #expect(answer?.timings.ocrMs == 12)
        // A reading of them that is not Hangul: the Latin model's lines stand.
        let notHangul = Self.reading([Self.line("8 7", 0.2, y: 0, width: 120, strokes: [0, 1, 2, 3, 4, 5])], ocrMs: 4)
        #expect(split?.answer(korean: notHangul, before: decision.reading.timings).text == "87127\ncreation")
        // A sure Latin line of one character or of no letter, or sharing its height with the other
        // strokes, is not read apart (a stroke of a syllable, or a row of finals, read as digits).
        for text in ["2", "00"] {
            var digits = latin
            digits.lines[1].text = text
            #expect(AutoLanguage.decide(latin: digits, korean: korean, density: 3, strokes: ink).split == nil)
        }
        var beside = latin
        beside.lines[1].box.y = 0
        #expect(AutoLanguage.decide(latin: beside, korean: korean, density: 3, strokes: ink).split == nil)
        // Without a sure Latin line, or when the other strokes are as sparse as Latin, nothing is read apart.
        var noneSure = latin
        noneSure.lines[1].confidence = 0.5
        #expect(AutoLanguage.decide(latin: noneSure, korean: korean, density: 3, strokes: ink).split == nil)
        let sparse = Array(Self.twoLines[6...]) + (0..<6).map { i in
            Stroke(points: [Point(x: Double(i) * 60, y: 0), Point(x: Double(i) * 60 + 50, y: 40)])
        }
        #expect(AutoLanguage.decide(latin: latin, korean: korean, density: 3, strokes: sparse).split == nil)
        // Nor when the Korean line did not read the sure line's strokes (it left that line out).
        let apart = Self.reading([Self.line("발가락", 0.4, y: 0, width: 120, strokes: [3, 4, 5, 6, 7, 8])], ocrMs: 5)
        #expect(AutoLanguage.decide(latin: latin, korean: apart, density: 3, strokes: ink).split == nil)
    }

    /// A join that records its answers' texts ("error" for a failure), armed and told the density
    /// (not dense: between Latin's and Hangul's).
    static func armedJoin(recording answers: Locking.Lock<[String]>, dense: Bool, strokes: [Stroke]? = nil) -> AutoLanguageJoin {
        let join = AutoLanguageJoin { result in answers.withLock { $0.append((try? result.get().reading.text) ?? "error") } }
        join.arm()
        join.know(density: dense ? AutoLanguage.hangulDensity : 2.5, strokes: strokes)
        return join
    }

    /// A line of `text` in `box`, no words.
    static func line(_ text: String, _ confidence: Double, _ box: Rect) -> Recognition.Line {
        Recognition.Line(text: text, confidence: confidence, box: box, words: [])
    }

    /// A column of names: the Korean line finder joins its rows into a narrow line and reads it
    /// as a syllable that fills it; the Latin model reads each row as a line of letters.
    @Test func rowsOfLettersTheKoreanLineFinderJoinedStayLatin() {
        let names = Self.reading([Self.line("Swarze", 0.45, Rect(x: 0, y: 0, width: 150, height: 40)),
                                  Self.line("Thornton", 0.5, Rect(x: 5, y: 60, width: 160, height: 40)),
                                  Self.line("Unbar", 0.42, Rect(x: 10, y: 120, width: 120, height: 40))], ocrMs: 3)
        let syllable = Self.reading([Self.line("는", 0.39, Rect(x: 0, y: 0, width: 165, height: 160))], ocrMs: 5)
        #expect(AutoLanguage.fill(syllable, names) >= AutoLanguage.sparseFill)
        #expect(AutoLanguage.joinsRows(korean: syllable, latin: names))
        for density in [1.0, 2.5, 3.5] {
            #expect(AutoLanguage.choose(latin: names, korean: syllable, density: density).text == names.text)
        }
        // A sure Korean reading still settles it (the rule is for the fill of an unsure one).
        let sure = Self.reading([Self.line("는", 0.9, Rect(x: 0, y: 0, width: 165, height: 160))], ocrMs: 5)
        #expect(AutoLanguage.choose(latin: names, korean: sure, density: 3.5).text == "는")

        // Hangul the Latin model read as rows, each kept Korean: a word cut into an upper and a
        // lower row (the Korean line is wide, three syllables, so its rows are not rows of
        // writing); a syllable read as rows of one or two characters; two short words stacked,
        // read as rows of loose letters.
        let hangul: [(latin: [Recognition.Line], korean: Recognition.Line)] = [
            ([Self.line("OVETEL", 0.3, Rect(x: 0, y: 0, width: 120, height: 22)),
              Self.line("zat", 0.3, Rect(x: 0, y: 24, width: 110, height: 16))],
             Self.line("일탈돼", 0.45, Rect(x: 0, y: 0, width: 120, height: 40))),
            ([Self.line("7", 0.6, Rect(x: 0, y: 0, width: 30, height: 14)),
              Self.line("T", 0.6, Rect(x: 0, y: 16, width: 40, height: 10)),
              Self.line("2 u", 0.5, Rect(x: 0, y: 28, width: 40, height: 12))],
             Self.line("꿀", 0.45, Rect(x: 0, y: 0, width: 40, height: 40))),
            ([Self.line("at cs", 0.3, Rect(x: 0, y: 0, width: 110, height: 40)),
              Self.line("u id! At", 0.3, Rect(x: 0, y: 60, width: 120, height: 40))],
             Self.line("잖덮특", 0.3, Rect(x: 0, y: 0, width: 120, height: 100))),
        ]
        for (rows, line) in hangul {
            let latin = Self.reading(rows, ocrMs: 3), korean = Self.reading([line], ocrMs: 5)
            #expect(!AutoLanguage.joinsRows(korean: korean, latin: latin))
            #expect(AutoLanguage.choose(latin: latin, korean: korean, density: 3.5).text == line.text)
        }
        // Rows side by side, not one under the other, are no column.
        let side = Self.reading([Self.line("Swarze", 0.45, Rect(x: 0, y: 0, width: 80, height: 40)),
                                 Self.line("Thornton", 0.5, Rect(x: 85, y: 10, width: 80, height: 40))], ocrMs: 3)
        #expect(!AutoLanguage.joinsRows(korean: syllable, latin: side))
    }

    /// A Hangul word of the evaluation fonts written above a line of Latin script (cursive
    /// Hershey fonts, which the Korean model reads worse than the Latin one), two line heights
    /// apart: `auto` reads each line with the model of its script, near what each model reads of
    /// its own line alone. (Chosen for the whole ink, these 24 read at 0.34 CER against 0.10 line
    /// by line; `training/RUNS.md`, "Line by line", measures it on held-out ink.)
    @Test func aHangulLineAboveALatinLineIsReadLineByLine() throws {
        let hangul = Array(try Corpus.samples("hangul-words.jsonl", folder: "hangul").prefix(24))
        let latin = Array(try Corpus.samples("script.jsonl").prefix(24))
        func bounds(_ sample: CorpusSample) -> (minX: Double, minY: Double, height: Double) {
            let points = sample.strokes.flatMap { $0 }
            let ys = points.map(\.y)
            return (points.map(\.x).min() ?? 0, ys.min() ?? 0, (ys.max() ?? 0) - (ys.min() ?? 0))
        }
        let stacked = zip(hangul, latin).map { top, bottom in
            let a = bounds(top), b = bounds(bottom)
            let scale = a.height / max(b.height, 1)
            let moved = bottom.strokes.map { stroke in
                stroke.map { (x: ($0.x - b.minX) * scale + a.minX, y: ($0.y - b.minY) * scale + a.minY + 2 * a.height) }
            }
            return CorpusSample(id: top.id + "+" + bottom.id, text: top.text + "\n" + bottom.text, strokes: top.strokes + moved)
        }
        let lower = zip(stacked, latin).map { sample, bottom in
            CorpusSample(id: bottom.id, text: bottom.text, strokes: Array(sample.strokes.dropFirst(sample.strokes.count - bottom.strokes.count)))
        }
        let auto = try ShippedModelTests.recognitions(stacked, language: AutoLanguage.name, workers: 2).map { $0?.text ?? "" }
        let korean = try ShippedModelTests.recognitions(hangul, language: "kor-ink", workers: 2).map { $0?.text ?? "" }
        let english = try ShippedModelTests.recognitions(lower, language: "ink", workers: 2).map { $0?.text ?? "" }
        let truths = stacked.map(\.text)
        let own = ShippedModelTests.characterErrorRate(truths: truths, readings: korean.indices.map { korean[$0] + "\n" + english[$0] })
        let read = ShippedModelTests.characterErrorRate(truths: truths, readings: auto)
        #expect(read <= own + 0.2, "auto \(read), each line by its own model \(own): \(auto)")
    }
}
