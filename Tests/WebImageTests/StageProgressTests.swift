import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
@testable import webimage

/// The stage line of a long single job: drawn on a terminal only, erased before the report.
@Suite struct StageProgressTests {
    /// What a line wrote.
    final class Written: Sendable {
        let text = Locked("")
    }

    @Test func theLineNamesTheFileAndTheStageAndCountsWholeSeconds() {
        #expect(StageProgress.line(title: "photo.jpg", stage: "decoding", elapsed: .milliseconds(400)) == "\r\u{1b}[Kphoto.jpg: decoding…")
        #expect(StageProgress.line(title: "photo.jpg", stage: "encoding PNG", elapsed: .milliseconds(12_700)) == "\r\u{1b}[Kphoto.jpg: encoding PNG… 12 s")
    }

    @Test func shownOnATerminalWithTextOutputOnly() {
        #expect(StageProgress.isShown(json: false, standardErrorIsTerminal: true))
        #expect(!StageProgress.isShown(json: true, standardErrorIsTerminal: true))
        #expect(!StageProgress.isShown(json: false, standardErrorIsTerminal: false))
        #expect(!StageProgress.isShown(json: true, standardErrorIsTerminal: false))
    }

    @Test func eachStageIsDrawnAtOnceAndTheLineErasedAtTheEnd() {
        let written = Written()
        let progress = StageProgress(enabled: true) { text in written.text.withLock { $0 += text } }
        progress.stage("decoding", of: "a.jpg")
        progress.stage("encoding PNG", of: "a.jpg")
        progress.finish()
        let text = written.text.withLock { $0 }
        // Redraws of the clock may come between, each a whole line of the stage then running.
        #expect(text.hasPrefix(StageProgress.line(title: "a.jpg", stage: "decoding", elapsed: .zero)), "\(text.debugDescription)")
        #expect(text.contains(StageProgress.line(title: "a.jpg", stage: "encoding PNG", elapsed: .zero)))
        #expect(text.hasSuffix(StageProgress.erase))
        let before = text
        progress.finish()
        #expect(written.text.withLock { $0 } == before + StageProgress.erase)
    }

    @Test func aDisabledLineWritesNothing() {
        let written = Written()
        let progress = StageProgress(enabled: false) { text in written.text.withLock { $0 += text } }
        progress.stage("decoding", of: "a.jpg")
        progress.finish()
        #expect(written.text.withLock { $0 }.isEmpty)
    }

    /// Piped, as in every script: the output holds the report alone.
    @Test(arguments: [["convert"], ["thumb", "--thumbnail", "16", "--out"], ["decode"], ["frames", "--out"]])
    func nothingIsDrawnWhenStandardErrorIsNotATerminal(command: [String]) throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("stage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let input = Fixtures.url("gif/anim.gif").path
        var arguments = command
        switch command[0] {
        case "convert": arguments += [input, temporary.appendingPathComponent("anim.png").path]
        case "decode": arguments += [input]
        default: arguments += [temporary.path, input]
        }
        let run = try WebImageToolTests.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr.debugDescription)")
        #expect(!run.stdout.contains("\u{1b}") && !run.stdout.contains("…"))
        #expect(run.stdout.hasPrefix(input))
    }

    #if os(Linux)
    /// On a terminal the stages are drawn, then erased before the report; with --json nothing is. The terminal
    /// is a pseudo-terminal that util-linux's `script` gives the tool (standard output shares it).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func stagesAreDrawnOnATerminal() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("stage-tty-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let convert = [WebImageToolTests.tool.path, "convert", Fixtures.url("jpeg/photo.jpg").path, temporary.appendingPathComponent("photo.png").path]
        let text = try onATerminal(convert)
        #expect(text.contains(StageProgress.line(title: "photo.jpg", stage: "decoding", elapsed: .zero)), "\(text.debugDescription)")
        #expect(text.contains(StageProgress.line(title: "photo.jpg", stage: "encoding PNG", elapsed: .zero)))
        #expect(text.contains(StageProgress.erase + Fixtures.url("jpeg/photo.jpg").path + " -> "), "erased before the report")
        let json = try onATerminal(convert + ["--json"])
        #expect(!json.contains("…") && !json.contains("\u{1b}"), "\(json.debugDescription)")
    }

    /// What `command` wrote to the terminal `script` ran it on.
    private func onATerminal(_ command: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command.map { "'\($0)'" }.joined(separator: " "), "/dev/null"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
    #endif
}
