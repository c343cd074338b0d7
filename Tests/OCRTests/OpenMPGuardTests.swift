import Testing
@testable import OCR

@Suite struct OpenMPGuardTests {
    @Test func missingOrEmptyVariableLeadsToReexec() {
        #expect(OpenMPGuard.decision(environmentValue: nil) == .reexec)
        #expect(OpenMPGuard.decision(environmentValue: "") == .reexec)
    }

    @Test func anySetValueIsKept() {
        // An operator who sets another limit on purpose is not overridden, and the re-executed
        // process (which has the variable) never execs again.
        #expect(OpenMPGuard.decision(environmentValue: "1") == .keep("1"))
        #expect(OpenMPGuard.decision(environmentValue: "4") == .keep("4"))
    }

    @Test func threadCountIsReadFromProc() throws {
        let count = try #require(OpenMPGuard.processThreadCount())
        #expect(count >= 1)
    }
}
