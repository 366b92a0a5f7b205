extension ImageResponse {
    /// The media type a `Content-Type` value names, lowercased, or nil when it names none: RFC 9110's
    /// `type "/" subtype`, two tokens, before the first `;`, with the spaces and tabs around them dropped. The
    /// parameters after the `;` are not read.
    static func parsedMediaType(in value: String) -> String? {
        let bytes = value.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        var type = bytes[..<end]
        while let first = type.first, isBlank(first) { type = type.dropFirst() }
        while let last = type.last, isBlank(last) { type = type.dropLast() }
        guard let slash = type.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let main = type[..<slash]
        let sub = type[type.index(after: slash)...]
        guard isToken(main), isToken(sub) else { return nil }
        return String(Substring(type)).lowercased()
    }

    /// The number a `Content-Length` value (or one item of a list of them) gives: decimal digits with optional
    /// spaces and tabs around them, at most `Int64.max`; nil for anything else.
    static func decimalLength(_ text: Substring) -> Int64? {
        var digits = text.utf8[...]
        while let first = digits.first, isBlank(first) { digits = digits.dropFirst() }
        while let last = digits.last, isBlank(last) { digits = digits.dropLast() }
        guard !digits.isEmpty else { return nil }
        var length: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflowed) = length.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflowed, !overflowedAgain else { return nil }
            length = sum
        }
        return length
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// Whether `bytes` are an RFC 9110 token: one or more letters, digits and ``tokenSymbols``.
    private static func isToken(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                tokenSymbols.utf8.contains(byte)
            }
        }
    }

    /// The symbols a token may hold besides letters and digits.
    private static let tokenSymbols = "!#$%&'*+-.^_`|~"
}
