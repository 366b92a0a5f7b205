import WebImage

extension WebImageError {
    /// The error as the tool classes it, the same for a file and a download: bytes that no coder recognises are
    /// `unsupportedFormat`, as `info` and `thumb` report them. A load through the manager reports them as
    /// `badImageData`, SDWebImage's code for any download that does not decode, and keeps the coder's code in
    /// ``WebImageError/coderCode``; malformed bytes of a known format stay `badImageData`.
    var classedAsTheToolDoes: WebImageError {
        guard code == .badImageData, coderCode == .unsupportedFormat else { return self }
        var error = self
        error.code = .unsupportedFormat
        error.coderCode = nil
        return error
    }
}
