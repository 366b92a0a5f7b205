import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// `webimage info` reads what the coder's header read needs, not the whole file: its peak memory stays far below
/// the size of a large file, and what it prints is what a read of the whole file gives.
@Suite final class InfoCommandReadTests {
    let temporary: URL

    init() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("info-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: temporary)
    }

    /// 300 MB: a small image, then zeros (a sparse file: nothing is written but the image).
    static let paddedSize: UInt64 = 300 << 20

    @Test("a 300 MB file that starts with a still image: info's peak memory is far below the file's size",
          arguments: ["jpeg/orient-6.jpg", "png/rgba8.png", "webp/quad-lossy.webp"])
    func largeFileIsNotReadWhole(_ fixture: String) throws {
        let file = temporary.appendingPathComponent("padded-" + URL(fileURLWithPath: fixture).lastPathComponent)
        try Fixtures.data(fixture).write(to: file)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: Self.paddedSize)
        try handle.close()

        let run = try MeasuredToolRun.run(WebImageToolTests.tool, ["info", "--json", file.path], outputIn: temporary)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(run.objects.first, "\(run.stdout)")
        let expected = try ImageCoderRegistry.shared.info(for: Fixtures.data(fixture))
        #expect(report["ok"] as? Bool == true)
        #expect(report["width"] as? Int == expected.uprightSize.width)
        #expect(report["height"] as? Int == expected.uprightSize.height)
        #expect(run.peakResidentBytes < Int(Self.paddedSize) / 4, "peak \(run.peakMiB) MiB for a file of 300 MiB")
    }

    @Test("for every fixture, info prints what the header of the whole file says")
    func everyFixtureMatchesTheWholeFile() throws {
        let fixtures = ["gif", "jpeg", "png", "webp", "jxl"].flatMap { Fixtures.paths(in: $0) }.filter { !$0.hasSuffix(".ppm") }
        let run = try MeasuredToolRun.run(
            WebImageToolTests.tool,
            ["info", "--json"] + fixtures.map { Fixtures.url($0).path },
            outputIn: temporary
        )
        let objects = run.objects
        #expect(objects.count == fixtures.count, "\(run.stderr)")
        let registry = ImageCoderRegistry.shared
        for (fixture, report) in zip(fixtures, objects) {
            let data = Fixtures.data(fixture)
            let info = try registry.info(for: data)
            var durations: [Double]?
            if info.frameCount > 1, let provider = try? registry.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions()) {
                durations = (0..<provider.frameCount).map { provider.duration(ofFrameAt: $0) }
            }
            #expect(report["ok"] as? Bool == true, "\(fixture)")
            #expect(report["format"] as? String == info.format.name, "\(fixture)")
            #expect(report["width"] as? Int == info.uprightSize.width, "\(fixture)")
            #expect(report["height"] as? Int == info.uprightSize.height, "\(fixture)")
            #expect(report["frames"] as? Int == info.frameCount, "\(fixture)")
            #expect(report["loopCount"] as? Int == (info.frameCount > 1 ? info.loopCount : nil), "\(fixture)")
            #expect(report["hasAlpha"] as? Bool == info.hasAlpha, "\(fixture)")
            #expect(report["orientation"] as? String == info.orientation.description, "\(fixture)")
            #expect(report["durations"] as? [Double] == durations, "\(fixture)")
        }
    }
}
