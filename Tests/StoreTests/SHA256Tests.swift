import Foundation
import Testing
@testable import Store

@Suite struct SHA256Tests {
    /// FIPS 180-4 / NIST example vectors.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func knownVectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(message.utf8) == digest)
    }

    @Test func millionAs() {
        #expect(SHA256.hexDigest(repeatElement(UInt8(ascii: "a"), count: 1_000_000))
                    == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding boundaries (55/56 bytes, one and two blocks), checked
    /// against the system's `sha256sum`.
    @Test func paddingBoundariesMatchSha256sum() throws {
        let directory = try TemporaryDirectory()
        for length in [1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let file = directory.file("input-\(length)")
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            process.arguments = [file]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            process.waitUntilExit()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(SHA256.hexDigest(bytes) == String(output.prefix(64)), "length \(length)")
        }
    }

    @Test func incrementalUpdatesEqualOneShot() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        var hasher = SHA256()
        hasher.update(bytes[0..<10])
        hasher.update(bytes[10..<100])
        hasher.update(bytes[100...])
        #expect(hasher.finalize() == SHA256.hash(bytes))
        #expect(SHA256.hash(bytes).count == 32)
    }
}
