#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// What a shared download produced for one decode key: a decoded image, or the body alone for callers that asked
/// for data.
enum DownloadOutcome: Sendable {
    case image(DownloadedImage)
    case data(DownloadedImageData)
}
