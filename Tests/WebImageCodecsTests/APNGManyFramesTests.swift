#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("PNG coder: APNG with tens of thousands of frames")
struct APNGManyFramesTests {
    let coder = PNGCoder()

    /// An animation of `count` frames of 1 x 1 pixel at the top left of a `side` x `side` canvas, alternating red
    /// and green, the default image (blue) being frame 0.
    static func manyFrames(count: Int, side: UInt32) -> Data {
        let red = PNGCraft.solid(width: 1, height: 1, .red)
        let green = PNGCraft.solid(width: 1, height: 1, .green)
        var file = APNGCraft(width: side, height: side, frames: UInt32(count))
        file.control(width: side, height: side)
        file.defaultImage(PNGCraft.solid(width: Int(side), height: Int(side), .blue))
        for index in 1..<count {
            file.control(width: 1, height: 1, delay: (0, 0))
            file.frameData(index % 2 == 1 ? red : green)
        }
        return file.finished()
    }

    @Test("30000 frames over a 100 x 100 canvas: over the limits, refused before any frame is decoded")
    func overBudget() throws {
        let data = Self.manyFrames(count: 30_000, side: 100)
        let info = try coder.info(for: data)
        #expect(info.frameCount == 30_000)
        // Over the frame limit, and with that lifted over the pixel budget (300 megapixels).
        #expect {
            try coder.decode(data)
        } throws: { ($0 as? WebImageError)?.message.contains("frames is over the limit of 10000 frames") == true }
        #expect {
            try coder.decode(data, options: ImageDecodeOptions(maxFrameCount: 0))
        } throws: { ($0 as? WebImageError)?.message.contains("over the limit of 100000000 pixels") == true }
        // The first frame alone fits.
        let first = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(first.pixels[x: 50, y: 50] == .blue)
        // A provider holds one frame at a time, so it may play them (once the frame limit is lifted).
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions(maxFrameCount: 0))
        #expect(provider.frameCount == 30_000)
        #expect(try provider.frame(at: 2)[x: 0, y: 0] == .green)
    }

    @Test("30000 frames of one pixel: within the pixel budget, every frame decoded once the frame limit is lifted")
    func withinBudget() throws {
        let data = Self.manyFrames(count: 30_000, side: 1)
        #expect(throws: WebImageError.self) { try coder.decode(data) }
        let image = try coder.decode(data, options: ImageDecodeOptions(maxFrameCount: 0))
        #expect(image.frames.count == 30_000)
        #expect(image.memoryCost == 30_000 * 4)
        #expect(image.frames[0].pixels[x: 0, y: 0] == .blue)
        #expect(image.frames[1].pixels[x: 0, y: 0] == .red)
        #expect(image.frames[29_998].pixels[x: 0, y: 0] == .green)
        #expect(image.frames[29_999].pixels[x: 0, y: 0] == .red)
        #expect(abs(image.duration - 3000) < 0.001)
    }
}

@Suite("PNG coder: APNG canvases without a pixel limit")
struct APNGHugeCanvasTests {
    @Test("a canvas whose memory cannot exist is imageTooLarge, not a crash, even with no pixel limit")
    func hugeCanvas() {
        let side: UInt32 = 0x7FFF_FFFF
        var file = APNGCraft(width: side, height: side, frames: 1)
        file.defaultImage(PNGCraft.solid(width: 1, height: 1, .red))
        file.control(width: 1, height: 1)
        file.frameData(PNGCraft.solid(width: 1, height: 1, .red))
        let data = file.finished()
        let unlimited = ImageDecodeOptions(maxPixelCount: 0)
        for options in [unlimited, ImageDecodeOptions()] {
            #expect {
                try PNGCoder().decode(data, options: options)
            } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }
            #expect {
                try PNGCoder().makeAnimatedImageProvider(for: data, options: options)
            } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }
        }
    }
}
