import Testing
@testable import TextLayout

@Test func TextLayoutBuilds() { #expect(Bool(true)) }
