import Glibc

/// Rules for the language names that select a `<name>.traineddata` file.
public enum LanguageName {
    /// Tesseract's own names (`eng`, `chi_sim`, `deu_latf`, `ink`) are letters, digits, `_` and
    /// `-`. Anything else (a `/`, `..`, `+` for multi-language loads) is refused so that a request
    /// can never name a file outside the model directories.
    public static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// Why loading a model may have failed: a missing file gets the package to install, a file
    /// that exists but did not load is called out as such.
    static func failureHint(language: String, tessdataPath: String) -> String? {
        let file = tessdataPath.hasSuffix("/") ? tessdataPath + language + ".traineddata"
            : tessdataPath + "/" + language + ".traineddata"
        if access(file, R_OK) == 0 {
            return "\(file) exists but is not a loadable LSTM model"
        }
        return installHint(for: language).map { "no \(file); \($0)" } ?? "no \(file)"
    }

    /// What to install to get a language. Debian ships every official model as
    /// `tesseract-ocr-<code>` with `_` turned into `-` (`chi_sim` → `tesseract-ocr-chi-sim`).
    static func installHint(for language: String) -> String? {
        let isTesseractCode = language.count >= 3
            && language.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "_") }
        guard isTesseractCode else { return nil }
        let package = "tesseract-ocr-" + language.replacingUnderscores()
        return "install the Debian package \(package)"
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
