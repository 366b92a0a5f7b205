#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Progressive decoding of data that arrives in pieces.
@Suite("WebP incremental decoding")
struct WebPIncrementalTests {
    let coder = WebPCoder()

    /// The number of rows from the top whose first pixel is opaque: the rows a partial image of an opaque
    /// source has decoded (the rest are transparent).
    static func opaqueRows(_ image: Image) -> Int {
        var rows = 0
        while rows < image.height, image.pixels[x: 0, y: rows].alpha == 255, image.pixels[x: image.width - 1, y: rows].alpha == 255 {
            rows += 1
        }
        return rows
    }

    /// Feeds `data` in prefixes of `step` bytes and returns the images after each step.
    static func feed(_ data: Data, step: Int, to decoder: any IncrementalImageDecoding) -> [Image?] {
        var images: [Image?] = []
        var end = 0
        while end < data.count {
            end = min(data.count, end + step)
            decoder.update(data.prefix(end), isFinished: end == data.count)
            images.append(decoder.currentImage())
        }
        return images
    }

    @Test("recognises the start of a WebP download")
    func canDecodeIncrementally() {
        let data = Fixtures.data("webp/photo.webp")
        #expect(coder.canDecodeIncrementally(data.prefix(12)))
        #expect(coder.canDecodeIncrementally(data))
        #expect(!coder.canDecodeIncrementally(data.prefix(8)))
        #expect(!coder.canDecodeIncrementally(Fixtures.data("source/quad.png")))
    }

    @Test("partial images gain rows, and the last one equals a normal decode")
    func growingPrefixes() throws {
        let data = Fixtures.data("webp/photo.webp")
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        #expect(decoder.currentImage() == nil)
        let images = Self.feed(data, step: 200, to: decoder)

        let partial = images.compactMap { $0 }.filter(\.isIncremental)
        #expect(partial.count >= 3, "expected several partial images, got \(partial.count)")
        let rows = partial.map(Self.opaqueRows)
        #expect(rows == rows.sorted(), "rows decoded went down: \(rows)")
        #expect(Set(rows).count >= 3, "rows decoded: \(rows)")
        #expect(rows.allSatisfy { $0 > 0 && $0 < 240 })
        for image in partial {
            #expect(image.pixelSize == PixelSize(width: 320, height: 240))
            #expect(image.hasAlpha)
            let decoded = Self.opaqueRows(image)
            #expect(image.pixels[x: 160, y: 239].alpha == 0)
            #expect(image.pixels[x: 160, y: max(0, decoded - 1)].alpha == 255)
        }
        // The first images come before any row was decoded.
        #expect(images.first! == nil)

        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(!final.hasAlpha)
        #expect(final.format == .webp)
        #expect(final.pixels == (try coder.decode(data)).pixels)
        // Nothing changes after the end.
        decoder.update(data, isFinished: true)
        #expect(decoder.currentImage()?.pixels === final.pixels)
    }

