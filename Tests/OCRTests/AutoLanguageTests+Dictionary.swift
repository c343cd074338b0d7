import Geometry
import Testing
@testable import OCR

/// `auto`: a Latin reading of words of the Latin model's own word list settles the choice from a
/// lower confidence than other Latin readings.
extension AutoLanguageTests {
    /// A one-line reading whose words are the text's space-separated parts, side by side.
    static func wordsReading(_ text: String, _ confidence: Double, width: Double = 200) -> Recognition {
        let parts = text.split(separator: " ").map(String.init)
        let step = width / Double(max(parts.count, 1))
        let words = parts.enumerated().map { index, part in
            Recognition.Word(text: part, confidence: confidence, box: Rect(x: Double(index) * step, y: 0, width: step, height: 40),
                             strokes: [index])
        }
        let line = Recognition.Line(text: text, confidence: confidence, box: Rect(x: 0, y: 0, width: width, height: 40), words: words)
        return reading([line], ocrMs: 3)
    }

    static func marked(_ reading: Recognition, list: Set<String>) -> Recognition {
        var reading = reading
        AutoLanguage.markDictionaryWords(&reading) { list.contains($0.lowercased()) }
        return reading
    }

    @Test func wordsOfTheListAreMarkedWithoutThePunctuationAroundThem() {
        let list: Set<String> = ["paradox", "don't", "a", "i", "of", "x", "ox", "fox"]
        let reading = Self.marked(Self.wordsReading("(Paradox), don't a I of x 4ox fox5", 0.7), list: list)
        let marks = reading.lines[0].words.map(\.inDictionary)
        // "(Paradox)," and "don't" are words of the list; a lone "a" and "I" are, a lone other letter
        // never is; "4ox" and "fox5" are not letters only (a digit is not punctuation around a word).
        #expect(marks == [true, true, true, true, true, false, false, false])
        #expect(AutoLanguage.isDictionaryReading(reading) == false, "one word of the reading is not one of the list")
        #expect(AutoLanguage.isDictionaryReading(Self.marked(Self.wordsReading("paradox", 0.7), list: list)))
        // Fewer than three letters in all: `of` says nothing about the script, nor do lone `I`s and `a`s.
        #expect(!AutoLanguage.isDictionaryReading(Self.marked(Self.wordsReading("of", 0.7), list: list)))
        #expect(!AutoLanguage.isDictionaryReading(Self.marked(Self.wordsReading("I a I of", 0.7), list: list)))
        #expect(AutoLanguage.isDictionaryReading(Self.marked(Self.wordsReading("I of ox", 0.7), list: list)))
        #expect(!AutoLanguage.isDictionaryReading(Self.wordsReading("paradox", 0.7)), "not marked")
    }

    @Test func aLatinReadingOfListWordsSettlesFromHalfConfidence() {
        let list: Set<String> = ["paradox", "fox"]
        // Held-out ink: a cursive `paradox` the Korean model read as two syllables and a letter
        // that fill the ink, both models unsure.
        let korean = Self.reading([Self.line("이 시어", 0.46, width: 200)], ocrMs: 3)
        let latin = Self.wordsReading("paradox", 0.75)
        #expect(AutoLanguage.choose(latin: latin, korean: korean, density: 2.5).text == "이 시어", "unmarked: as before")
        let words = Self.marked(latin, list: list)
        #expect(AutoLanguage.settles(latin: words))
        #expect(AutoLanguage.choose(latin: words, korean: korean, density: 2.5).text == "paradox")
        #expect(AutoLanguage.latinAnswers(words, dense: false, strokes: nil), "it may answer before the Korean reading")
        // Under half, or not a word of the list, it does not settle it.
        #expect(!AutoLanguage.settles(latin: Self.marked(Self.wordsReading("paradox", 0.45), list: list)))
        #expect(!AutoLanguage.settles(latin: Self.marked(Self.wordsReading("paradoe", 0.75), list: list)))
        // Capitals read as Hangul with letters and digits between: `FOX` (the list has `fox`).
        let capitals = Self.reading([Self.line("두 0 X", 0.59, width: 120)], ocrMs: 3)
        #expect(AutoLanguage.choose(latin: Self.marked(Self.wordsReading("FOX", 0.77, width: 120), list: list), korean: capitals,
                                    density: 2.5).text == "FOX")
        // On ink as dense as Hangul a sure Korean reading still wins, as it does over a sure Latin one.
        let hangul = Self.reading([Self.line("사다", 0.92, width: 80)], ocrMs: 3)
        let words2 = Self.marked(Self.wordsReading("fox", 0.77, width: 80), list: list)
        #expect(AutoLanguage.choose(latin: words2, korean: hangul, density: AutoLanguage.hangulDensity).text == "사다")
    }

    /// Through the pipeline: the Latin job marks its words, with its model's list (a word marked
    /// in an answer is one the handle finds).
    @Test func theLatinJobMarksTheWordsOfItsList() throws {
        let samples = Array(try Corpus.samples("hand-words.jsonl").prefix(12))
        let readings = try ShippedModelTests.recognitions(samples, language: AutoLanguage.name, quality: .fast, workers: 2)
        let words = readings.compactMap { $0 }.flatMap { $0.lines.flatMap(\.words) }
        let marked = words.filter(\.inDictionary)
        #expect(!marked.isEmpty, "\(words.map(\.text))")
        let handle = try TesseractHandle(tessdataPath: ShippedModelTests.modelsDirectory, language: "ink")
        for word in words {
            let core = AutoLanguage.letterCore(word.text)
            let expected = core.count >= 2 && core.allSatisfy { $0.isLetter || $0 == "'" } && handle.isDictionaryWord(core)
            // A Korean answer's words are never marked; a Latin one's are marked as the list says.
            #expect(!word.inDictionary || expected, "\(word.text)")
        }
    }

    @Test func theLatinModelsWordListIsAskedThroughItsHandle() throws {
        let handle = try TesseractHandle(tessdataPath: ShippedModelTests.modelsDirectory, language: "ink")
        #expect(handle.isDictionaryWord("paradox"))
        #expect(handle.isDictionaryWord("Paradox"))
        #expect(handle.isDictionaryWord("FOX"), "looked up in lower case too")
        #expect(!handle.isDictionaryWord("xqzt"))
        #expect(!handle.isDictionaryWord("paradoe"))
        // Without the LSTM dictionary the list is empty: nothing is a word, and the rule is as before.
        let bare = try TesseractHandle(tessdataPath: ShippedModelTests.modelsDirectory, language: "ink",
                                       settings: TesseractSettings(useDictionary: false))
        #expect(!bare.isDictionaryWord("paradox"))
    }
}
