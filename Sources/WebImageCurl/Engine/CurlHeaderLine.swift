/// One line from curl's header callback, parsed from its bytes without Foundation: a status line, a header field,
/// the continuation of a folded field, or the blank line that ends a header block.
enum CurlHeaderLine: Equatable {
    /// `HTTP/...`: a new response starts (a redirect, `100 Continue`, or the final one).
    case status
    /// `Name: value`, the value without the white space around it.
    case field(name: String, value: String)
    /// An obsolete folded line (starting with a space or tab): more of the previous field's value, trimmed.
    case continuation(String)
    /// The blank line after the headers, or a line that is none of the above (ignored).
    case other

    /// Parses `bytes`, one line with or without its line end.
    init(_ bytes: UnsafeRawBufferPointer) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == Self.carriageReturn || bytes[end - 1] == Self.lineFeed { end -= 1 }
        guard end > 0 else {
            self = .other
            return
        }
        if end >= 5, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"), bytes[2] == UInt8(ascii: "T"),
           bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/") {
            self = .status
            return
        }
        if Self.isBlank(bytes[0]) {
            self = .continuation(Self.trimmedString(bytes, from: 0, to: end))
            return
        }
        var colon = 0
        while colon < end, bytes[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < end else {
            self = .other
            return
        }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<colon]), as: UTF8.self)
        self = .field(name: name, value: Self.trimmedString(bytes, from: colon + 1, to: end))
    }

    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// The bytes in `start..<end` without leading and trailing spaces and tabs, as UTF-8 (invalid bytes repaired).
    private static func trimmedString(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> String {
        var first = start
        var last = end
        while first < last, isBlank(bytes[first]) { first += 1 }
        while last > first, isBlank(bytes[last - 1]) { last -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)
    }
}
