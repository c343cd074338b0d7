import Testing
@testable import OCR

@Test func OCRBuilds() { #expect(Bool(true)) }
