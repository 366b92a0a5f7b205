import ArgumentParser
import Foundation
import WebImage

/// `webimage demo`: the tool's main jobs on the sample images bundled with it, so it works offline on a new
/// machine: header info, a timed decode, thumbnails, and conversions between formats.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run info, decode, thumbnails and conversions on the bundled sample images."
    )

    @Option(name: .long, help: "Directory for the thumbnails and conversions (default: a directory under the system's temporary directory).")
    var out: String?

    @Option(name: .long, help: "Thumbnail size.")
    var size: Int = 128

    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let samples = Bundle.module.url(forResource: "Samples", withExtension: nil) else {
            throw WebImageError(.diskIO, "the bundled samples are missing from this build")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: samples.path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
            .map { samples.appendingPathComponent($0).path }
        let directory = out ?? FileManager.default.temporaryDirectory.appendingPathComponent("webimage-demo").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

        var reporter = Reporter(json: output.json)
        func section(_ title: String) {
            if !output.json { print("\n== \(title)") }
        }

        section("info")
        for file in files {
            reporter.emit(InfoCommand.inspect(file)) { InfoCommand.line($0, name: name($0.file)) }
        }

        section("thumbnails (\(size) px) in \(directory)")
        let encoding = try EncodeArguments.parse(["--quality", "0.85"])
        for file in files {
            reporter.emit(ThumbCommand.thumbnail(file, size: size, out: directory, encoding: encoding)) { r in
                "\(name(r.file)) -> \(name(r.output ?? "?")): \(r.width ?? 0)x\(r.height ?? 0) x\(r.frames ?? 1), \(r.bytes ?? 0) bytes, \(formatMilliseconds(r.ms))"
            }
        }

        section("conversions in \(directory)")
        for file in files {
            let format = ImageFormat(name: URL(fileURLWithPath: file).pathExtension)
            // Everything to WebP; WebP to PNG so that every coder writes something.
            let target = format == .webp ? "png" : "webp"
            let base = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let destination = URL(fileURLWithPath: directory).appendingPathComponent("\(base).\(target)").path
            reporter.emit(ConvertCommand.convert(file, to: destination, encoding: encoding)) { r in
                "\(name(r.file)) -> \(name(r.output ?? "?")): \(r.width ?? 0)x\(r.height ?? 0) x\(r.frames ?? 1), \(r.bytes ?? 0) bytes, \(formatMilliseconds(r.ms))"
            }
        }
        if !reporter.allSucceeded { throw ExitCode(1) }
    }
}

private func name(_ path: String) -> String {
    URL(fileURLWithPath: path).lastPathComponent
}
