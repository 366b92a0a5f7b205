import Logging
import WebImageCore

/// Log records kept in memory.
final class LogRecords: Sendable {
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let records = Locked<[Record]>([])
    var all: [Record] { records.withLock { $0 } }
    func append(_ record: Record) { records.withLock { $0.append(record) } }
}

/// A log handler that keeps what it is given.
struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    init(_ records: LogRecords) {
        self.records = records
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append(LogRecords.Record(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
    }
}
