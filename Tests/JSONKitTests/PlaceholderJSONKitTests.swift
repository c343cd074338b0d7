import Testing
@testable import JSONKit

@Test func JSONKitBuilds() { #expect(Bool(true)) }
