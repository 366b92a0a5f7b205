/// Which load failures are permanent, so that a URL failing with them is not tried again for a while.
public enum ImageLoaderFailure {
    /// True for a bad URL, undecodable or empty data, an unsupported format or scheme, too many redirects, a
    /// response too large, TLS failures and refused requests or responses; false for cancellations, timeouts,
    /// connection and DNS failures, lost connections, replies that are not valid HTTP (`badServerResponse`), HTTP
    /// status errors and everything else.
    public static func isPermanent(_ error: WebImageError) -> Bool {
        switch error.code {
        case .invalidURL, .badImageData, .unsupportedFormat, .unsupportedScheme, .tooManyRedirects,
            .responseTooLarge, .tlsFailure, .invalidDownloadOperation, .invalidDownloadResponse,
            .invalidDownloadContentType, .imageTooLarge:
            return true
        default:
            return false
        }
    }
}
