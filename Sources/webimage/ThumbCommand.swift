import ArgumentParser
import Foundation
import WebImage

/// `webimage thumb FILE... --thumbnail N`: decode reduced and write thumbnails.
struct ThumbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumb",
        abstract: "Write a thumbnail of each file that fits inside W x H (or N x N) pixels.",
        discussion: """
            JPEG and WebP are decoded reduced (DCT scaling, libwebp scaling), so a large photo never becomes a \
            full-size bitmap. Animations keep their frames. With --transform the chain runs on the thumbnail, on \
            every frame of an animation. Thumbnails are named NAME-N.EXT (NAME-WxH.EXT for a box that is not \
            square) in the output directory. --size is another name for --thumbnail.

            Files are thumbnailed on every core at once (--jobs to choose how many); lines are printed in the \
            order of the files all the same, and the exit status is 1 when any file failed. For a single file on a \
            terminal, the stage under way is shown on standard error while it runs.
            """
    )

    @Argument(help: "Image files.")
    var files: [String]

    @Option(
        name: [.customLong("thumbnail"), .customLong("size")],
        help: PixelSizeArgument.help("The box the thumbnail fits inside, in pixels"),
        transform: { try PixelSizeArgument(parsing: $0) }
    )
    var thumbnail: PixelSizeArgument

    @Option(name: .long, help: "Directory for the thumbnails (created if needed).")
    var out: String = "thumbnails"

    @Option(help: TransformArgument.help, transform: { try TransformArgument(chain: $0) })
    var transform: TransformArgument?

    @Option(name: .long, help: "How many files to thumbnail at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var encoding: EncodeArguments
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
    }

    func run() throws {
        let reporter = SharedReporter(json: output.json)
        let (files, size, out, encoding, transformer) = (files, thumbnail, out, encoding, transform?.transformer)
        // One line of stages for one file; many files at once would draw over each other.
        let progress = files.count == 1 ? StageProgress.forTerminal(json: output.json) : nil
        OrderedJobs.run(count: files.count, jobs: jobs) { index in
            Self.thumbnail(files[index], size: size, out: out, encoding: encoding, transformer: transformer, progress: progress)
        } deliver: { report in
            reporter.emit(report) { r in
                "\(r.file) -> \(r.output ?? "?"): \(r.width ?? 0)x\(r.height ?? 0) \(r.format ?? "?"), \(r.bytes ?? 0) bytes in \(formatMilliseconds(r.ms))"
            }
        }
        if !reporter.allSucceeded { throw ExitCode(1) }
    }

    /// Decodes `file` reduced to fit `size`, runs `transformer` on the result when given, and writes it
    /// to `out` as `encoding` says.
    static func thumbnail(
        _ file: String,
        size: PixelSizeArgument,
        out: String,
        encoding: EncodeArguments,
        transformer: (any ImageTransforming)? = nil,
        registry: ImageCoderRegistry = .shared,
        progress: StageProgress? = nil
    ) -> Report {
        let options = ImageDecodeOptions(thumbnailPixelSize: size.size)
        let destination = { (format: ImageFormat) throws -> String in
            try makeDirectory(out)
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            return URL(fileURLWithPath: out).appendingPathComponent("\(name)-\(size.name).\(format.fileExtension ?? format.name)").path
        }
        return transcode(file, decoding: options, transformer: transformer, encoding: encoding, registry: registry, progress: progress, destination: destination)
    }
}
