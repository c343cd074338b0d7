import Foundation
import Store

/// Board bearer tokens and resource ids.
///
/// A token is 256 random bits, shown once at creation; only its SHA-256 is stored, and the
/// comparison runs in constant time so response timing says nothing about a stored hash.
enum BoardToken {
    /// A new random token (43 URL-safe base64 characters).
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "ist_" + Base64URL.encode(bytes)
    }

    static func hash(_ token: String) -> [UInt8] { SHA256.hash(Array(token.utf8)) }

    /// Constant-time equality of two byte strings of equal length.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}

/// Random ids for boards, stickers and inks: 128 bits, URL-safe.
enum ResourceID {
    static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + Base64URL.encode(bytes)
    }

    /// Whether a path segment could be one of our ids (cheap rejection of junk before any query).
    static func isPlausible(_ id: String) -> Bool {
        let utf8 = id.utf8
        return utf8.count >= 4 && utf8.count <= 64 && utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
        }
    }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5).
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
