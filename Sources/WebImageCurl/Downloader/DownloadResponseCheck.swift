import WebImageCore

/// The checks a response passes before its body is decoded, in SDWebImage's order: a `304` to a conditional
/// request, the status code, then the media type. When only some media types are accepted, a response without a
/// `Content-Type` passes, as in SDWebImage, and one whose `Content-Type` names no media type fails.
package enum DownloadResponseCheck {
    /// Nil when `response` is acceptable under `config`; else the error that fails the load.
    ///
    /// - Parameters:
    ///   - response: The response after the response modifier.
    ///   - config: The acceptable status codes and media types.
    ///   - isConditional: Whether the request carried validators (a `304` then means the cached copy is good).
    package static func failure(
        for response: ImageResponse,
        config: ImageDownloaderConfig,
        isConditional: Bool
    ) -> WebImageError? {
        // Formatted only for a failure: most responses pass.
        var url: String { response.url.absoluteString }
        if response.statusCode == 304, isConditional {
            return WebImageError(.cacheNotModified, "\(url) was not modified since the cached copy")
        }
        // A `file:` URL has no status (0); every other response is checked, one that a response modifier left
        // without a status too.
        let isFileWithoutStatus = response.statusCode == 0 && response.url.isFileURL
        if !isFileWithoutStatus, !config.acceptableStatusCodes.contains(response.statusCode) {
            return WebImageError(
                .invalidDownloadStatusCode,
                "\(url) answered with status \(response.statusCode)",
                statusCode: response.statusCode
            )
        }
        if let accepted = config.acceptableContentTypes {
            if let type = response.mediaType, !accepted.contains(type) {
                return WebImageError(.invalidDownloadContentType, "\(url) sent \(type), which is not accepted")
            }
            if response.hasMalformedContentType {
                let field = response.value(forHeader: "Content-Type") ?? ""
                return WebImageError(
                    .invalidDownloadContentType, "\(url) sent a Content-Type that names no media type: '\(field)'"
                )
            }
        }
        return nil
    }
}
