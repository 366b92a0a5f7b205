import Foundation
import WebImage

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
