#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Animations: frames, durations, loop count, frames on demand, limits. anim.jxl is cjxl's lossless
/// conversion of gif/anim.gif, so the GIF coder's decode of that file is the reference, but for one thing:
/// the GIF's first frame has no delay, and JPEG XL shows only frames that last (libjxl merges a frame without
/// a duration into the next), so the JPEG XL has the GIF's frames from the second on.
@Suite("JPEG XL animations")
struct JXLAnimationTests {
    let coder = JXLCoder()
    let data = Fixtures.data("jxl/anim.jxl")

    /// The GIF's frames that JPEG XL shows: all but the first, which has no delay.
    func reference() throws -> (frames: [ImageFrame], loopCount: Int, size: PixelSize) {
        let gif = try GIFCoder().decode(Fixtures.data("gif/anim.gif"))
        return (Array(gif.frames.dropFirst()), gif.loopCount, gif.pixelSize)
    }

    @Test("decodes every frame with the source's pixels, durations and loop count")
    func frames() throws {
        let gif = try reference()
        let image = try coder.decode(data)
        #expect(image.isAnimated)
        #expect(image.frames.count == gif.frames.count)
        #expect(image.loopCount == gif.loopCount)
        #expect(image.pixelSize == gif.size)
        for (index, (frame, expected)) in zip(image.frames, gif.frames).enumerated() {
            #expect(frame.pixels == expected.pixels, "frame \(index)")
            #expect(abs(frame.duration - expected.duration) < 0.001, "frame \(index): \(frame.duration) vs \(expected.duration)")
        }
    }

    @Test("reads frame count and loop count from the headers")
    func info() throws {
        let gif = try reference()
        let info = try coder.info(for: data)
        #expect(info.frameCount == gif.frames.count)
        #expect(info.loopCount == gif.loopCount)
        #expect(info.pixelSize == gif.size)
        // The frame count needs the frames: a prefix asks for the whole file.
        #expect(try coder.info(forPrefix: data.prefix(40), totalByteCount: data.count) == .needsMoreBytes(atLeast: data.count))
    }

    @Test("firstFrameOnly decodes one frame")
    func firstFrameOnly() throws {
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let image = try coder.decode(data, options: options)
        #expect(image.frames.count == 1)
        #expect(image.pixels == (try coder.decode(data)).frames[0].pixels)
    }

    @Test("maxFrameCount refuses an animation with more frames")
    func frameLimit() throws {
        let frames = try coder.info(for: data).frameCount
        var options = ImageDecodeOptions()
        options.maxFrameCount = frames - 1
        let error = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(error?.code == .imageTooLarge)
        #expect(throws: WebImageError.self) { try coder.makeAnimatedImageProvider(for: data, options: options) }
        options.maxFrameCount = frames
        #expect(try coder.decode(data, options: options).frames.count == frames)
    }

    @Test("the frame source hands out the decode's frames, in any order")
    func provider() throws {
        let image = try coder.decode(data)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.format == .jpegxl)
        #expect(provider.frameCount == image.frames.count)
        #expect(provider.loopCount == image.loopCount)
        #expect(provider.frameSize == image.pixelSize)
        let last = provider.frameCount - 1
        let order = Array(0...last) + [last, 0, last, 1, 0]
        for index in order {
            #expect(try provider.frame(at: index) == image.frames[index].pixels, "frame \(index)")
            #expect(provider.duration(ofFrameAt: index) == image.frames[index].duration)
        }
        #expect(throws: WebImageError.self) { try provider.frame(at: provider.frameCount) }

        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 16)
        let small = try coder.makeAnimatedImageProvider(for: data, options: options)
        let smallImage = try coder.decode(data, options: options)
        #expect(small.frameSize == smallImage.pixelSize)
        #expect(try small.frame(at: 2) == smallImage.frames[2].pixels)

        options.firstFrameOnly = true
        #expect(try coder.makeAnimatedImageProvider(for: data, options: options).frameCount == 1)
    }
}
