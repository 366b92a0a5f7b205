#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Builds GIF files byte by byte for cases no tool writes: missing colour tables, indices beyond the table,
/// tens of thousands of frames. Image data is LZW with literal codes only (a clear code before the table would
/// grow), which every decoder reads.
struct GIFBuilder {
    private(set) var bytes: [UInt8] = []

    /// Starts a GIF89a file with a logical screen and an optional global colour table (2, 4 … 256 colours).
    init(width: Int, height: Int, colors: [RGBAColor]? = nil) {
        bytes += Array("GIF89a".utf8)
        bytes += Self.word(width) + Self.word(height)
        if let colors {
            bytes += [0xF0 | Self.tableBits(colors.count), 0, 0]
            bytes += Self.table(colors)
        } else {
            bytes += [0x70, 0, 0]
        }
    }

    static func word(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    /// The size field of a colour table of `count` entries (a power of two from 2 to 256).
    static func tableBits(_ count: Int) -> UInt8 {
        UInt8(max(1, count.trailingZeroBitCount) - 1)
    }

    static func table(_ colors: [RGBAColor]) -> [UInt8] {
        colors.flatMap { [$0.red, $0.green, $0.blue] }
    }

    /// Appends a NETSCAPE2.0 loop extension.
    mutating func loop(_ count: Int) {
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + Self.word(count) + [0]
    }

    /// Appends a graphic control extension.
    mutating func control(disposal: Int = 0, delay: Int = 0, transparentIndex: Int? = nil) {
        let flags = UInt8(disposal << 2) | (transparentIndex == nil ? 0 : 1)
        bytes += [0x21, 0xF9, 4, flags] + Self.word(delay) + [UInt8(transparentIndex ?? 0), 0]
    }

    /// Appends a plain-text extension (a graphic rendering block browsers do not draw).
    mutating func plainText() {
        bytes += [0x21, 0x01, 12] + [UInt8](repeating: 0, count: 12) + [1, 0x41, 0]
    }

    /// Appends an image: descriptor, optional local table, and `indices` (row by row, `width * height`).
    mutating func image(
        x: Int = 0,
        y: Int = 0,
        width: Int,
        height: Int,
        colors: [RGBAColor]? = nil,
        indices: [UInt8],
        codeSize: Int = 2
    ) {
        bytes += [0x2C] + Self.word(x) + Self.word(y) + Self.word(width) + Self.word(height)
        if let colors {
            bytes += [0x80 | Self.tableBits(colors.count)] + Self.table(colors)
        } else {
            bytes += [0]
        }
        bytes += Self.lzw(indices, codeSize: codeSize)
    }

    /// Appends an image descriptor followed by raw image data bytes (code size, sub-blocks, terminator).
    mutating func rawImage(x: Int = 0, y: Int = 0, width: Int, height: Int, data: [UInt8]) {
        bytes += [0x2C] + Self.word(x) + Self.word(y) + Self.word(width) + Self.word(height) + [0] + data
    }

    /// Image data for `indices`: the code size byte, the sub-blocks and their terminator.
    static func lzw(_ indices: [UInt8], codeSize: Int) -> [UInt8] {
        let clear = 1 << codeSize
        let width = codeSize + 1
        var codes = [clear]
        var sinceClear = 0
        for index in indices {
            if sinceClear == clear - 2 {
                codes.append(clear)
                sinceClear = 0
            }
            codes.append(Int(index))
            sinceClear += 1
        }
        codes.append(clear + 1)
        var packed: [UInt8] = []
        var buffer = 0
        var bits = 0
        for code in codes {
            buffer |= code << bits
            bits += width
            while bits >= 8 {
                packed.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                bits -= 8
            }
        }
        if bits > 0 { packed.append(UInt8(buffer & 0xFF)) }
        var data: [UInt8] = [UInt8(codeSize)]
        var offset = 0
        while offset < packed.count {
            let n = min(255, packed.count - offset)
            data.append(UInt8(n))
            data += packed[offset..<offset + n]
            offset += n
        }
        data.append(0)
        return data
    }

    /// The file with its trailer.
    func finished() -> Data {
        Data(bytes + [0x3B])
    }
}

/// Expects `body` to throw a ``WebImageError`` with `code`.
func gifExpectError<R>(
    _ code: WebImageError.Code,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R
) {
    let note = comment.map { " (\($0))" } ?? ""
    do {
        _ = try body()
        Issue.record("expected \(code), but it succeeded\(note)", sourceLocation: sourceLocation)
    } catch let error as WebImageError {
        #expect(error.code == code, "\(error)\(note)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a WebImageError \(code), got \(error)\(note)", sourceLocation: sourceLocation)
    }
}

@Suite struct GIFSyntheticTests {
    let coder = GIFCoder()
    let palette: [RGBAColor] = [.red, .green, .blue, .white]

