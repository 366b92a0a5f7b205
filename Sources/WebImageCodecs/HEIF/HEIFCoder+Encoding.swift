#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension HEIFCoder {
    /// Refuses every format: this coder does not encode yet.
    ///
    /// - Throws: `unsupportedFormat`.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        throw .unsupportedFormat(format, "encode")
    }
}
