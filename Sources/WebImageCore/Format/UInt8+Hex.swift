extension UInt8 {
    /// The byte as two hex digits ("0a", or "0A" with `uppercase`), for colours and for messages that name
    /// bytes of a file.
    package func hexDigits(uppercase: Bool = false) -> String {
        let digits = String(self, radix: 16, uppercase: uppercase)
        return self < 16 ? "0" + digits : digits
    }
}
