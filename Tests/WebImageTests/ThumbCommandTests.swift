import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// `webimage thumb` on many files: every core by default, `--jobs N`, the lines in the files' order.
@Suite final class ThumbCommandTests {
    /// Files of every format, one that is not an image and one that does not exist, with distinct names.
    let files: [String]
    let temporary: URL

    init() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("thumb-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let notAnImage = temporary.appendingPathComponent("notes.txt")
        try Data("not an image".utf8).write(to: notAnImage)
        let fixtures = [
            "jpeg/photo.jpg", "png/rgba8.png", "gif/anim.gif", "webp/quad-lossy.webp", "jpeg/orient-6.jpg",
            "png/apng-blend.png", "gif/photo-interlaced.gif", "jpeg/quad-progressive.jpg",
        ]
        files = fixtures.prefix(4).map { Fixtures.url($0).path } + [notAnImage.path]
            + fixtures.dropFirst(4).map { Fixtures.url($0).path } + [temporary.appendingPathComponent("missing.png").path]
    }

    deinit {
        try? FileManager.default.removeItem(at: temporary)
    }

    /// The thumbnails of `files` with `--jobs jobs` (none: the default) in a directory of their own.
    private func thumbnails(jobs: Int?) throws -> (run: WebImageToolTests.Run, out: URL) {
        let out = temporary.appendingPathComponent("jobs-\(jobs.map(String.init) ?? "default")")
        let run = try WebImageToolTests.run(["thumb", "--json", "--size", "24", "--out", out.path] + (jobs.map { ["--jobs", "\($0)"] } ?? []) + files)
        return (run, out)
    }

    @Test func oneJobAndFourJobsGiveTheSameResultsInTheFilesOrder() throws {
        let serial = try thumbnails(jobs: 1)
        for parallel in [try thumbnails(jobs: 4), try thumbnails(jobs: nil)] {
            #expect(serial.run.status == 1 && parallel.run.status == 1, "two files fail: \(parallel.run.stderr)")
            let (one, many) = (serial.run.objects, parallel.run.objects)
            #expect(one.count == files.count && many.count == files.count)
            #expect(one.map { $0["file"] as? String } == files, "the files' order")
            #expect(many.map { $0["file"] as? String } == files, "the files' order")
            for (a, b) in zip(one, many) {
                for field in ["ok", "format", "width", "height", "frames", "bytes"] {
                    #expect(a[field] as? AnyHashable == b[field] as? AnyHashable, "\(a["file"] ?? "?") \(field)")
                }
                #expect((a["error"] as? [String: Any])?["code"] as? String == (b["error"] as? [String: Any])?["code"] as? String)
                let name = (a["output"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }
                #expect(name == (b["output"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent })
                if let name {
                    let written = FileManager.default.contents(atPath: serial.out.appendingPathComponent(name).path)
                    #expect(written != nil)
                    #expect(written == FileManager.default.contents(atPath: parallel.out.appendingPathComponent(name).path), "\(name)")
                }
            }
            #expect(many.filter { $0["ok"] as? Bool == true }.count == files.count - 2)
        }
    }

    @Test func textLinesComeInTheFilesOrderToo() throws {
        let run = try WebImageToolTests.run(["thumb", "--size", "24", "--jobs", "3", "--out", temporary.path] + files)
        #expect(run.status == 1)
        let printed = run.stdout.split(separator: "\n").map { $0.components(separatedBy: " -> ")[0] }
        let succeeded = files.filter { !$0.hasSuffix(".txt") && !$0.hasSuffix("missing.png") }
        #expect(printed == succeeded, "\(run.stdout)")
    }

    @Test(arguments: ["0", "-1", "many"])
    func jobsBelowOneOrNotANumberAreRefused(jobs: String) throws {
        let run = try WebImageToolTests.run(["thumb", "--size", "24", "--out", temporary.path, "--jobs=\(jobs)", files[0]])
        #expect(run.status == 64, "a usage error")
        #expect(run.stderr.contains("--jobs"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: temporary.appendingPathComponent("photo-24.jpg").path))
    }
}
