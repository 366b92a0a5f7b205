import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// The decode memory budget, measured where it matters: the peak resident memory of the `webimage` tool decoding
/// small hostile files whose headers promise images within the pixel limit but gigabytes of decoder memory.
///
/// Each file is refused with `imageTooLarge` from its headers, so the tool's peak stays near what it needs to
/// start (about 35 MB); without the budget each of them cost from 400 MB to 1.2 GB before it failed or succeeded.
@Suite final class DecodeMemoryTests {
    /// A hostile file and the command that decodes it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var fileName: String
        var make: @Sendable () -> Data
        var command: [String]

        var testDescription: String { "\(command[0]) of \(name)" }
    }

    /// The tool's own peak is far below this (tens of megabytes); every case costs more without the budget.
    static let bound = 256 << 20

    static let thumb = ["thumb", "--size", "256"]

    static let cases: [Case] = [
        Case(name: "a progressive CMYK JPEG of 10000 x 10000 in 20 KB", fileName: "cmyk.jpg",
             make: { HostileImages.progressiveCMYKJPEG() }, command: ["decode"]),
        Case(name: "a progressive CMYK JPEG of 10000 x 10000 in 20 KB", fileName: "cmyk.jpg",
             make: { HostileImages.progressiveCMYKJPEG() }, command: thumb),
        Case(name: "an APNG of one 10000 x 10000 frame", fileName: "frame.png",
             make: { HostileImages.singleFrameAPNG() }, command: ["decode"]),
        Case(name: "an APNG of two 10000 x 10000 frames, the second disposed to previous", fileName: "previous.png",
             make: { HostileImages.previousDisposalAPNG() }, command: thumb),
        Case(name: "an animated lossless WebP of 10000 x 10000", fileName: "anim.webp",
             make: { HostileImages.animatedLosslessWebP() }, command: ["decode"]),
        Case(name: "an animated lossless WebP of 10000 x 10000", fileName: "anim.webp",
             make: { HostileImages.animatedLosslessWebP() }, command: thumb),
        Case(name: "a GIF of two 1 x 1 frames on a 10000 x 5000 screen", fileName: "tiny.gif",
             make: { HostileImages.tinyFramesGIF() }, command: ["decode"]),
        Case(name: "a 10000 x 10000 GIF whose first frame is disposed to previous", fileName: "previous.gif",
             make: { HostileImages.previousDisposalGIF() }, command: thumb),
    ]

    let temporary: URL

    init() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("decode-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: temporary)
    }

    @Test("refused from the headers, with the tool's peak memory far below the decode's", arguments: cases)
    func hostileFileIsRefusedWithinBound(_ hostile: Case) throws {
        let file = temporary.appendingPathComponent(hostile.fileName)
        try hostile.make().write(to: file)
        var arguments = hostile.command + ["--json", file.path]
        if hostile.command[0] == "thumb" { arguments += ["--out", temporary.path] }
        let run = try MeasuredToolRun.run(WebImageToolTests.tool, arguments, outputIn: temporary)

        #expect(run.status == 1, "\(run.stderr)")
        let report = try #require(run.objects.first, "\(run.stdout) \(run.stderr)")
        let error = report["error"] as? [String: Any]
        #expect(error?["code"] as? String == "imageTooLarge", "\(report)")
        #expect(run.peakResidentBytes < Self.bound, "peak \(run.peakMiB) MiB")
    }

    @Test("the budget's message names the estimate and the budget")
    func messageNamesEstimateAndBudget() throws {
        let file = temporary.appendingPathComponent("cmyk.jpg")
        try HostileImages.progressiveCMYKJPEG().write(to: file)
        let run = try MeasuredToolRun.run(WebImageToolTests.tool, ["decode", "--json", file.path], outputIn: temporary)
        let error = try #require(run.objects.first?["error"] as? [String: Any])
        let message = try #require(error["message"] as? String)
        #expect(message.contains("512 MiB"), "\(message)")
        #expect(message.contains("coefficients"), "\(message)")
    }
}
