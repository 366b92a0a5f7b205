import Foundation
import WebImage

/// One line of output: what happened to one input.
struct Report: Encodable {
    struct Failure: Encodable {
        var code: String
        var number: Int
        var message: String
    }

    var file: String
    var ok: Bool
    var format: String?
    var width: Int?
    var height: Int?
    var frames: Int?
    var ms: Double?
    var loopCount: Int?
    var hasAlpha: Bool?
    var orientation: String?
    var megapixelsPerSecond: Double?
    var output: String?
    var bytes: Int?
    var error: Failure?

    init(file: String) {
        self.file = file
        self.ok = false
    }

    /// Fills format, size and frames from a decoded image.
    mutating func describe(_ image: Image) {
        format = image.format.name
        width = image.width
        height = image.height
        frames = image.frames.count
        hasAlpha = image.hasAlpha
        if image.isAnimated { loopCount = image.loopCount }
    }

    mutating func fail(_ error: any Error) {
        ok = false
        if let error = error as? WebImageError {
            self.error = Failure(code: error.code.name, number: error.code.rawValue, message: error.message)
        } else {
            self.error = Failure(code: "ioError", number: 0, message: "\(error)")
        }
    }
}

/// Prints reports as text or JSON lines and remembers whether all succeeded.
struct Reporter {
    let json: Bool
    private(set) var allSucceeded = true

    init(json: Bool) {
        self.json = json
    }

    mutating func emit(_ report: Report, text: (Report) -> String) {
        if !report.ok { allSucceeded = false }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(report), let line = String(data: data, encoding: .utf8) {
                print(line)
            }
        } else if let error = report.error {
            printError("\(report.file): error: \(error.code): \(error.message)")
        } else {
            print(text(report))
        }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Milliseconds with one decimal, for text output.
func formatMilliseconds(_ ms: Double?) -> String {
    guard let ms else { return "-" }
    return String(format: "%.1f ms", ms)
}

/// Elapsed time of `body` in milliseconds.
func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let clock = ContinuousClock()
    var result: T?
    let elapsed = try clock.measure { result = try body() }
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    return (result!, ms)
}

/// Reads a file, with an error that names it.
func readFile(_ path: String) throws -> Data {
    do {
        return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        throw WebImageError(.diskIO, "cannot read \(path): \(error.localizedDescription)")
    }
}

/// Writes a file atomically, with an error that names it.
func writeFile(_ data: Data, to path: String) throws {
    do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw WebImageError(.diskIO, "cannot write \(path): \(error.localizedDescription)")
    }
}
