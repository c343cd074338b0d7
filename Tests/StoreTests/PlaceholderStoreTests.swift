import Testing
@testable import Store

@Test func StoreBuilds() { #expect(Bool(true)) }
