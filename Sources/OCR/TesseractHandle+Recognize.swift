import CTesseract
import Geometry
import Ink

extension TesseractHandle {
    /// Tesseract stores coordinates in 16-bit integers (`TBOX`, `ICOORD`): larger images are
    /// silently corrupted, so they are refused.
    public static let maximumImageSide = 32_000

    /// Recognises an 8-bit grayscale image (0 = ink, 255 = paper).
    ///
    /// The buffer is handed to `TessBaseAPISetImage` as is (Tesseract copies it). Recognition runs
    /// under a monitor whose deadline Tesseract checks before each text line (the LSTM reads a
    /// line in one go, so one line's time is the possible overrun); once it has passed, the rest of
    /// the page is abandoned and `.deadlineExceeded` is thrown. A page that completes is returned
    /// even if it finished late. The handle is cleared afterwards in every case and stays usable.
    /// An image without any pixel darker than mid-grey is returned as an empty page without
    /// calling Tesseract.
    ///
    /// - Parameters:
    ///   - deadline: milliseconds from now; at least 1.
    ///   - alternatives: collect ranked alternatives per symbol (`RecognizedSymbol.choices`),
    ///     at ~15 % extra cost; when false each symbol has at most its best reading as choice.
    public func recognize(
        image: GrayImage,
        pageSegmentationMode: PageSegmentationMode = .singleLine,
        deadline milliseconds: Int,
        alternatives: Bool = true
    ) throws(OCRError) -> TesseractPage {
        guard image.width > 0, image.height > 0 else {
            throw .invalidImage(width: image.width, height: image.height, reason: "empty image")
        }
        guard image.width <= Self.maximumImageSide, image.height <= Self.maximumImageSide else {
            throw .invalidImage(width: image.width, height: image.height,
                                reason: "a side exceeds \(Self.maximumImageSide) pixels")
        }
        let clock = ContinuousClock()
        let start = clock.now
        // In line and word modes Tesseract treats a blank image as one word and invents text
        // for it ("Oo"), printing statistics to stderr; an image without ink has no text.
        guard Self.containsInk(image) else {
            return TesseractPage(text: "", meanConfidence: 0, words: [], elapsed: clock.now - start)
        }
        // Clear drops the image and every result so the next page starts clean, whatever happens.
        defer { TessBaseAPIClear(api) }

        image.pixels.withUnsafeBufferPointer { buffer in
            TessBaseAPISetImage(api, buffer.baseAddress, Int32(image.width), Int32(image.height),
                                1, Int32(image.width))
        }
        TessBaseAPISetSourceResolution(api, Int32(clamping: settings.sourceResolution))
        TessBaseAPISetPageSegMode(api, pageSegmentationMode.tessValue)
        setAlternatives(alternatives && settings.alternativesPerSymbol > 0)

        let budget = max(milliseconds, 1)
        TessMonitorSetDeadlineMSecs(monitor, Int32(clamping: budget))
        let code = TessBaseAPIRecognize(api, monitor)
        if code != 0 {
            // Recognize returns -1 both for a passed deadline and for other failures; the clock
            // tells them apart.
            if clock.now - start >= .milliseconds(budget) {
                throw .deadlineExceeded(milliseconds: budget)
            }
            throw .recognitionFailed(code: code)
        }
        let words = readWords()
        let confidence = words.isEmpty ? 0 : Double(TessBaseAPIMeanTextConf(api)) / 100
        return TesseractPage(text: TesseractPage.joinedText(of: words),
                             meanConfidence: confidence.clampedToUnit,
                             words: words,
                             elapsed: clock.now - start)
    }

    /// `lstm_choice_mode` is read at recognition time, so it can change between pages.
    private func setAlternatives(_ enabled: Bool) {
        guard enabled != alternativesEnabled else { return }
        if TessBaseAPISetVariable(api, "lstm_choice_mode", enabled ? "2" : "0") != 0 {
            alternativesEnabled = enabled
        }
    }

    /// Darker than mid-grey: what Tesseract's Otsu threshold would call ink on a white page.
    static let inkThreshold: UInt8 = 128

    static func containsInk(_ image: GrayImage) -> Bool {
        image.pixels.contains { $0 < inkThreshold }
    }

