internal import CTurboJPEG

extension TurboJPEGHandle {
    /// What a TurboJPEG call was doing, which decides the error code a failure becomes.
    enum Operation {
        /// Reading the header or decompressing: failures are `badImageData`.
        case decoding
        /// Compressing: failures are `encodingFailed`.
        case encoding
    }

    /// The libjpeg warnings after which the decoded image is still whole, matched on libjpeg's message text
    /// (TurboJPEG 2.1 reports a warning's text, not its code). They flag irregular but harmless framing:
    /// padding before a marker, a newer JFIF version, an unknown Adobe transform code (libjpeg falls back to the
    /// usual colour space), unusual scan parameters, a damaged ICC segment (the profile is not used).
    ///
    /// Every other warning means pixel data is missing or damaged ("premature end of JPEG file" for a
    /// truncated file, "premature end of data segment", "bad Huffman code", a lost restart marker) and fails
    /// the decode. libjpeg reports the text of the first warning only, so a harmless warning that comes before
    /// a damaging one hides it; truncation is caught independently by ``JPEGMarkerScan``.
    static let harmlessWarnings = [
        "extraneous bytes before marker",
        "unknown JFIF revision",
        "Unknown Adobe color transform",
        "Invalid SOS parameters for sequential JPEG",
        "Inconsistent progression sequence",
        "bad ICC marker",
    ]

    /// The one place a TurboJPEG result becomes an error: returns for success (0) and, when decoding, for a
    /// harmless warning (see ``harmlessWarnings``); otherwise throws with TurboJPEG's own message.
    ///
    /// A fatal libjpeg error always replaces the message of an earlier warning, so a message that names a
    /// harmless warning proves that no fatal error followed it.
    ///
    /// - Parameters:
    ///   - status: What the call returned: 0 for success, -1 for an error or a warning.
    ///   - handle: The instance the call used; nil for calls without one.
    ///   - operation: Decoding or encoding.
    /// - Throws: `badImageData` (decoding) or `encodingFailed` (encoding).
    static func check(_ status: Int32, handle: tjhandle?, _ operation: Operation) throws(WebImageError) {
        guard status != 0 else { return }
        let message = libraryMessage(handle)
        if operation == .decoding, let handle, tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue),
           harmlessWarnings.contains(where: { message.contains($0) }) {
            return
        }
        throw error(message: message, operation)
    }

    /// Checks the result of a call on this instance; see ``check(_:handle:_:)``.
    func check(_ status: Int32, _ operation: Operation) throws(WebImageError) {
        try TurboJPEGHandle.check(status, handle: raw, operation)
    }

    /// The error for a failed call on `handle` (nil for a failure to create an instance).
    static func error(handle: tjhandle?, _ operation: Operation) -> WebImageError {
        error(message: libraryMessage(handle), operation)
    }

    private static func error(message: String, _ operation: Operation) -> WebImageError {
        switch operation {
        case .decoding:
            return .badImageData(.jpeg, message)
        case .encoding:
            return WebImageError(.encodingFailed, "JPEG: \(message)")
        }
    }

    /// TurboJPEG's message for the last failure on `handle`, or on this thread for a call without a handle.
    private static func libraryMessage(_ handle: tjhandle?) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "TurboJPEG failed without a message" }
        let message = String(cString: text)
        return message.isEmpty ? "TurboJPEG failed without a message" : message
    }
}
