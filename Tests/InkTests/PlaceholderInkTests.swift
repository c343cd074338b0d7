import Testing
@testable import Ink

@Test func InkBuilds() { #expect(Bool(true)) }
