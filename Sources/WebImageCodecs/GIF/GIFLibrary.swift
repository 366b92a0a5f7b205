internal import CGIF

/// The one place where giflib's status codes become ``WebImageError``s.
enum GIFLibrary {
    /// Which side of giflib reported the failure.
    enum Direction {
        /// The `DGif…` reader: a failure means the data is bad.
        case decoding
        /// The `EGif…` writer: a failure means encoding failed.
        case encoding
    }

    /// Throws when `status` is giflib's `GIF_ERROR`, with giflib's own message for `code`.
    ///
    /// - Parameters:
    ///   - status: What the giflib call returned (`GIF_OK` or `GIF_ERROR`).
    ///   - code: giflib's error code, read only on failure (the `Error` field of the file, or the out
    ///     parameter of an open call).
    ///   - step: What the coder was doing, for the message ("reading the image descriptor"); built only on
    ///     failure, since the calls on every row must not allocate.
    ///   - direction: Reading or writing.
    /// - Throws: `imageTooLarge` when giflib ran out of memory; else `badImageData` when decoding and
    ///   `encodingFailed` when encoding.
    static func check(
        _ status: Int32,
        code: @autoclosure () -> Int32,
        _ step: @autoclosure () -> String,
        _ direction: Direction = .decoding
    ) throws(WebImageError) {
        guard status == cgif_error else { return }
        let code = code()
        let step = step()
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        if code == cgif_decode_error_not_enough_memory || code == cgif_encode_error_not_enough_memory {
            throw WebImageError(.imageTooLarge, "GIF: giflib ran out of memory while \(step)")
        }
        switch direction {
        case .decoding:
            throw .badImageData(.gif, "\(step): \(message)")
        case .encoding:
            throw WebImageError(.encodingFailed, "GIF: \(step): \(message)")
        }
    }
}