    @Test func builderOutputDecodes() throws {
        var gif = GIFBuilder(width: 2, height: 2, colors: palette)
        gif.image(width: 2, height: 2, indices: [0, 1, 2, 3])
        let image = try coder.decode(gif.finished())
        expectPixels(image.pixels, [
            ExpectedPixel(x: 0, y: 0, .red), ExpectedPixel(x: 1, y: 0, .green),
            ExpectedPixel(x: 0, y: 1, .blue), ExpectedPixel(x: 1, y: 1, .white),
        ])
        #expect(!image.hasAlpha)
    }

    @Test func longRunsOfLiteralCodesDecode() throws {
        // 256 colours, 8-bit codes: a clear code every 254 pixels keeps the code width.
        let colors = (0..<256).map { RGBAColor(red: UInt8($0), green: 0, blue: UInt8(255 - $0)) }
        let indices = (0..<(64 * 64)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var gif = GIFBuilder(width: 64, height: 64, colors: colors)
        gif.image(width: 64, height: 64, indices: indices, codeSize: 8)
        let image = try coder.decode(gif.finished())
        for (i, index) in indices.enumerated() where i % 97 == 0 {
            #expect(image.pixels[x: i % 64, y: i / 64] == colors[Int(index)])
        }
    }

    @Test func frameWithoutAnyColourTableIsBadData() {
        var gif = GIFBuilder(width: 2, height: 1)
        gif.image(width: 2, height: 1, indices: [0, 1])
        let data = gif.finished()
        gifExpectError(.badImageData) { try coder.decode(data) }
        gifExpectError(.badImageData) { try coder.info(for: data) }
    }

    @Test func localColourTableWithoutGlobalOneDecodes() throws {
        var gif = GIFBuilder(width: 2, height: 1)
        gif.image(width: 2, height: 1, colors: [.blue, .white], indices: [1, 0])
        let image = try coder.decode(gif.finished())
        expectPixels(image.pixels, [ExpectedPixel(x: 0, y: 0, .white), ExpectedPixel(x: 1, y: 0, .blue)])
    }

    @Test func indicesBeyondTheColourTableAreOpaqueBlack() throws {
        // A 2-colour table, but 2-bit codes can say 2 and 3.
        var gif = GIFBuilder(width: 4, height: 1, colors: [.red, .green])
        gif.image(width: 4, height: 1, indices: [0, 1, 2, 3])
        let image = try coder.decode(gif.finished())
        expectPixels(image.pixels, [
            ExpectedPixel(x: 0, y: 0, .red), ExpectedPixel(x: 1, y: 0, .green),
            ExpectedPixel(x: 2, y: 0, .black), ExpectedPixel(x: 3, y: 0, .black),
        ])
        #expect(!image.hasAlpha)
    }

    @Test func plainTextBlockConsumesTheControlExtensionBeforeIt() throws {
        var gif = GIFBuilder(width: 2, height: 1, colors: palette)
        gif.control(transparentIndex: 0)
        gif.plainText()
        gif.image(width: 2, height: 1, indices: [0, 1])
        let image = try coder.decode(gif.finished())
        #expect(image.pixels[x: 0, y: 0] == .red)
        #expect(!image.hasAlpha)
    }

    @Test func tensOfThousandsOfFramesAreRefusedBeforeAnyIsDecoded() {
        // 20 000 frames of 100 x 100 are 200 megapixels. The image data is not valid LZW: a decode that got as far
        // as decoding a frame would fail with badImageData instead.
        var gif = GIFBuilder(width: 100, height: 100, colors: palette)
        gif.loop(0)
        for _ in 0..<20_000 {
            gif.rawImage(width: 1, height: 1, data: [2, 2, 0xFF, 0xFF, 0])
        }
        let data = gif.finished()
        let start = ContinuousClock.now
        gifExpectError(.imageTooLarge) { try coder.decode(data) }
        #expect(ContinuousClock.now - start < .seconds(10))
        // The records are readable: the header-only read counts the frames.
        #expect((try? coder.info(for: data))?.frameCount == 20_000)
        // Without limits the decode gets to the first frame's image data, and fails there.
        var unlimited = ImageDecodeOptions()
        unlimited.maxPixelCount = 0
        gifExpectError(.imageTooLarge) { try coder.decode(data, options: unlimited) }   // the frame limit
        unlimited.maxFrameCount = 0
        gifExpectError(.imageTooLarge) { try coder.decode(data, options: unlimited) }   // the memory budget
        unlimited.maxDecodeMemory = 0
        gifExpectError(.badImageData) { try coder.decode(data, options: unlimited) }
    }

    @Test func reducedAnimationsOnHugeCanvasesAreRefusedBeforeTheWork() {
        // A 10000 x 10000 canvas and 20 frames that each change one pixel: tiny output with a thumbnail, but 2
        // gigapixels to composite and resample. Refused from the scan, before the canvas is even allocated.
        var gif = GIFBuilder(width: 10000, height: 10000, colors: palette)
        for i in 0..<20 {
            gif.image(x: i, y: 0, width: 1, height: 1, indices: [UInt8(i % 2)])
        }
        let data = gif.finished()
        let start = ContinuousClock.now
        gifExpectError(.imageTooLarge) { try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 64))) }
        gifExpectError(.imageTooLarge) { try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 64))) }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func moreFramesThanTheLimitHasPixelsStopTheScanEarly() {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        for _ in 0..<5_000 {
            gif.image(width: 1, height: 1, indices: [0])
        }
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1_000
        options.thumbnailPixelSize = PixelSize(square: 1)
        let data = gif.finished()
        gifExpectError(.imageTooLarge) { try coder.decode(data, options: options) }
    }

    @Test func everyFrameCostsAtLeast64PixelsOfTheBudget() throws {
        // 1 x 1 frames: 10 fit in a limit of 640 pixels, 11 do not, however small their pixels are.
        func animation(frames: Int) -> Data {
            var gif = GIFBuilder(width: 1, height: 1, colors: palette)
            for _ in 0..<frames { gif.image(width: 1, height: 1, indices: [1]) }
            return gif.finished()
        }
        var options = ImageDecodeOptions()
        options.maxPixelCount = 640
        #expect(try coder.decode(animation(frames: 10), options: options).frames.count == 10)
        gifExpectError(.imageTooLarge) { try coder.decode(animation(frames: 11), options: options) }
        #expect(try coder.makeAnimatedImageProvider(for: animation(frames: 10), options: options).frameCount == 10)
        gifExpectError(.imageTooLarge) { try coder.makeAnimatedImageProvider(for: animation(frames: 11), options: options) }
    }

    @Test func tensOfThousandsOfUnchangingFramesShareOneBuffer() throws {
        // The first frame fills the 4 x 4 canvas; the 20 000 after it lie wholly outside and change nothing.
        var gif = GIFBuilder(width: 4, height: 4, colors: palette)
        gif.loop(0)
        gif.image(width: 4, height: 4, indices: [UInt8](repeating: 2, count: 16))
        for _ in 0..<20_000 {
            gif.control(delay: 5)
            gif.image(x: 100, y: 0, width: 1, height: 1, indices: [0])
        }
        let data = gif.finished()
        // Over the default frame limit; allowed when the caller lifts it.
        gifExpectError(.imageTooLarge) { try coder.decode(data) }
        let image = try coder.decode(data, options: ImageDecodeOptions(maxFrameCount: 0))
        #expect(image.frames.count == 20_001)
        #expect(image.uniqueFrameCount == 1)
        #expect(image.memoryCost == 4 * 4 * 4)
        #expect(image.frames[20_000].pixels[x: 3, y: 3] == .blue)
        #expect(image.frames[1].duration == 0.05)
    }

    @Test func frameMuchLargerThanTheCanvasIsBoundedByThePixelLimit() {
        // A 1 x 1 canvas with a 65535 x 65535 frame: decoding that frame is 4 gigapixels of work.
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        gif.rawImage(width: 65535, height: 65535, data: [2, 1, 0x04, 0])
        let data = gif.finished()
        gifExpectError(.imageTooLarge) { try coder.decode(data) }
    }

    @Test func emptyLogicalScreenIsBadData() {
        var gif = GIFBuilder(width: 0, height: 4, colors: palette)
        gif.image(width: 1, height: 1, indices: [0])
        let data = gif.finished()
        gifExpectError(.badImageData) { try coder.decode(data) }
    }

    @Test func fileWithoutImagesIsBadData() {
        let data = GIFBuilder(width: 4, height: 4, colors: palette).finished()
        gifExpectError(.badImageData) { try coder.decode(data) }
        gifExpectError(.badImageData) { try coder.info(for: data) }
    }

    @Test func emptyFramesCountAndLeaveTheCanvas() throws {
        var gif = GIFBuilder(width: 2, height: 1, colors: palette)
        gif.image(width: 2, height: 1, indices: [0, 1])
        gif.rawImage(width: 0, height: 0, data: [2, 1, 0x04, 0])
        let image = try coder.decode(gif.finished())
        #expect(image.frames.count == 2)
        #expect(image.frames[1].pixels === image.frames[0].pixels)
    }
}