    /// Walks the result iterator word by word, and within each word symbol by symbol.
    private func readWords() -> [RecognizedWord] {
        guard let iterator = TessBaseAPIGetIterator(api) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        // The page iterator is a view of the same object, not a copy: it must not be deleted.
        guard let page = TessResultIteratorGetPageIterator(iterator) else { return [] }

        var words: [RecognizedWord] = []
        var line = -1
        // The rest of the current text line as the network spaced it (`preserve_interword_spaces`).
        var lineText: Substring?
        repeat {
            guard let text = Self.takeText(TessResultIteratorGetUTF8Text(iterator, RIL_WORD)) else {
                continue
            }
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 || line < 0 {
                line += 1
                lineText = Self.takeText(TessResultIteratorGetUTF8Text(iterator, RIL_TEXTLINE)).map { Substring($0) }
            }
            let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD)) / 100
            let box = Self.box(page, level: RIL_WORD)
            let spaceBefore = Self.spaceBefore(text, in: &lineText)
            let symbols = readSymbols(of: iterator, page: page)
            words.append(RecognizedWord(text: text, confidence: confidence.clampedToUnit, box: box,
                                        line: line, symbols: symbols, spaceBefore: spaceBefore))
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return Self.joiningUnspaced(words)
    }

    /// Whether `line`, the rest of a text line as the network spaced it, has a space before
    /// `word`; the word is then dropped from it. Nil, and the rest of the line forgotten, when
    /// `word` is not what comes next.
    static func spaceBefore(_ word: String, in line: inout Substring?) -> Bool? {
        guard let rest = line else { return nil }
        let next = rest.drop(while: \.isWhitespace)
        guard next.hasPrefix(word) else {
            line = nil
            return nil
        }
        line = next.dropFirst(word.count)
        return next.startIndex != rest.startIndex
    }

    /// Words as the writer spaced them. Tesseract does not treat Hangul as space-delimited:
    /// every syllable comes out as a word of its own, and so does a number or a Latin word
    /// written against a syllable ("10층", "3월"). Consecutive words of a line, one of them
    /// ending or starting with Hangul where they meet, are one word (text and symbols
    /// concatenated, boxes united, the lower confidence) unless the network read a space between
    /// them (`spaceBefore`). Where that is not known, two Hangul syllables are one word unless
    /// their boxes are at least `hangulSpaceRatio` of their height apart.
    static func joiningUnspaced(_ words: [RecognizedWord]) -> [RecognizedWord] {
        var joined: [RecognizedWord] = []
        for word in words {
            if var previous = joined.last, previous.line == word.line,
               isHangul(previous.text.last) || isHangul(word.text.first) {
                let bothHangul = isHangul(previous.text.last) && isHangul(word.text.first)
                let spaced = word.spaceBefore ?? (!bothHangul || gapIsASpace(between: previous, and: word))
                if !spaced {
                    previous.text += word.text
                    previous.symbols += word.symbols
                    previous.box = previous.box.union(word.box)
                    previous.confidence = min(previous.confidence, word.confidence)
                    joined[joined.count - 1] = previous
                    continue
                }
            }
            joined.append(word)
        }
        return joined
    }

    /// Whether the boxes of two Hangul syllables are at least `hangulSpaceRatio` of their height apart.
    static func gapIsASpace(between previous: RecognizedWord, and word: RecognizedWord) -> Bool {
        let height = max(previous.box.height, word.box.height, 1)
        return word.box.minX - previous.box.maxX >= hangulSpaceRatio * height
    }

    /// Where the network's spacing is not known: a gap between two Hangul syllables narrower
    /// than this fraction of their height is not a space. Chosen on the held-out training font
    /// (training/kor, dev-kor).
    static let hangulSpaceRatio = 0.35

    static func isHangul(_ character: Character?) -> Bool {
        guard let scalar = character?.unicodeScalars.first else { return false }
        return (0xAC00...0xD7A3).contains(scalar.value)
    }

    /// Reads the symbols of the current word, leaving `iterator` on the word's last symbol so that
    /// the caller's `Next(RIL_WORD)` moves to the next word.
    private func readSymbols(of iterator: OpaquePointer, page: OpaquePointer) -> [RecognizedSymbol] {
        var symbols: [RecognizedSymbol] = []
        repeat {
            if let text = Self.takeText(TessResultIteratorGetUTF8Text(iterator, RIL_SYMBOL)) {
                let confidence = Double(TessResultIteratorConfidence(iterator, RIL_SYMBOL)) / 100
                symbols.append(RecognizedSymbol(text: text, confidence: confidence.clampedToUnit,
                                                box: Self.box(page, level: RIL_SYMBOL),
                                                choices: readChoices(of: iterator)))
            }
            if TessPageIteratorIsAtFinalElement(page, RIL_WORD, RIL_SYMBOL) != 0 { break }
        } while TessResultIteratorNext(iterator, RIL_SYMBOL) != 0
        return symbols
    }

    /// The ranked alternatives for the current symbol, best first, duplicates dropped.
    private func readChoices(of iterator: OpaquePointer) -> [SymbolChoice] {
        guard let choices = TessResultIteratorGetChoiceIterator(iterator) else { return [] }
        defer { TessChoiceIteratorDelete(choices) }
        var result: [SymbolChoice] = []
        repeat {
            // Owned by the choice iterator: not freed here.
            guard let pointer = TessChoiceIteratorGetUTF8Text(choices) else { continue }
            let text = String(cString: pointer)
            guard !text.isEmpty, !result.contains(where: { $0.text == text }) else { continue }
            let confidence = Double(TessChoiceIteratorConfidence(choices)) / 100
            result.append(SymbolChoice(text: text, confidence: confidence.clampedToUnit))
        } while TessChoiceIteratorNext(choices) != 0
        result.sort { $0.confidence > $1.confidence }
        return result
    }

    /// Copies and frees a string returned by Tesseract; `nil` for no text.
    private static func takeText(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { TessDeleteText(pointer) }
        let text = String(cString: pointer)
        return text.isEmpty ? nil : text
    }

    private static func box(_ page: OpaquePointer, level: TessPageIteratorLevel) -> Rect {
        var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
        guard TessPageIteratorBoundingBox(page, level, &left, &top, &right, &bottom) != 0 else {
            return Rect(x: 0, y: 0, width: 0, height: 0)
        }
        return Rect(left: Double(left), top: Double(top), right: Double(right), bottom: Double(bottom))
    }
}

extension Double {
    /// Tesseract's confidences can stray outside 0...100 (LSTM choice ratings in particular).
    var clampedToUnit: Double { Swift.min(Swift.max(self, 0), 1) }
}
