import ArgumentParser
import Foundation
import WebImage

/// `webimage decode FILE... [--repeat N]`: decode each file and report the speed.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode each file (all frames) and report megapixels per second.",
        discussion: """
            With --repeat N each file is decoded N times; the time reported is the fastest run. Megapixels per \
            second count the source's pixels, which a thumbnail decode (--thumbnail) reads however small its \
            output: the file's size from its header times the frames decoded. On a terminal the file being decoded is \
            shown on standard error while it runs.
            """
    )

    @Argument(help: "Image files.")
    var files: [String]

    @Option(name: .long, help: "Decode each file this many times (at least 1).")
    var `repeat`: Int = 1

    @Option(help: PixelSizeArgument.help("Decode to fit inside a box (a thumbnail decode)"), transform: { try PixelSizeArgument(parsing: $0) })
    var thumbnail: PixelSizeArgument?

    @Flag(name: .long, help: "Decode only the first frame of animations.")
    var firstFrameOnly = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        var options = ImageDecodeOptions(firstFrameOnly: firstFrameOnly)
        if let thumbnail { options.thumbnailPixelSize = thumbnail.size }
        var reporter = Reporter(json: output.json)
        let progress = StageProgress.forTerminal(json: output.json)
        for file in files {
            var report = Report(file: file)
            let name = URL(fileURLWithPath: file).lastPathComponent
            do {
                let data = try readFile(file)
                var best = Double.infinity
                var image: Image?
                for run in 0..<`repeat` {
                    progress.stage(`repeat` > 1 ? "decoding, run \(run + 1) of \(`repeat`)" : "decoding", of: name)
                    let (decoded, ms) = try measure { try ImageCoderRegistry.shared.decode(data, options: options) }
                    best = min(best, ms)
                    image = decoded
                }
                guard let image else { throw WebImageError(.badImageData, "nothing decoded") }
                report.ok = true
                report.describe(image)
                report.ms = best
                // The source's pixels, which the decode went through, not the thumbnail's.
                let source = (try? ImageCoderRegistry.shared.info(for: data).pixelSize) ?? image.pixelSize
                let megapixels = Double(source.width * source.height * image.frames.count) / 1e6
                report.megapixelsPerSecond = best > 0 ? megapixels / (best / 1000) : nil
            } catch {
                report.fail(error)
            }
            progress.finish()
            reporter.emit(report) { r in
                let speed = r.megapixelsPerSecond.map { String(format: "%.1f MP/s", $0) } ?? "-"
                return "\(r.file): \(r.format ?? "?") \(r.width ?? 0)x\(r.height ?? 0) x\(r.frames ?? 1) in \(formatMilliseconds(r.ms)), \(speed)"
            }
        }
        if !reporter.allSucceeded { throw ExitCode(1) }
    }
}
