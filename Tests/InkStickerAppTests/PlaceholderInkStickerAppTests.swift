import Testing
@testable import InkStickerApp

@Test func InkStickerAppBuilds() { #expect(Bool(true)) }
