/// Identifies a transfer started on a ``CurlEngine``; unique within that engine.
package struct CurlTransferID: Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt64

    package init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    package var description: String { "transfer \(rawValue)" }
}
