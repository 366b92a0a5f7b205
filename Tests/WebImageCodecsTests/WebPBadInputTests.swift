#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Malformed, truncated, empty and hostile input: every case ends as a typed error, never a crash or a large
/// allocation.
@Suite("WebP bad input")
struct WebPBadInputTests: BadInputSuite {
    let coder = WebPCoder()

    static let stills = ["quad-lossy", "quad-lossless", "quad-alpha-lossy", "quad-semi-lossless", "photo"]
    static let animations = ["anim-img2webp", "anim-gif2webp", "anim-compose"]
    static let all = stills + animations

    @Test("empty and foreign data")
    func emptyAndForeign() {
        for data in [Data(), Data([0x52]), Data("RIFF".utf8), Fixtures.data("source/quad.png"),
                     CorruptData.randomBytes(count: 300, seed: 3)] {
            expectDecodeFails(data, "\(data.count) bytes")
            #expect(throws: WebImageError.self) { try coder.info(for: data) }
            #expect(throws: WebImageError.self) {
                try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
            }
        }
        let error = #expect(throws: WebImageError.self) { try coder.decode(Data()) }
        #expect(error?.code == .badImageData)
        #expect(error?.message.hasPrefix("WEBP:") == true)
    }

    @Test("every truncation fails cleanly", arguments: all)
    func truncations(_ name: String) {
        let data = Fixtures.data("webp/\(name).webp")
        for prefix in CorruptData.truncations(of: data) where prefix.count < data.count {
            expectDecodeFails(prefix, "\(name) cut at \(prefix.count)")
            if name.hasPrefix("anim") {
                #expect(throws: WebImageError.self, "\(name) cut at \(prefix.count)") {
                    try coder.makeAnimatedImageProvider(for: prefix, options: ImageDecodeOptions())
                }
            }
        }
    }

    @Test("flipped bytes in the RIFF header fail cleanly", arguments: all)
    func riffHeaderFlips(_ name: String) {
        let data = Fixtures.data("webp/\(name).webp")
        for (i, flipped) in CorruptData.byteFlips(of: data, in: 0..<12, count: 120).enumerated() {
            expectDecodeFails(flipped, "\(name) flip \(i)")
        }
    }

    @Test("bad chunk sizes fail cleanly", arguments: all)
    func chunkSizes(_ name: String) throws {
        let data = Fixtures.data("webp/\(name).webp")
        let original = try coder.decode(data)
        for chunk in WebPRIFF.chunks(in: data) {
            // Sizes reaching past the data always fail.
            for value in [chunk.size + 1000, 0x7FFF_FFF0, 0xFFFF_FFFF] {
                let changed = WebPRIFF.settingUInt32(value, at: chunk.sizeOffset, in: data)
                expectDecodeFails(changed, "\(name): \(chunk.tag) at \(chunk.sizeOffset) size \(value)")
            }
            // Smaller sizes fail, except that libwebp reads the image data of a simple file (one VP8 or VP8L
            // chunk) up to the end of the file whatever its chunk says: then the image must be the right one.
            for value in [0, 1, chunk.size / 2] where value != chunk.size {
                let changed = WebPRIFF.settingUInt32(value, at: chunk.sizeOffset, in: data)
                do throws(WebImageError) {
                    let image = try coder.decode(changed)
                    #expect(chunk.tag.hasPrefix("VP8") && chunk.sizeOffset + 4 + chunk.size + chunk.size % 2 == data.count,
                            "\(name): \(chunk.tag) at \(chunk.sizeOffset) size \(value) decoded")
                    #expect(image.pixels == original.pixels, "\(name): \(chunk.tag) size \(value) decoded other pixels")
                } catch {
                    #expect(error.code == .badImageData, "\(name): \(chunk.tag) size \(value): \(error)")
                }
            }
        }
        // The RIFF size itself.
        for value in [0, 4, data.count, data.count + 100, 0xFFFF_FFFF] {
            expectDecodeFails(WebPRIFF.settingUInt32(value, at: 4, in: data), "\(name): RIFF size \(value)")
        }
    }

    @Test("random damage anywhere never crashes", arguments: all)
    func randomFlips(_ name: String) {
        // A damaged canvas size can be anything up to 2^24 a side; the pixel limit keeps it bounded.
        expectDamageDecodesOrFailsCleanly(Fixtures.data("webp/\(name).webp"), name)
    }

    @Test("headers declaring 16383 x 16383 over tiny data are refused without a large allocation")
    func hugeCanvas() throws {
        let side = 16383
        let vp8x = WebPRIFF.vp8x(flags: 0, width: side, height: side)
        // A lossless header: signature, then width - 1 and height - 1 in 14 bits each.
        let lossless = WebPRIFF.file([vp8x, WebPRIFF.chunk("VP8L", [0x2F] + WebPRIFF.le32((side - 1) | (side - 1) << 14) + [0, 0, 0, 0])])
        // A lossy key frame header: frame tag (first partition of 10 bytes), start code, width, height.
        let lossy = WebPRIFF.file([vp8x, WebPRIFF.chunk("VP8 ", [0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A]
            + WebPRIFF.le16(side) + WebPRIFF.le16(side) + [UInt8](repeating: 0, count: 16))])
        let tiny = try WebPRIFF.losslessImage(PixelBuffer(width: 1, height: 1, color: .red))
        let animated = WebPRIFF.animation(width: side, height: side, frames: [
            WebPRIFF.frame(tiny, width: 1, height: 1, duration: 100),
        ])

        for (name, data) in [("lossless", lossless), ("lossy", lossy), ("animated", animated)] {
            let info = try coder.info(for: data)
            #expect(info.pixelSize == PixelSize(width: side, height: side), "\(name)")
            expectDecodeFails(data, "\(name)", codes: [.imageTooLarge])
            expectDecodeFails(data, "\(name) first frame", codes: [.imageTooLarge], options: ImageDecodeOptions(firstFrameOnly: true))
            let error = #expect(throws: WebImageError.self, "\(name)") {
                try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
            }
            #expect(error?.code == .imageTooLarge, "\(name)")
            let incremental = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            incremental.update(data, isFinished: true)
            #expect(incremental.currentImage() == nil, "\(name)")
        }

        // Asked for a thumbnail: the opaque lossy image is decoded reduced (libwebp holds a few rows) and fails on
        // its missing data; the lossless image would make libwebp hold the full image, the animation its full
        // canvas: both over the limit.
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(square: 64)
        expectDecodeFails(lossy, "lossy thumbnail", codes: [.badImageData], options: thumbnail)
        expectDecodeFails(lossless, "lossless thumbnail", codes: [.imageTooLarge], options: thumbnail)
        expectDecodeFails(animated, "animated thumbnail", codes: [.imageTooLarge], options: thumbnail)
        let incremental = coder.makeIncrementalDecoder(options: thumbnail)
        incremental.update(lossy, isFinished: true)
        #expect(incremental.currentImage() == nil)
    }

    @Test("an animation with tens of thousands of frames stays bounded")
    func manyFrames() throws {
        let tiny = try WebPRIFF.losslessImage(PixelBuffer(width: 1, height: 1, color: .red))
        let frame = WebPRIFF.frame(tiny, width: 1, height: 1, duration: 1)

        // Over the frame limit: refused from the frame count, before any frame is read.
        let hostile = WebPRIFF.animation(width: 1, height: 1, frames: Array(repeating: frame, count: 40_000))
        #expect(try coder.info(for: hostile).frameCount == 40_000)
        let error = #expect(throws: WebImageError.self) { try coder.decode(hostile) }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("40000 frames") == true)
        let provider = #expect(throws: WebImageError.self) {
            try coder.makeAnimatedImageProvider(for: hostile, options: ImageDecodeOptions())
        }
        #expect(provider?.code == .imageTooLarge)
        // The first frame alone is always allowed.
        let first = try coder.decode(hostile, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        expectPixels(first.pixels, [ExpectedPixel(x: 0, y: 0, .red)])
        let incremental = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        incremental.update(hostile, isFinished: true)
        #expect(incremental.currentImage() == nil)

        // At the limit: decoded, and since every frame leaves the same canvas, one buffer serves them all.
        let count = ImageDecodeOptions.defaultMaxFrameCount
        let allowed = WebPRIFF.animation(width: 1, height: 1, frames: Array(repeating: frame, count: count))
        let image = try coder.decode(allowed)
        #expect(image.frames.count == count)
        #expect(image.uniqueFrameCount == 1)
        #expect(image.memoryCost == 4)
        #expect(image.frames[count - 1].duration == 0.1)

        // A stricter limit refuses it.
        #expect(throws: WebImageError.self) { try coder.decode(allowed, options: ImageDecodeOptions(maxFrameCount: 100)) }

        // On a larger canvas the frames are over the pixel limit: refused before any frame is decoded.
        let large = WebPRIFF.animation(width: 128, height: 128, frames: Array(repeating: frame, count: count))
        expectDecodeFails(large, "128 x 128 x \(count)", codes: [.imageTooLarge])
        let lazy = try coder.makeAnimatedImageProvider(for: large, options: ImageDecodeOptions())
        #expect(lazy.frameCount == count)
        expectPixels(try lazy.frame(at: 0), [ExpectedPixel(x: 0, y: 0, .red), ExpectedPixel(x: 1, y: 1, .clear)])
    }
}

