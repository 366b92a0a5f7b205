/// One request as a route handler sees it: the head, the parsed query and the body, read in full.
public struct TestHTTPRequest: Sendable {
    /// `GET`, `HEAD`, `POST`...
    public var method: String
    /// The path without the query, as sent (not percent-decoded): `/image/photo.jpg`.
    public var path: String
    /// The query parameters, percent-decoded; a repeated name keeps its last value.
    public var query: [String: String]
    /// The header fields in the order they were sent.
    public var headers: [(String, String)]
    /// The body, at most ``TestHTTPRequest/maximumBodySize`` bytes of it.
    public var body: [UInt8]
    /// The part of `path` after the prefix of the route that matched; empty for exact routes.
    public var remainder: Substring

    /// The most of a request body that the server keeps.
    public static let maximumBodySize = 1 << 20

    public init(method: String, uri: String, headers: [(String, String)], body: [UInt8] = []) {
        self.method = method
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.path = parts.first.map(String.init) ?? "/"
        self.query = parts.count > 1 ? Self.parseQuery(parts[1]) : [:]
        self.headers = headers
        self.body = body
        self.remainder = ""
    }

    /// The value of the first header field named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The query parameter `name` as an integer, or `defaultValue` when it is missing or not a number.
    public func int(_ name: String, default defaultValue: Int) -> Int {
        query[name].flatMap { Int($0) } ?? defaultValue
    }

    static func parseQuery(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = percentDecoded(kv[0])
            result[key] = kv.count > 1 ? percentDecoded(kv[1]) : ""
        }
        return result
    }

    /// `%XX` escapes and `+` decoded; a malformed escape is kept as it is.
    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with every byte outside unreserved characters and `/` escaped, for a query value.
    public static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += byte < 16 ? "%0\(hex)" : "%\(hex)"
            }
        }
        return result
    }
}
