import Testing
import WebImageCore

@Suite struct ImageOrientationTests {
    /// A 3 x 2 image whose pixels are numbered 0...5 in the red channel, row by row:
    ///   0 1 2
    ///   3 4 5
    private func numbered() throws -> PixelBuffer {
        try PixelBuffer(width: 3, height: 2) { bytes in
            for i in 0..<6 {
                bytes[i * 4] = UInt8(i)
                bytes[i * 4 + 1] = 0
                bytes[i * 4 + 2] = 0
                bytes[i * 4 + 3] = 255
            }
        }
    }

    private func rows(_ buffer: PixelBuffer) -> [[Int]] {
        (0..<buffer.height).map { y in (0..<buffer.width).map { x in Int(buffer[x: x, y: y].red) } }
    }

    /// The stored image, as each EXIF orientation says it must be shown: what a viewer displays.
    @Test(arguments: [
        (ImageOrientation.up, [[0, 1, 2], [3, 4, 5]]),
        (.upMirrored, [[2, 1, 0], [5, 4, 3]]),
        (.down, [[5, 4, 3], [2, 1, 0]]),
        (.downMirrored, [[3, 4, 5], [0, 1, 2]]),
        (.leftMirrored, [[0, 3], [1, 4], [2, 5]]),
        (.right, [[3, 0], [4, 1], [5, 2]]),
        (.rightMirrored, [[5, 2], [4, 1], [3, 0]]),
        (.left, [[2, 5], [1, 4], [0, 3]]),
    ])
    func uprightPixels(orientation: ImageOrientation, expected: [[Int]]) throws {
        let upright = try numbered().uprighted(for: orientation)
        #expect(rows(upright) == expected)
        #expect(upright.size == orientation.uprightSize(of: PixelSize(width: 3, height: 2)))
    }

    @Test func exifValues() {
        #expect(ImageOrientation(exifValue: 6) == .right)
        #expect(ImageOrientation(exifValue: 0) == .up)
        #expect(ImageOrientation(exifValue: 9) == .up)
        #expect(ImageOrientation.allCases.filter(\.swapsWidthAndHeight) == [.leftMirrored, .right, .rightMirrored, .left])
    }
}
