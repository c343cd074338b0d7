import CTesseract

extension TesseractHandle {
    /// Whether the model's word list (its LSTM dictionary) has `word` as written or in lower
    /// case (the list holds `fox`, and Tesseract accepts `Fox` but not `FOX`). Runs on the
    /// handle's worker thread, as everything else done with it.
    func isDictionaryWord(_ word: String) -> Bool {
        if TessBaseAPIIsValidWord(api, word) != 0 { return true }
        let lower = word.lowercased()
        return lower != word && TessBaseAPIIsValidWord(api, lower) != 0
    }
}
