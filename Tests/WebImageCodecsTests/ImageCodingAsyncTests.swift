#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// The async decode and encode of the real coders and the registry give what the sync forms give.
@Suite("Coders: async forms")
struct ImageCodingAsyncTests {
    static let fixtures = ["png/gray8.png", "jpeg/photo.jpg", "gif/anim.gif", "png/apng-apngasm.png"]

    @Test(arguments: fixtures)
    func registryDecodeMatchesTheSyncForm(_ path: String) async throws {
        let registry = ImageCoderRegistry.shared
        let data = Fixtures.data(path)
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 16))
        let awaited = try await registry.decode(data, options: options, on: .decoding)
        let direct = try registry.decode(data, options: options)
        #expect(awaited.format == direct.format)
        #expect(awaited.pixelSize == direct.pixelSize)
        #expect(awaited.frames.count == direct.frames.count)
        #expect(zip(awaited.frames, direct.frames).allSatisfy { $0.pixels == $1.pixels && $0.duration == $1.duration })
    }

    @Test func coderEncodeMatchesTheSyncForm() async throws {
        let coder = PNGCoder()
        let image = try coder.decode(Fixtures.data("png/gray8.png"))
        let awaited = try await coder.encode(image, as: .png, on: .decoding)
        let direct = try coder.encode(image, as: .png, options: ImageEncodeOptions())
        #expect(awaited == direct)
        let jpeg = try await ImageCoderRegistry.shared.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.8), on: .decoding)
        #expect(jpeg == (try ImageCoderRegistry.shared.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.8))))
    }
}
