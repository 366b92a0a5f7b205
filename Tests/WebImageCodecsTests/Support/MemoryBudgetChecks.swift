#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Checks of the decode memory budget shared by the coders' suites.
enum MemoryBudgetChecks {
    /// A budget too small for any decode.
    static let tiny = ImageDecodeOptions(maxDecodeMemory: 1 << 10)

    /// Expects `body` to throw `imageTooLarge` for the budget of ``tiny``.
    static func expectOverBudget(_ label: String, _ body: () throws -> Void) {
        let error = #expect(throws: WebImageError.self, "\(label)") { try body() }
        #expect(error?.code == .imageTooLarge, "\(label)")
        #expect(error?.message.contains("over the decode memory budget of 1 KiB") == true, "\(label): \(error?.message ?? "")")
    }

    /// Every entry point of the registry refuses `file` with ``tiny`` and decodes it with the default budget:
    /// the decode, a thumbnail, the progressive decoder (no image at all), and the frame source when `animated`.
    static func expectEveryEntryPointChecks(_ file: String, animated: Bool) throws {
        let data = Fixtures.data(file)
        let registry = ImageCoderRegistry.shared
        expectOverBudget(file) { _ = try registry.decode(data, options: tiny) }
        var thumbnail = tiny
        thumbnail.thumbnailPixelSize = PixelSize(square: 8)
        expectOverBudget("\(file), thumbnail") { _ = try registry.decode(data, options: thumbnail) }
        thumbnail.maxDecodeMemory = ImageDecodeOptions.defaultMaxDecodeMemory
        _ = try registry.decode(data, options: thumbnail)
        _ = try registry.decode(data, options: ImageDecodeOptions())

        let decoder = try #require(registry.makeIncrementalDecoder(for: data, options: tiny))
        decoder.update(data.prefix(data.count * 2 / 3), isFinished: false)
        #expect(decoder.currentImage() == nil, "\(file), progressive")
        decoder.update(data, isFinished: true)
        #expect(decoder.currentImage() == nil, "\(file), progressive")

        if animated {
            expectOverBudget("\(file), frame source") { _ = try registry.makeAnimatedImageProvider(for: data, options: tiny) }
            let provider = try registry.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
            _ = try provider.frame(at: provider.frameCount - 1)
        }
    }

    /// Feeds `data` to a progressive decoder in two parts; whether the first gave a partial image, and the final
    /// image.
    static func feed(_ data: Data, _ coder: some ProgressiveImageCoding, options: ImageDecodeOptions) -> (partial: Bool, final: Image?) {
        let decoder = coder.makeIncrementalDecoder(options: options)
        decoder.update(data.prefix(data.count * 2 / 3), isFinished: false)
        let partial = decoder.currentImage() != nil
        decoder.update(data, isFinished: true)
        return (partial, decoder.currentImage())
    }
}
