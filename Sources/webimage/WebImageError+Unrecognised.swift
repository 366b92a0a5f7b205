import WebImage

extension WebImageError {
    /// The messages of the errors the coders throw for bytes that none of them recognises, one per format that
    /// can be detected; a load reports the same bytes as `badImageData` with the message kept in front.
    private static let unrecognisedMessages = ([ImageFormat.undefined] + ImageFormat.known).map {
        WebImageError.unsupportedFormat($0).message
    }

    /// The error as the tool classes it, the same for a file and a download: bytes that no coder recognises
    /// are `unsupportedFormat`, as `info` and `thumb` report them.
    ///
    /// A load through the manager reports them as `badImageData`, SDWebImage's code for any download that does
    /// not decode, keeping the coders' message; that message tells them from malformed bytes of a known format,
    /// which stay `badImageData`.
    var classedAsTheToolDoes: WebImageError {
        guard code == .badImageData, Self.unrecognisedMessages.contains(where: message.hasPrefix) else { return self }
        return WebImageError(.unsupportedFormat, message, statusCode: statusCode)
    }
}
