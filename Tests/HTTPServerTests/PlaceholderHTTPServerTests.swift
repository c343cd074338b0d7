import Testing
@testable import HTTPServer

@Test func HTTPServerBuilds() { #expect(Bool(true)) }
