import Foundation
import WebImage

/// One line of `webimage cache` output.
struct CacheReport: Encodable {
    var ok = true
    var directory: String
    var count: Int?
    var totalSize: Int?
    var oldestAccess: String?
    var newestAccess: String?
    var maxSize: Int?
    var maxAge: Double?
    /// The date entries expire by: `access`, `modification` or `change`.
    var expireType: String?
    var removed: Int?
    var freed: Int?
    var key: String?
    var path: String?
    var file: String?
    var writes: Int?
    var bytes: Int?
    var entry: String?
    var checked: Int?
    var undecodable: Int?
    var error: Report.Failure?

    init(directory: URL) {
        self.directory = directory.path
    }

    /// Fills count, size, access range and limits.
    mutating func describe(_ statistics: DiskCache.Statistics) {
        count = statistics.count
        totalSize = statistics.totalSize
        oldestAccess = statistics.oldestAccess.map { $0.formatted(.iso8601) }
        newestAccess = statistics.newestAccess.map { $0.formatted(.iso8601) }
        maxSize = statistics.maxSize
        maxAge = statistics.maxAge
    }

    mutating func fail(_ error: any Error) {
        var report = Report(file: "")
        report.fail(error)
        ok = false
        self.error = report.error
    }

    /// Prints the report: JSON, or `text` (an error goes to standard error as `error: CODE: MESSAGE`).
    func emit(json: Bool, text: (CacheReport) -> String) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(self), let line = String(data: data, encoding: .utf8) {
                print(line)
            }
        } else if let error {
            printError("\(entry ?? key ?? directory): error: \(error.code): \(error.message)")
        } else {
            print(text(self))
        }
    }
}

/// Bytes for people: `1.5 MiB (1572864 bytes)`.
func formatBytes(_ bytes: Int?) -> String {
    guard let bytes else { return "-" }
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f", value) + " \(units[unit]) (\(bytes) bytes)"
}

/// Seconds for people: `7 days`, `none`.
func formatAge(_ seconds: Double?) -> String {
    guard let seconds else { return "-" }
    if seconds < 0 { return "none" }
    if seconds >= 86_400, seconds.truncatingRemainder(dividingBy: 86_400) == 0 { return "\(Int(seconds / 86_400)) days" }
    return String(format: "%g s", seconds)
}
