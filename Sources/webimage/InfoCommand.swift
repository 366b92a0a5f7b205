import ArgumentParser
import Foundation
import WebImage

/// `webimage info FILE...`: what each file's header says, without decoding pixels.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print format, size, frames, loop count, alpha, orientation and frame durations of each file.",
        discussion: """
            Pixels are not decoded: the header gives the size and frame count, and the coder's frame source the \
            durations of an animation's frames (JSON: durations, in seconds). Only the bytes the header needs are \
            read (the first 64 KiB of a still image, as a rule); an animation's frame records need the whole file.
            """
    )

    @Argument(help: "Image files.")
    var files: [String]

    @OptionGroup var output: OutputOptions

    func run() throws {
        var reporter = Reporter(json: output.json)
        for file in files {
            reporter.emit(Self.inspect(file)) { Self.line($0, name: $0.file) }
        }
        if !reporter.allSucceeded { throw ExitCode(1) }
    }

    /// The text line for an info report:
    /// `NAME: FORMAT WxH[, N frames, loop L][, alpha][, orientation O][, durations 100 ms x3, 500 ms]`.
    static func line(_ r: Report, name: String) -> String {
        var text = "\(name): \(r.format ?? "?") \(r.width ?? 0)x\(r.height ?? 0)"
        if let frames = r.frames, frames > 1 { text += ", \(frames) frames, loop \(r.loopCount ?? 0)" }
        if r.hasAlpha == true { text += ", alpha" }
        if let o = r.orientation, o != "up" { text += ", orientation \(o)" }
        if let durations = r.durations { text += ", durations " + describe(durations: durations) }
        return text
    }

    /// Frame durations in milliseconds, runs of equal ones folded: `100 ms x3, 500 ms`.
    static func describe(durations: [Double]) -> String {
        var runs: [(ms: Double, count: Int)] = []
        for duration in durations {
            let ms = (duration * 10_000).rounded() / 10
            if let last = runs.last, last.ms == ms {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((ms, 1))
            }
        }
        return runs.map { String(format: "%g ms", $0.ms) + ($0.count > 1 ? " x\($0.count)" : "") }.joined(separator: ", ")
    }

    /// The duration of each frame of an animation, from the coder's frame source (which reads the frame records
    /// without decoding pixels); nil for a still image, a coder without frame sources, or a source that fails.
    static func frameDurations(of data: Data, info: ImageInfo, registry: ImageCoderRegistry) -> [Double]? {
        guard info.frameCount > 1,
              let provider = try? registry.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        else { return nil }
        return (0..<provider.frameCount).map { provider.duration(ofFrameAt: $0) }
    }

    /// The bytes read first: enough for the header of nearly every still image.
    static let firstReadByteCount = 64 << 10

    /// The header of `file`, read from as few of its bytes as the coder needs: the first 64 KiB, then as many as
    /// the coder asks for and at least twice as many as before, up to the whole file. Returns the bytes read and
    /// the time of the header read that succeeded, in milliseconds.
    static func readHeader(of file: String, registry: ImageCoderRegistry) throws -> (info: ImageInfo, data: Data, fileSize: Int, ms: Double) {
        var (data, fileSize) = try readFileHead(file, byteCount: firstReadByteCount)
        var requested = min(fileSize, firstReadByteCount)
        while true {
            // A file that shrank since its size was read ends where its bytes do.
            if data.count < requested { fileSize = data.count }
            let (read, ms) = try measure { try registry.info(forPrefix: data, totalByteCount: fileSize) }
            switch read {
            case .complete(let info):
                return (info, data, fileSize, ms)
            case .needsMoreBytes(let count):
                // The registry asks for more than it has, so each round reads more, up to the whole file.
                requested = min(fileSize, max(count, data.count * 2))
                data = try readFileHead(file, byteCount: requested).data
            }
        }
    }

    static func inspect(_ file: String, registry: ImageCoderRegistry = .shared) -> Report {
        var report = Report(file: file)
        do {
            let (info, head, fileSize, headerMilliseconds) = try readHeader(of: file, registry: registry)
            var data = head
            // The durations come from the frame records, spread through the file.
            if info.frameCount > 1, data.count < fileSize { data = try readFile(file) }
            let (durations, durationMilliseconds) = measure { frameDurations(of: data, info: info, registry: registry) }
            let ms = headerMilliseconds + durationMilliseconds
            report.ok = true
            report.format = info.format.name
            report.width = info.uprightSize.width
            report.height = info.uprightSize.height
            report.frames = info.frameCount
            report.loopCount = info.frameCount > 1 ? info.loopCount : nil
            report.durations = durations
            report.hasAlpha = info.hasAlpha
            report.orientation = info.orientation.description
            report.ms = ms
        } catch {
            report.fail(error)
        }
        return report
    }
}
