import Testing
@testable import WebImageCore

@Suite struct ImageEncodingFramesTests {
    @Test func maxPixelSizeAndFirstFrameOnly() throws {
        let a = try PixelBuffer(width: 100, height: 50, color: .white)
        let b = try PixelBuffer(width: 100, height: 50, color: .black)
        let image = Image(frames: [ImageFrame(pixels: a, duration: 0.1), ImageFrame(pixels: a, duration: 0.2), ImageFrame(pixels: b, duration: 0.3)], hasAlpha: false)

        let all = try image.framesForEncoding(ImageEncodeOptions(), animated: true)
        #expect(all.count == 3)
        #expect(all[0].pixels === a)

        let still = try image.framesForEncoding(ImageEncodeOptions(), animated: false)
        #expect(still.count == 1)

        let first = try image.framesForEncoding(ImageEncodeOptions(firstFrameOnly: true), animated: true)
        #expect(first.count == 1)

        let small = try image.framesForEncoding(ImageEncodeOptions(maxPixelSize: PixelSize(square: 40)), animated: true)
        #expect(small.map(\.pixels.size) == Array(repeating: PixelSize(width: 40, height: 20), count: 3))
        #expect(small[0].pixels === small[1].pixels, "shared buffers stay shared")
        #expect(small[2].pixels[x: 5, y: 5] == RGBAColor.black)
        #expect(small.map(\.duration) == [0.1, 0.2, 0.3])
    }

    @Test func clampedQuality() {
        #expect(ImageEncodeOptions(quality: 2).clampedQuality == 1)
        #expect(ImageEncodeOptions(quality: -1).clampedQuality == 0)
        #expect(ImageEncodeOptions(quality: .nan).clampedQuality == 1)
    }
}
