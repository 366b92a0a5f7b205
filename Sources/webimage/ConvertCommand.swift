import ArgumentParser
import Foundation
import WebImage

/// `webimage convert IN OUT`: decode one file and write it in another format.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an image to another format.",
        discussion: """
            The output format comes from --format, else from OUT's extension, else from the image. On a terminal \
            the stage under way (reading, decoding, encoding, writing) is shown on standard error while it runs.
            """
    )

    @Argument(help: "The input file.")
    var input: String

    @Argument(help: "The output file.")
    var outputPath: String

    @OptionGroup var encoding: EncodeArguments
    @OptionGroup var output: OutputOptions

    func run() throws {
        var reporter = Reporter(json: output.json)
        let progress = StageProgress.forTerminal(json: output.json)
        reporter.emit(Self.convert(input, to: outputPath, encoding: encoding, progress: progress)) { r in
            "\(r.file) -> \(r.output ?? "?"): \(r.format ?? "?") \(r.width ?? 0)x\(r.height ?? 0) x\(r.frames ?? 1), \(r.bytes ?? 0) bytes in \(formatMilliseconds(r.ms))"
        }
        if !reporter.allSucceeded { throw ExitCode(1) }
    }

    static func convert(
        _ input: String,
        to outputPath: String,
        encoding: EncodeArguments,
        registry: ImageCoderRegistry = .shared,
        progress: StageProgress? = nil
    ) -> Report {
        let byExtension = ImageFormat(name: URL(fileURLWithPath: outputPath).pathExtension)
        return transcode(input, encoding: encoding, preferring: byExtension, registry: registry, progress: progress) { _ in outputPath }
    }
}
