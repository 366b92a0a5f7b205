import ArgumentParser
import Foundation
import WebImage

/// `--options retryFailed,refreshCached,...`: ImageOptions by name.
struct ImageOptionsArgument: ExpressibleByArgument {
    /// The options that mean something to a command-line load, by their names in the library.
    static let names: [String: ImageOptions] = [
        "retryFailed": .retryFailed,
        "lowPriority": .lowPriority,
        "highPriority": .highPriority,
        "refreshCached": .refreshCached,
        "handleCookies": .handleCookies,
        "allowInvalidSSLCertificates": .allowInvalidSSLCertificates,
        "scaleDownLargeImages": .scaleDownLargeImages,
        "queryMemoryData": .queryMemoryData,
        "queryDiskDataSync": .queryDiskDataSync,
        "fromCacheOnly": .fromCacheOnly,
        "fromLoaderOnly": .fromLoaderOnly,
        "decodeFirstFrameOnly": .decodeFirstFrameOnly,
        "preloadAllFrames": .preloadAllFrames,
        "transformAnimatedImage": .transformAnimatedImage,
        "waitStoreCache": .waitStoreCache,
    ]

    let options: ImageOptions

    init?(argument: String) {
        var options: ImageOptions = []
        for name in argument.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let option = Self.names[name] else { return nil }
            options.insert(option)
        }
        self.options = options
    }

    static var defaultValueDescription: String { "none" }
}