/// Builds and edits WebP containers byte by byte.
enum WebPRIFF {
    struct Chunk {
        var tag: String
        var sizeOffset: Int
        var size: Int
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    static func le24(_ value: Int) -> [UInt8] { le16(value) + [UInt8((value >> 16) & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le24(value) + [UInt8((value >> 24) & 0xFF)] }

    /// A chunk: tag, little-endian size, payload, padding to an even length.
    static func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
        Array(tag.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    /// A RIFF file of type WEBP holding `chunks`.
    static func file(_ chunks: [[UInt8]]) -> Data {
        var body: [UInt8] = Array("WEBP".utf8)
        body.reserveCapacity(4 + chunks.reduce(0) { $0 + $1.count })
        for chunk in chunks { body += chunk }
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    /// The VP8L chunk of a lossless encoding of `pixels`.
    static func losslessImage(_ pixels: PixelBuffer) throws -> [UInt8] {
        let image = Image(pixels: pixels, hasAlpha: true)
        let bytes = [UInt8](try WebPCoder().encode(image, as: .webp, options: ImageEncodeOptions(lossless: true)))
        precondition(Array(bytes[12..<16]) == Array("VP8L".utf8), "a lossless still is a simple VP8L file")
        return Array(bytes[12...])
    }

    /// A VP8X chunk (flags: 0x02 animation, 0x10 alpha).
    static func vp8x(flags: UInt8, width: Int, height: Int) -> [UInt8] {
        chunk("VP8X", [flags, 0, 0, 0] + le24(width - 1) + le24(height - 1))
    }

    /// An ANMF chunk around an image chunk.
    static func frame(
        _ image: [UInt8],
        x: Int = 0,
        y: Int = 0,
        width: Int,
        height: Int,
        duration: Int,
        disposeToBackground: Bool = false,
        blend: Bool = true
    ) -> [UInt8] {
        let flags = UInt8((blend ? 0 : 2) | (disposeToBackground ? 1 : 0))
        return chunk("ANMF", le24(x / 2) + le24(y / 2) + le24(width - 1) + le24(height - 1) + le24(duration) + [flags] + image)
    }

    /// An animated file with an alpha flag, a transparent background and `frames` (ANMF chunks).
    static func animation(width: Int, height: Int, loopCount: Int = 0, frames: [[UInt8]]) -> Data {
        file([vp8x(flags: 0x12, width: width, height: height), chunk("ANIM", [0, 0, 0, 0] + le16(loopCount))] + frames)
    }

    /// The top-level chunks of a file, and the chunks nested in its ANMF chunks.
    static func chunks(in data: Data) -> [Chunk] {
        let bytes = [UInt8](data)
        func read(from start: Int, to end: Int) -> [Chunk] {
            var result: [Chunk] = []
            var offset = start
            while offset + 8 <= end {
                let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
                let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                    | Int(bytes[offset + 7]) << 24
                result.append(Chunk(tag: tag, sizeOffset: offset + 4, size: size))
                if tag == "ANMF" {
                    result += read(from: offset + 8 + 16, to: min(end, offset + 8 + size))
                }
                offset += 8 + size + size % 2
            }
            return result
        }
        return read(from: 12, to: bytes.count)
    }

    /// A copy of `data` with the four bytes at `offset` set to `value`, little-endian.
    static func settingUInt32(_ value: Int, at offset: Int, in data: Data) -> Data {
        CorruptData.settingUInt32BigEndian(UInt32(truncatingIfNeeded: value).byteSwapped, at: offset, in: data)
    }
}
