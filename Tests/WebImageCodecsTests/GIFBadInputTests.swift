#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite struct GIFBadInputTests {
    let coder = GIFCoder()

    static let fixtures = [
        "gif/quad.gif", "gif/quad87.gif", "gif/quad-alpha.gif", "gif/anim.gif", "gif/anim-local.gif",
        "gif/dispose-previous.gif", "gif/outside.gif", "gif/photo-interlaced.gif",
    ]

    /// Where the records of a well-formed GIF are: the offset of each image descriptor (the byte after its
    /// `,`), and of the first data sub-block length byte after it.
    struct Layout {
        var descriptors: [Int] = []
        var imageData: [Int] = []

        init(_ data: Data) {
            let b = [UInt8](data)
            var pos = 13 + (b[10] & 0x80 != 0 ? 3 << (Int(b[10] & 7) + 1) : 0)
            while pos < b.count {
                let kind = b[pos]
                pos += 1
                if kind == 0x3B { break }
                if kind == 0x21 {
                    pos += 1
                } else {
                    descriptors.append(pos)
                    let flags = b[pos + 8]
                    pos += 9 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0) + 1
                    imageData.append(pos)
                }
                while b[pos] != 0 { pos += Int(b[pos]) + 1 }
                pos += 1
            }
        }
    }

    /// Decodes `data` and accepts success, `badImageData` or `imageTooLarge`; anything else (another code, a
    /// crash) fails.
    private func decodeSurvives(_ data: Data, _ what: String) {
        do {
            _ = try coder.decode(data)
        } catch {
            #expect(error.code == .badImageData || error.code == .imageTooLarge, "\(what): \(error)")
        }
    }

    @Test func emptyData() {
        gifExpectError(.badImageData) { try coder.decode(Data()) }
        gifExpectError(.badImageData) { try coder.info(for: Data()) }
        gifExpectError(.badImageData) { try coder.makeAnimatedImageProvider(for: Data(), options: ImageDecodeOptions()) }
    }

    @Test(arguments: fixtures)
    func everyTruncationIsBadData(path: String) {
        // Every prefix lacks at least the trailer.
        for cut in CorruptData.truncations(of: Fixtures.data(path)) {
            gifExpectError(.badImageData, "\(path) cut to \(cut.count) bytes") { try coder.decode(cut) }
            gifExpectError(.badImageData, "\(path) cut to \(cut.count) bytes") { try coder.info(for: cut) }
        }
    }

    @Test(arguments: fixtures)
    func flippedBytesInHeaderScreenAndDescriptors(path: String) {
        let data = Fixtures.data(path)
        let layout = Layout(data)
        var ranges = [0..<13]
        ranges += layout.descriptors.prefix(3).map { $0..<($0 + 9) }
        for (n, range) in ranges.enumerated() {
            for copy in CorruptData.byteFlips(of: data, in: range, count: 40, seed: UInt64(n + 1)) {
                decodeSurvives(copy, "\(path) with a byte flipped in \(range)")
            }
        }
    }

    @Test(arguments: fixtures)
    func flippedBytesAnywhere(path: String) {
        let data = Fixtures.data(path)
        for copy in CorruptData.byteFlips(of: data, count: 150, seed: 99) {
            decodeSurvives(copy, "\(path) with a byte flipped")
            _ = try? coder.info(for: copy)
        }
    }

    @Test func wrongSignatureAndEmptyScreen() {
        var data = Fixtures.data("gif/quad.gif")
        data[data.startIndex + 5] = UInt8(ascii: "b")
        gifExpectError(.badImageData) { try coder.decode(data) }
        let narrow = CorruptData.settingUInt16LittleEndian(0, at: 6, in: Fixtures.data("gif/quad.gif"))
        gifExpectError(.badImageData) { try coder.decode(narrow) }
        gifExpectError(.badImageData) { try coder.info(for: narrow) }
    }

    @Test func subBlockLengths() {
        let data = Fixtures.data("gif/quad.gif")
        let first = Layout(data).imageData[0]
        for length: UInt8 in [0, 1, 0xFF] {
            var copy = data
            copy[copy.startIndex + first] = length
            gifExpectError(.badImageData, "first data sub-block of \(length) bytes") { try coder.decode(copy) }
        }
        // A code size over 8 bits.
        var copy = data
        copy[copy.startIndex + first - 1] = 12
        gifExpectError(.badImageData) { try coder.decode(copy) }
    }

    @Test func hugeCanvasWithTinyData() throws {
        var data = CorruptData.settingUInt16LittleEndian(65535, at: 6, in: Fixtures.data("gif/quad.gif"))
        data = CorruptData.settingUInt16LittleEndian(65535, at: 8, in: data)
        gifExpectError(.imageTooLarge) { try coder.decode(data) }
        gifExpectError(.imageTooLarge) { try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true)) }
        // Reduced: the frame covers a sliver of the canvas, so there is nothing to stream for; refused.
        gifExpectError(.imageTooLarge) { try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 64))) }
        gifExpectError(.imageTooLarge) { try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions()) }
        #expect(try coder.info(for: data).pixelSize == PixelSize(width: 65535, height: 65535))
        // The same canvas as an animation.
        var animation = CorruptData.settingUInt16LittleEndian(65535, at: 6, in: Fixtures.data("gif/anim.gif"))
        animation = CorruptData.settingUInt16LittleEndian(65535, at: 8, in: animation)
        gifExpectError(.imageTooLarge) { try coder.decode(animation) }
        gifExpectError(.imageTooLarge) { try coder.decode(animation, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 64))) }
    }

    @Test func hugeFrameWithTinyData() {
        let data = Fixtures.data("gif/quad.gif")
        let descriptor = Layout(data).descriptors[0]
        var copy = CorruptData.settingUInt16LittleEndian(65535, at: descriptor + 4, in: data)
        copy = CorruptData.settingUInt16LittleEndian(65535, at: descriptor + 6, in: copy)
        gifExpectError(.imageTooLarge) { try coder.decode(copy) }
        // Without a limit the decode runs out of image data after a few rows.
        var unlimited = ImageDecodeOptions()
        unlimited.maxPixelCount = 0
        gifExpectError(.badImageData) { try coder.decode(copy, options: unlimited) }
    }

    @Test func stillWhollyOutsideItsCanvasIsTransparent() throws {
        let data = Fixtures.data("gif/quad.gif")
        let moved = CorruptData.settingUInt16LittleEndian(1000, at: Layout(data).descriptors[0], in: data)
        let image = try coder.decode(moved)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.hasAlpha)
        expectPixels(image.pixels, quadrants(image.pixelSize, [.clear, .clear, .clear, .clear]))
    }

    @Test func animationWhollyOutsideItsCanvas() throws {
        var data = Fixtures.data("gif/anim.gif")
        for descriptor in Layout(data).descriptors {
            data = CorruptData.settingUInt16LittleEndian(500, at: descriptor + 2, in: data)
        }
        let image = try coder.decode(data)
        #expect(image.frames.count == 4)
        #expect(image.hasAlpha)
        #expect(image.uniqueFrameCount == 1)
        #expect(image.pixels[x: 0, y: 0].alpha == 0)
    }

    @Test func corruptImageDataFailsTheFrameNotTheFrameSource() throws {
        // The scan skips image data without decoding it, so the file opens; frame 2 fails when it is decoded.
        var data = Fixtures.data("gif/dispose-none.gif")
        let start = Layout(data).imageData[2]
        let length = Int(data[data.startIndex + start])
        for i in 1...length { data[data.startIndex + start + i] = 0xFF }
        gifExpectError(.badImageData) { try coder.decode(data) }
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        let full = try coder.decode(Fixtures.data("gif/dispose-none.gif"))
        #expect(try provider.frame(at: 1) == full.frames[1].pixels)
        gifExpectError(.badImageData) { try provider.frame(at: 2) }
        gifExpectError(.badImageData) { try provider.frame(at: 3) }
        #expect(try provider.frame(at: 1) == full.frames[1].pixels)
        #expect(try provider.frame(at: 0) == full.frames[0].pixels)
    }

    @Test func randomBytesAfterTheSignature() {
        for seed in 1...200 {
            let data = Data("GIF89a".utf8) + CorruptData.randomBytes(count: 16 + Int(seed) * 3, seed: UInt64(seed))
            decodeSurvives(data, "random bytes, seed \(seed)")
        }
    }
}
