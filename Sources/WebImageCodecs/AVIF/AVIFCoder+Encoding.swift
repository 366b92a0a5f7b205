#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension AVIFCoder {
    /// Encoding AVIF is not supported yet.
    ///
    /// - Throws: `unsupportedFormat`, always.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        throw .unsupportedFormat(format, "encode")
    }
}
