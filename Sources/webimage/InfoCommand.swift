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
            durations of an animation's frames (JSON: durations, in seconds).
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

    static func inspect(_ file: String, registry: ImageCoderRegistry = .shared) -> Report {
        var report = Report(file: file)
        do {
            let data = try readFile(file)
            let ((info, durations), ms) = try measure {
                let info = try registry.info(for: data)
                return (info, frameDurations(of: data, info: info, registry: registry))
            }
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
