#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("PNG coder: APNG frames on demand")
struct APNGProviderTests {
    let coder = PNGCoder()

    @Test("the provider describes the animation as decode does")
    func description() throws {
        let data = Fixtures.data("png/apng-dispose.png")
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.format == .png)
        #expect(provider.frameCount == 4)
        #expect(provider.loopCount == 1)
        #expect(provider.frameSize == PixelSize(width: 32, height: 24))
        #expect(provider.hasAlpha)
        #expect(provider.animatedImageData == data)
        #expect((0..<4).map { provider.duration(ofFrameAt: $0) } == [0.1, 0.1, 0.05, 0.011])
        #expect(provider.duration(ofFrameAt: 4) == 0)
        #expect(provider.duration(ofFrameAt: -1) == 0)
    }

    @Test("frames in order, out of order and again equal the frames of a full decode", arguments: [
        "apng-dispose.png", "apng-blend.png", "apng-palette.png", "apng-hidden-default.png", "apng-apngasm.png",
    ])
    func framesMatchDecode(_ file: String) throws {
        let data = Fixtures.data("png/\(file)")
        let decoded = try coder.decode(data)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.frameCount == decoded.frames.count)
        let count = decoded.frames.count
        let order = Array(0..<count) + Array((0..<count).reversed()) + [count - 1, 0, count / 2, count / 2]
        for index in order {
            #expect(try provider.frame(at: index) == decoded.frames[index].pixels, "\(file) frame \(index)")
        }
    }

    @Test("the options' thumbnail applies to every frame")
    func thumbnail() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 16))
        let data = Fixtures.data("png/apng-dispose.png")
        let decoded = try coder.decode(data, options: options)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: options)
        #expect(provider.frameSize == PixelSize(width: 16, height: 12))
        for index in 0..<4 {
            #expect(try provider.frame(at: index) == decoded.frames[index].pixels)
        }
    }

    @Test("a still PNG and firstFrameOnly give one frame")
    func oneFrame() throws {
        let still = try coder.makeAnimatedImageProvider(for: Fixtures.data("png/rgba8.png"), options: ImageDecodeOptions())
        #expect(still.frameCount == 1)
        #expect(still.loopCount == 0)
        #expect(still.hasAlpha)
        #expect(try still.frame(at: 0) == (try coder.decode(Fixtures.data("png/rgba8.png")).pixels))

        let first = try coder.makeAnimatedImageProvider(
            for: Fixtures.data("png/apng-hidden-default.png"),
            options: ImageDecodeOptions(firstFrameOnly: true)
        )
        #expect(first.frameCount == 1)
        #expect(try first.frame(at: 0)[x: 0, y: 0] == .red)
    }

    @Test("a frame index out of range throws; the provider goes on working")
    func outOfRange() throws {
        let provider = try coder.makeAnimatedImageProvider(for: Fixtures.data("png/apng-blend.png"), options: ImageDecodeOptions())
        for index in [-1, 3, 100] {
            #expect {
                try provider.frame(at: index)
            } throws: { ($0 as? WebImageError)?.code == .badImageData }
        }
        #expect(try provider.frame(at: 2)[x: 16, y: 12].alpha == 128)
    }

    @Test("a canvas over the pixel limit is refused when the provider is made")
    func overLimit() {
        #expect {
            try coder.makeAnimatedImageProvider(
                for: Fixtures.data("png/apng-dispose.png"),
                options: ImageDecodeOptions(maxPixelCount: 500)
            )
        } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }
    }

    @Test("frames asked from many threads at once are all right")
    func concurrent() async throws {
        let data = Fixtures.data("png/apng-dispose.png")
        let expected = try coder.decode(data).frames.map(\.pixels)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        let matches = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var ok = true
                    for step in 0..<40 {
                        let index = (task * 7 + step * 3) % 4
                        let pixels = try provider.frame(at: index)
                        ok = ok && pixels == expected[index]
                    }
                    return ok
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(matches == Array(repeating: true, count: 8))
    }
}
