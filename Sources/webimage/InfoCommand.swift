import ArgumentParser
import Foundation
import WebImage

/// `webimage info FILE...`: what each file's header says, without decoding pixels.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print format, size, frames, loop count, alpha and orientation of each file."
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

    /// The text line for an info report: `NAME: FORMAT WxH[, N frames, loop L][, alpha][, orientation O]`.
    static func line(_ r: Report, name: String) -> String {
        var text = "\(name): \(r.format ?? "?") \(r.width ?? 0)x\(r.height ?? 0)"
        if let frames = r.frames, frames > 1 { text += ", \(frames) frames, loop \(r.loopCount ?? 0)" }
        if r.hasAlpha == true { text += ", alpha" }
        if let o = r.orientation, o != "up" { text += ", orientation \(o)" }
        return text
    }

    static func inspect(_ file: String, registry: ImageCoderRegistry = .shared) -> Report {
        var report = Report(file: file)
        do {
            let data = try readFile(file)
            let (info, ms) = try measure { try registry.info(for: data) }
            report.ok = true
            report.format = info.format.name
            report.width = info.uprightSize.width
            report.height = info.uprightSize.height
            report.frames = info.frameCount
            report.loopCount = info.frameCount > 1 ? info.loopCount : nil
            report.hasAlpha = info.hasAlpha
            report.orientation = info.orientation.description
            report.ms = ms
        } catch {
            report.fail(error)
        }
        return report
    }
}