    @Test("decodes a lossless image incrementally too")
    func lossless() throws {
        let data = Fixtures.data("webp/quad-alpha-lossless.webp")
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 7, to: decoder)
        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.hasAlpha)
        #expect(final.pixels == (try coder.decode(data)).pixels)
    }

    @Test("a partial image has rows whose colours match the final image")
    func partialContent() throws {
        let data = Fixtures.data("webp/photo.webp")
        let full = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(data.count * 2 / 3), isFinished: false)
        let partial = try #require(decoder.currentImage())
        #expect(partial.isIncremental)
        let rows = Self.opaqueRows(partial)
        #expect(rows > 0 && rows < 240)
        // Rows libwebp has emitted are final, bit for bit.
        for y in stride(from: 0, to: rows, by: 7) {
            for x in stride(from: 0, to: 320, by: 13) {
                #expect(partial.pixels[x: x, y: y] == full.pixels[x: x, y: y], "(\(x), \(y))")
            }
        }
    }

    @Test("applies thumbnails while decoding incrementally")
    func thumbnail() throws {
        let data = Fixtures.data("webp/photo.webp")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 80)
        options.scaleFactor = 2
        let decoder = coder.makeIncrementalDecoder(options: options)
        let images = Self.feed(data, step: 500, to: decoder)
        #expect(images.compactMap { $0 }.allSatisfy { $0.pixelSize == PixelSize(width: 80, height: 60) && $0.scale == 2 })
        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.pixels == (try coder.decode(data, options: options)).pixels)
    }

    @Test("returns nothing for an animation until the data is finished, then the animation")
    func animation() throws {
        let data = Fixtures.data("webp/anim-compose.webp")
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 40, to: decoder)
        #expect(images.dropLast().allSatisfy { $0 == nil })
        let final = try #require(images.last!)
        #expect(final.frames.count == 4)
        #expect(!final.isIncremental)
        expectPixels(final.frames[2].pixels, WebPAnimationTests.composeExpectations[2])

        let first = coder.makeIncrementalDecoder(options: ImageDecodeOptions(firstFrameOnly: true))
        first.update(data, isFinished: true)
        #expect(first.currentImage()?.frames.count == 1)
    }

    /// anim-compose.webp (260 bytes) has four frames, whose ANMF chunks end at bytes 98, 154, 210 and 260.
    @Test("with frames on demand, an animation's partial images are animations of the frames that have come")
    func growingAnimation() throws {
        let data = Fixtures.data("webp/anim-compose.webp")
        var options = ImageDecodeOptions()
        options.framesOnDemand = true
        let decoder = coder.makeIncrementalDecoder(options: options)
        decoder.update(data.prefix(97), isFinished: false)
        #expect(decoder.currentImage() == nil, "no frame has fully come")
        for (length, frames) in [(98, 1), (153, 1), (154, 2), (230, 3)] {
            decoder.update(data.prefix(length), isFinished: false)
            let partial = try #require(decoder.currentImage(), "\(length) bytes")
            #expect(partial.isIncremental)
            #expect(partial.frameCount == frames, "\(length) bytes")
            if frames > 1 {
                let animation = try #require(partial.animation)
                expectPixels(try animation.frame(at: frames - 1), WebPAnimationTests.composeExpectations[frames - 1])
            }
        }
        decoder.update(data, isFinished: true)
        let final = try #require(decoder.currentImage())
        #expect(!final.isIncremental)
        #expect(final.frameCount == 4)
    }

    @Test("truncated, malformed and oversized downloads")
    func badDownloads() {
        let data = Fixtures.data("webp/photo.webp")

        // Cut short: the last partial image stays.
        let truncated = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        truncated.update(data.prefix(data.count / 2), isFinished: true)
        let partial = truncated.currentImage()
        #expect(partial?.isIncremental == true)

        // Not WebP: never an image.
        let foreign = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        foreign.update(Fixtures.data("source/quad.png"), isFinished: false)
        #expect(foreign.currentImage() == nil)
        foreign.update(Fixtures.data("source/quad.png"), isFinished: true)
        #expect(foreign.currentImage() == nil)

        // Too few bytes for the headers, then finished.
        let short = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        short.update(data.prefix(5), isFinished: false)
        #expect(short.currentImage() == nil)
        short.update(data.prefix(20), isFinished: true)
        #expect(short.currentImage() == nil)

        // Over the pixel limit.
        var limited = ImageDecodeOptions()
        limited.maxPixelCount = 1000
        let large = coder.makeIncrementalDecoder(options: limited)
        large.update(data, isFinished: true)
        #expect(large.currentImage() == nil)

        // Damaged data: libwebp stops, and nothing crashes, at any cut.
        for (i, flipped) in CorruptData.byteFlips(of: data, in: 20..<400, count: 40, seed: 5).enumerated() {
            let damaged = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            _ = Self.feed(flipped, step: 300, to: damaged)
            if let image = damaged.currentImage() {
                #expect(image.pixelSize == PixelSize(width: 320, height: 240), "flip \(i)")
            }
        }
    }

    /// `data`, a file of one `VP8 ` or `VP8L` chunk, with the chunk's header taken out: the bitstream right after
    /// the RIFF header.
    static func removingChunkHeader(from data: Data) -> Data {
        var bytes = [UInt8](data)
        bytes.removeSubrange(12..<20)
        let riffSize = bytes.count - 8
        for index in 0..<4 { bytes[4 + index] = UInt8(truncatingIfNeeded: riffSize >> (8 * index)) }
        return Data(bytes)
    }

    @Test(
        "a bitstream without its chunk header decodes as in one go, whatever the pieces",
        arguments: ["webp/quad-lossless.webp", "webp/quad-lossy.webp"]
    )
    func bitstreamWithoutChunkHeader(fixture: String) throws {
        let bare = Self.removingChunkHeader(from: Fixtures.data(fixture))
        // libwebp's one-shot decoder reads the bare bitstream; its incremental decoder, given it in pieces, failed.
        let whole = try coder.decode(bare)
        #expect(whole.pixels == (try coder.decode(Fixtures.data(fixture))).pixels)
        for step in [1, 7, bare.count] {
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            let images = Self.feed(bare, step: step, to: decoder)
            let last = try #require(images.last!, "step \(step)")
            #expect(!last.isIncremental, "step \(step)")
            #expect(last.pixels == whole.pixels, "step \(step)")
        }
    }

    @Test("a bitstream that runs past its chunk decodes as in one go, whatever the pieces")
    func bitstreamLongerThanItsChunk() throws {
        // The VP8L chunk claims 8 bytes fewer than its bitstream takes: libwebp's one-shot decoder reads on to the
        // end of the data, its incremental decoder fails at the end of the chunk.
        let understated = Self.adjustingUInt32(at: 16, by: -8, in: Fixtures.data("webp/quad-lossless.webp"))
        let whole = try coder.decode(understated)
        for step in [1, 7, understated.count] {
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            let images = Self.feed(understated, step: step, to: decoder)
            let last = try #require(images.last!, "step \(step)")
            #expect(!last.isIncremental, "step \(step)")
            #expect(last.pixels == whole.pixels, "step \(step)")
        }
    }

    /// A copy of `data` with the little-endian 32-bit value at `offset` changed by `change`.
    static func adjustingUInt32(at offset: Int, by change: Int, in data: Data) -> Data {
        var bytes = [UInt8](data)
        let value = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } + change
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        return Data(bytes)
    }

    @Test("a file shorter than its RIFF size ends as a partial image, as the one-shot decode refuses it")
    func riffSizeOverstated() throws {
        let data = Fixtures.data("webp/quad-alpha-lossy.webp")
        let complete = try coder.decode(data)
        // Every pixel is there; 100 bytes the RIFF header announces are not.
        let short = Self.adjustingUInt32(at: 4, by: 100, in: data)
        let error = #expect(throws: WebImageError.self) { try coder.decode(short) }
        #expect(error?.code == .badImageData)
        for step in [7, 50, short.count] {
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            let images = Self.feed(short, step: step, to: decoder)
            let last = try #require(images.last!, "step \(step)")
            #expect(last.isIncremental, "step \(step)")
            #expect(last.pixels == complete.pixels, "step \(step)")
        }

        // Arriving in full, the same image completes once its last byte is there.
        var padded = short
        padded.append(Data(count: 100))
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(short, isFinished: false)
        #expect(decoder.currentImage()?.isIncremental == true)
        decoder.update(padded, isFinished: true)
        let final = try #require(decoder.currentImage())
        #expect(!final.isIncremental)
        #expect(final.pixels == (try coder.decode(padded)).pixels)
    }

    @Test("a bitstream without its chunk header finishes as the one-shot decode does, however the data came")
    func bitstreamWithoutChunkHeader() throws {
        // A fuzzer's finding: a VP8 bitstream right after the RIFF header, with no chunk header to give its length.
        // libwebp's incremental decoder, given the first 73 bytes first, sized the last partition by them and
        // finished with three quarters of the pixels different from the one-shot decode's.
        // The second has its chunk header, and bytes past the end its RIFF header declares.
        for name in ["bitstream-without-chunk-header", "bytes-past-riff-end"] {
            try expectIncrementalMatchesOneShot(Fixtures.data("webp/\(name).webp"))
        }
    }

    @Test("a file the one-shot decode refuses finishes, at most, as a partial image")
    func refusedFileFinishesPartial() {
        // A fuzzer's finding: the incremental decoder finished with the bytes the RIFF header declares, while the
        // one-shot decode of the whole, bytes past that end included, refuses the file.
        let data = Fixtures.data("webp/one-shot-refuses-past-riff-end.webp")
        #expect(throws: WebImageError.self) { try coder.decode(data) }
        for cut in [0, 40, 100, 140, 150] where cut < data.count {
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            if cut > 0 {
                decoder.update(data.prefix(cut), isFinished: false)
                _ = decoder.currentImage()
            }
            decoder.update(data, isFinished: true)
            #expect(decoder.currentImage()?.isIncremental ?? true, "cut at \(cut)")
        }
    }

    private func expectIncrementalMatchesOneShot(_ data: Data) throws {
        let oneShot = try coder.decode(data)
        for cut in [0, 20, 40, 73, 100, 120, 140, 200] {
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            if cut > 0 {
                decoder.update(data.prefix(cut), isFinished: false)
                _ = decoder.currentImage()
            }
            decoder.update(data, isFinished: true)
            let final = try #require(decoder.currentImage(), "cut at \(cut)")
            #expect(!final.isIncremental, "cut at \(cut)")
            #expect(final.pixels == oneShot.pixels, "cut at \(cut)")
        }
    }
}
