import ArgumentParser
import Foundation
import WebImage

/// `webimage frames FILE --out DIR`: writes each frame of an animation as a PNG of the whole canvas.
struct FramesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Write each frame of an animation (GIF, APNG, WebP) as DIR/frame-0000.png, frame-0001.png, ...",
        discussion: """
            Each PNG is the full canvas at that frame, composited with the frames before it. Frames are decoded \
            one at a time through the coder's frame source, so a long animation never becomes all its bitmaps at \
            once; a still image, or a format without a frame source, gives one frame. Then a summary: frames, \
            size, loop count and the duration of each frame (JSON: durations, in seconds; output, the directory; \
            bytes, the PNGs' total). On a terminal the frame being written is shown on standard error.
            """
    )

    @Argument(help: "An image file.")
    var file: String

    @Option(name: .long, help: "Directory for the frames (created if needed).")
    var out: String

    @Option(help: PixelSizeArgument.help("Decode every frame to fit a box"), transform: { try PixelSizeArgument(parsing: $0) })
    var thumbnail: PixelSizeArgument?

    @OptionGroup var output: OutputOptions

    func run() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = thumbnail?.size
        var reporter = Reporter(json: output.json)
        let progress = StageProgress.forTerminal(json: output.json)
        reporter.emit(Self.export(file, to: out, options: options, progress: progress)) { r in
            var text = "\(r.file) -> \(r.output ?? "?"): \(r.format ?? "?") \(r.width ?? 0)x\(r.height ?? 0), \(r.frames ?? 0) frame\(r.frames == 1 ? "" : "s")"
            if let frames = r.frames, frames > 1 { text += ", loop \(r.loopCount ?? 0)" }
            if let durations = r.durations, (r.frames ?? 0) > 1 { text += ", durations " + InfoCommand.describe(durations: durations) }
            return text + ", \(r.bytes ?? 0) bytes in \(formatMilliseconds(r.ms))"
        }
        if !reporter.allSucceeded { throw ExitCode(1) }
    }

    /// The path of frame `index` in `directory`: `frame-0000.png` and on.
    static func framePath(_ index: Int, in directory: String) -> String {
        let number = String(index)
        let name = "frame-" + String(repeating: "0", count: max(0, 4 - number.count)) + number + ".png"
        return URL(fileURLWithPath: directory).appendingPathComponent(name).path
    }

    /// Writes every frame of `file` into `directory` and reports the animation.
    static func export(
        _ file: String, to directory: String, options: ImageDecodeOptions, registry: ImageCoderRegistry = .shared, progress: StageProgress? = nil
    ) -> Report {
        var report = Report(file: file)
        defer { progress?.finish() }
        let name = URL(fileURLWithPath: file).lastPathComponent
        do {
            progress?.stage("reading", of: name)
            let data = try readFile(file)
            let ((frames, bytes), ms) = try measure { () throws -> (FrameSource, Int) in
                try makeDirectory(directory)
                let source = try FrameSource(data, options: options, registry: registry)
                var bytes = 0
                // One frame at a time: each is decoded, encoded, written and let go before the next.
                for index in 0..<source.count {
                    progress?.stage("frame \(index + 1) of \(source.count)", of: name)
                    let encoded = try registry.encode(try source.frame(at: index), as: .png, options: ImageEncodeOptions())
                    try writeFile(encoded, to: framePath(index, in: directory))
                    bytes += encoded.count
                }
                return (source, bytes)
            }
            report.ok = true
            report.bytes = bytes
            report.format = frames.format.name
            report.width = frames.size.width
            report.height = frames.size.height
            report.frames = frames.count
            report.loopCount = frames.count > 1 ? frames.loopCount : nil
            report.hasAlpha = frames.hasAlpha
            report.durations = (0..<frames.count).map(frames.duration(at:))
            report.output = directory
            report.ms = ms
        } catch {
            report.fail(error)
        }
        return report
    }
}

extension FramesCommand {
    /// The frames of one file: from the coder's frame source when it has one, else from a plain decode.
    enum FrameSource {
        case provider(any AnimatedImageProviding)
        case image(Image)

        /// A frame source from the registry, or a decode when no animated coder recognises `data`.
        init(_ data: Data, options: ImageDecodeOptions, registry: ImageCoderRegistry) throws(WebImageError) {
            do {
                self = .provider(try registry.makeAnimatedImageProvider(for: data, options: options))
            } catch where error.code == .unsupportedFormat {
                self = .image(try registry.decode(data, options: options))
            }
        }

        var count: Int {
            switch self {
            case .provider(let provider): provider.frameCount
            case .image(let image): image.frames.count
            }
        }

        var format: ImageFormat {
            switch self {
            case .provider(let provider): provider.format
            case .image(let image): image.format
            }
        }

        var size: PixelSize {
            switch self {
            case .provider(let provider): provider.frameSize
            case .image(let image): image.pixelSize
            }
        }

        var loopCount: Int {
            switch self {
            case .provider(let provider): provider.loopCount
            case .image(let image): image.loopCount
            }
        }

        var hasAlpha: Bool {
            switch self {
            case .provider(let provider): provider.hasAlpha
            case .image(let image): image.hasAlpha
            }
        }

        func duration(at index: Int) -> Double {
            switch self {
            case .provider(let provider): provider.duration(ofFrameAt: index)
            case .image(let image): image.frames[index].duration
            }
        }

        /// Frame `index` as a still image, ready to encode; a provider decodes it now.
        func frame(at index: Int) throws(WebImageError) -> Image {
            switch self {
            case .provider(let provider):
                Image(pixels: try provider.frame(at: index), format: provider.format, hasAlpha: provider.hasAlpha)
            case .image(let image):
                Image(pixels: image.frames[index].pixels, format: image.format, hasAlpha: image.hasAlpha)
            }
        }
    }
}
