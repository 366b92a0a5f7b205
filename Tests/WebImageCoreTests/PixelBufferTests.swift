import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct PixelBufferTests {
    @Test func filledBufferReadsBack() throws {
        let color = RGBAColor(red: 10, green: 20, blue: 30, alpha: 40)
        let buffer = try PixelBuffer(width: 3, height: 2, color: color)
        #expect(buffer.bytesPerRow == 12)
        #expect(buffer.byteCount == 24)
        #expect(buffer[x: 2, y: 1] == color)
        #expect(!buffer.isOpaque)
        #expect(try PixelBuffer(width: 2, height: 2, color: .white).isOpaque)
    }

    @Test func fillClosureWritesEveryByte() throws {
        let buffer = try PixelBuffer(width: 2, height: 2) { bytes in
            for i in 0..<bytes.count { bytes[i] = UInt8(i) }
        }
        #expect(buffer[x: 1, y: 1] == RGBAColor(red: 12, green: 13, blue: 14, alpha: 15))
        buffer.withUnsafeBytes { bytes in
            #expect(bytes.count == 16)
            #expect(bytes[5] == 5)
        }
    }

    @Test func equalityComparesPixels() throws {
        let a = try PixelBuffer(width: 2, height: 2, color: .white)
        let b = try PixelBuffer(width: 2, height: 2, color: .white)
        let c = try PixelBuffer(width: 2, height: 2, color: .black)
        let d = try PixelBuffer(width: 4, height: 1, color: .white)
        #expect(a == b)
        #expect(a != c)
        #expect(a != d)
    }

    @Test func emptyOrOverflowingSizesThrow() {
        #expect(throws: WebImageError.self) { try PixelBuffer(width: 0, height: 5, color: .white) }
        #expect(throws: WebImageError.self) { try PixelBuffer(width: Int.max / 2, height: 4, color: .white) }
    }

    @Test func flatteningLaysPixelsOverTheBackground() throws {
        let buffer = try PixelBuffer(width: 2, height: 1) { bytes in
            let values: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 128]
            for (i, v) in values.enumerated() { bytes[i] = v }
        }
        let flat = try buffer.flattened(over: .black)
        #expect(flat[x: 0, y: 0] == .black)
        #expect(flat[x: 1, y: 0].distance(to: RGBAColor(red: 128, green: 0, blue: 0)) <= 1)
        #expect(flat.isOpaque)
    }
}

@Suite struct ImageTests {
    @Test func memoryCostCountsDistinctFrameBuffers() throws {
        let a = try PixelBuffer(width: 4, height: 4, color: .white)
        let b = try PixelBuffer(width: 4, height: 4, color: .black)
        let image = Image(
            frames: [ImageFrame(pixels: a, duration: 0.1), ImageFrame(pixels: a, duration: 0.1), ImageFrame(pixels: b, duration: 0.2)],
            loopCount: 3,
            format: .gif,
            hasAlpha: false
        )
        #expect(image.memoryCost == 2 * 64)
        #expect(image.uniqueFrameCount == 2)
        #expect(image.isAnimated)
        #expect(image.loopCount == 3)
        #expect(abs(image.duration - 0.4) < 1e-9)
        #expect(image.pixelSize == PixelSize(square: 4))
    }

    @Test func stillImageHasNoLoopCountAndAScaleOfAtLeastOne() throws {
        let image = Image(pixels: try PixelBuffer(width: 2, height: 3, color: .white), scale: 0, hasAlpha: false)
        #expect(image.loopCount == 0)
        #expect(image.scale == 1)
        #expect(!image.isAnimated)
        #expect(image.width == 2 && image.height == 3 && image.bytesPerRow == 8)
        #expect(image.memoryCost == 24)
    }

    @Test func durationsBelowElevenMillisecondsBecomeATenth() {
        #expect(ImageFrame.normalizedDuration(0) == 0.1)
        #expect(ImageFrame.normalizedDuration(0.01) == 0.1)
        #expect(ImageFrame.normalizedDuration(0.011) == 0.011)
        #expect(ImageFrame.normalizedDuration(0.5) == 0.5)
        #expect(ImageFrame.normalizedDuration(-1) == 0.1)
        #expect(ImageFrame.normalizedDuration(.nan) == 0.1)
    }
}
