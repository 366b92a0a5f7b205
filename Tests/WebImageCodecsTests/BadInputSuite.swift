#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// What the coders' bad-input suites share: input that must fail with a typed error, and damaged files that must
/// decode within the limits or fail cleanly.
protocol BadInputSuite {
    associatedtype Coder: ImageCoding
    /// The coder under test.
    var coder: Coder { get }
    /// How every error message of the coder starts, when the suite checks it; nil when it does not.
    var messagePrefix: String? { get }
}

extension BadInputSuite {
    var messagePrefix: String? { nil }

    /// Expects `decode` to fail with one of `codes`.
    func expectDecodeFails(
        _ data: Data,
        _ comment: String,
        codes: Set<WebImageError.Code> = [.badImageData],
        options: ImageDecodeOptions = ImageDecodeOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do throws(WebImageError) {
            let image = try coder.decode(data, options: options)
            Issue.record("\(comment): decoded \(image)", sourceLocation: sourceLocation)
        } catch {
            #expect(codes.contains(error.code), "\(comment): \(error)", sourceLocation: sourceLocation)
            if let messagePrefix {
                #expect(error.message.hasPrefix(messagePrefix), "\(comment): \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Decodes `count` copies of `data` (the fixture `name`), each with random bytes changed: each must decode to
    /// an image within the default pixel limit, or fail with `badImageData` or `imageTooLarge`.
    func expectDamageDecodesOrFailsCleanly(
        _ data: Data,
        _ name: String,
        count: Int = 150,
        seed: UInt64 = 11,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (i, flipped) in CorruptData.byteFlips(of: data, count: count, seed: seed).enumerated() {
            do throws(WebImageError) {
                let image = try coder.decode(flipped)
                #expect(
                    image.memoryCost <= ImageDecodeOptions.defaultMaxPixelCount * 4, "\(name) flip \(i)",
                    sourceLocation: sourceLocation
                )
            } catch {
                #expect(
                    [.badImageData, .imageTooLarge].contains(error.code), "\(name) flip \(i): \(error)",
                    sourceLocation: sourceLocation
                )
            }
        }
    }
}
