import Foundation
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

/// End-to-end check of the re-exec: the test runner starts a copy of itself, without
/// `OMP_THREAD_LIMIT`, running only `reexecChildEntryPoint`; that test calls the guard, which must
/// replace the process (same pid) with one that has the variable, and that one reports back.
@Suite struct OpenMPGuardReexecTests {
    static let reportVariable = "OCR_TESTS_REEXEC_REPORT"

    @Test func processWithoutTheVariableIsReexecutedWithIt() throws {
        let report = try Fixtures.temporaryDirectory().appendingPathComponent("report.txt")
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: OpenMPGuard.variable)
        environment[Self.reportVariable] = report.path
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "reexecChildEntryPoint"]
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        let lines = try String(contentsOf: report, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["OMP_THREAD_LIMIT=1", "pid=\(child.processIdentifier)"])
    }

    /// Does nothing unless started by the test above.
    @Test func reexecChildEntryPoint() throws {
        guard let report = ProcessInfo.processInfo.environment[Self.reportVariable] else { return }
        OpenMPGuard.reexecIfNeeded(arguments: CommandLine.arguments)
        let text = "\(OpenMPGuard.variable)=\(OpenMPGuard.currentValue ?? "unset")\npid=\(getpid())\n"
        try text.write(toFile: report, atomically: true, encoding: .utf8)
    }
}
