#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Progressive decoding of JPEG data that arrives in pieces.
@Suite("JPEG incremental decoding")
struct JPEGIncrementalTests {
    let coder = JPEGCoder()

    /// Feeds `data` in prefixes of `step` bytes and returns the images after each step.
    static func feed(_ data: Data, step: Int, to decoder: any IncrementalImageDecoding) -> [Image?] {
        WebPIncrementalTests.feed(data, step: step, to: decoder)
    }

    /// The partial images among `images`, each distinct one once: an image asked for again without new pixels
    /// (the same object), or a scan that changed no pixel (a flat colour's detail), is left out.
    static func distinctPartials(_ images: [Image?]) -> [Image] {
        var result: [Image] = []
        for case let image? in images where image.isIncremental {
            if let last = result.last, last.pixels === image.pixels || last.pixels == image.pixels { continue }
            result.append(image)
        }
        return result
    }

    /// The number of rows from the top whose first and last pixels are opaque: the rows a partial image of a
    /// baseline file has decoded (the rest are transparent).
    static func opaqueRows(_ image: Image) -> Int {
        var rows = 0
        while rows < image.height, image.pixels[x: 0, y: rows].alpha == 255,
              image.pixels[x: image.width - 1, y: rows].alpha == 255 {
            rows += 1
        }
        return rows
    }

    /// The mean absolute difference of the colour channels of two images of one size.
    static func meanDifference(_ a: Image, _ b: Image) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixels[x: x, y: y]
                let q = b.pixels[x: x, y: y]
                total += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green))
                total += abs(Int(p.blue) - Int(q.blue))
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }

    @Test("recognises the start of a JPEG download")
    func canDecodeIncrementally() {
        let data = JPEGFixture.data("photo")
        #expect(coder.canDecodeIncrementally(data.prefix(2)))
        #expect(coder.canDecodeIncrementally(data))
        #expect(coder.canDecodeIncrementally(data.dropFirst(0)))
        #expect(!coder.canDecodeIncrementally(data.prefix(1)))
        #expect(!coder.canDecodeIncrementally(Data()))
        #expect(!coder.canDecodeIncrementally(Fixtures.data("source/quad.png")))
    }

    @Test("a progressive file gives whole frames of growing quality, then the one-shot decode")
    func progressiveQuality() throws {
        let data = JPEGFixture.data("quad-progressive")
        let expected = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        #expect(decoder.currentImage() == nil)
        let images = Self.feed(data, step: 24, to: decoder)
        #expect(images.first! == nil, "no scan is complete after the first bytes")

        let partials = Self.distinctPartials(images)
        #expect(partials.count >= 3, "expected several partial images, got \(partials.count)")
        for image in partials {
            #expect(image.pixelSize == PixelSize(width: 64, height: 48))
            #expect(!image.hasAlpha, "a scan gives the whole frame")
            #expect(image.format == .jpeg)
            #expect(image.pixels.isOpaque)
        }
        let differences = partials.map { Self.meanDifference($0, expected) }
        #expect(zip(differences, differences.dropFirst()).allSatisfy { $0 > $1 }, "differences: \(differences)")
        #expect(differences.first! > 1, "the first scan is coarse: \(differences)")

        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.format == .jpeg)
        #expect(final.pixels == expected.pixels)
        // Nothing changes after the end.
        decoder.update(data, isFinished: true)
        #expect(decoder.currentImage()?.pixels === final.pixels)
    }

    @Test("a baseline file gives growing numbers of rows, each final, then the one-shot decode")
    func baselineRows() throws {
        let data = JPEGFixture.data("photo")
        let expected = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 700, to: decoder)

        let partials = Self.distinctPartials(images)
        let rows = partials.map(Self.opaqueRows)
        #expect(partials.count >= 3, "expected several partial images, got \(partials.count)")
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0 < $1 }, "rows decoded: \(rows)")
        #expect(rows.allSatisfy { $0 > 0 && $0 < 240 }, "rows decoded: \(rows)")
        for (image, decoded) in zip(partials, rows) {
            #expect(image.pixelSize == PixelSize(width: 320, height: 240))
            #expect(image.hasAlpha)
            #expect(image.pixels[x: 160, y: 239] == .clear)
            // Rows libjpeg has emitted are final, bit for bit (it emits a row once the rows its upsampling
            // needs have arrived).
            for y in stride(from: 0, to: decoded, by: 5) {
                for x in stride(from: 0, to: 320, by: 11) {
                    #expect(image.pixels[x: x, y: y] == expected.pixels[x: x, y: y], "(\(x), \(y))")
                }
            }
        }

        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(!final.hasAlpha)
        #expect(final.pixels == expected.pixels)
    }

    @Test(
        "partial images have the thumbnail size of the final image",
        arguments: [
            ("photo", 80, PixelSize(width: 80, height: 60)),
            ("quad-progressive", 16, PixelSize(width: 16, height: 12)),
        ]
    )
    func thumbnail(name: String, side: Int, size: PixelSize) throws {
        let data = JPEGFixture.data(name)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: side)
        options.scaleFactor = 2
        let decoder = coder.makeIncrementalDecoder(options: options)
        let images = Self.feed(data, step: 100, to: decoder)
        let partials = Self.distinctPartials(images)
        #expect(!partials.isEmpty)
        #expect(images.compactMap { $0 }.allSatisfy { $0.pixelSize == size && $0.scale == 2 })
        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.pixels == (try coder.decode(data, options: options)).pixels)
    }

    @Test("a scale-down limit and the EXIF orientation apply to partial images as to the final one")
    func scaleDownAndOrientation() throws {
        var limited = ImageDecodeOptions()
        limited.scaleDownLimitBytes = 100 * 75 * 4
        let photo = JPEGFixture.data("photo")
        let expected = try coder.decode(photo, options: limited)
        let reduced = Self.feed(photo, step: 500, to: coder.makeIncrementalDecoder(options: limited))
        #expect(Self.distinctPartials(reduced).count >= 2)
        #expect(reduced.compactMap { $0 }.allSatisfy { $0.pixelSize == expected.pixelSize })
        #expect(reduced.last!?.pixels == expected.pixels)

        // Orientation 6: stored 48 x 64, upright 64 x 48; the decoded rows become the right-hand columns.
        let turned = JPEGFixture.data("orient-6")
        for keeps in [false, true] {
            var options = ImageDecodeOptions()
            options.keepsOriginalOrientation = keeps
            let oneShot = try coder.decode(turned, options: options)
            let images = Self.feed(turned, step: 1, to: coder.makeIncrementalDecoder(options: options))
            let partials = Self.distinctPartials(images)
            #expect(!partials.isEmpty)
            for image in partials {
                #expect(image.pixelSize == oneShot.pixelSize)
                #expect(image.orientation == oneShot.orientation)
            }
            #expect(images.last!?.pixels == oneShot.pixels)
        }
    }

    @Test("one byte at a time", arguments: ["quad-progressive", "quad-420", "gray"])
    func byteAtATime(name: String) throws {
        let data = JPEGFixture.data(name)
        let expected = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 1, to: decoder)
        #expect(images.dropLast().allSatisfy { $0 == nil || $0!.isIncremental })
        let partials = Self.distinctPartials(images)
        #expect(!partials.isEmpty)
        for image in partials {
            #expect(image.pixelSize == expected.pixelSize)
            // Grey sources come out as RGBA too.
            let pixel = image.pixels[x: 0, y: 0]
            if name == "gray" { #expect(pixel.red == pixel.green && pixel.green == pixel.blue) }
        }
        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.pixels == expected.pixels)
    }

    @Test("CMYK files give no partial images, then the one-shot decode")
    func cmyk() throws {
        for name in ["cmyk-adobe", "cmyk-adobe-ycck", "cmyk-plain"] {
            let data = JPEGFixture.data(name)
            let images = Self.feed(data, step: 20, to: coder.makeIncrementalDecoder(options: ImageDecodeOptions()))
            #expect(images.dropLast().allSatisfy { $0 == nil }, "\(name)")
            #expect(images.last!?.pixels == (try coder.decode(data)).pixels, "\(name)")
        }
    }

    @Test("images over the pixel limit give no partial images, as the one-shot decode gives no image")
    func pixelLimit() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1200
        for name in ["photo", "quad-progressive"] {
            let images = Self.feed(JPEGFixture.data(name), step: 50, to: coder.makeIncrementalDecoder(options: options))
            #expect(images.allSatisfy { $0 == nil }, "\(name)")
        }
        // With a thumbnail, a baseline file is decoded at 1/8 (40 x 30, within the limit), as the one-shot
        // decode does; a progressive file over the limit is still refused, since libjpeg would hold all its
        // coefficients.
        options.maxPixelCount = 5000
        options.thumbnailPixelSize = PixelSize(square: 40)
        let photo = JPEGFixture.data("photo")
        let reduced = Self.feed(photo, step: 500, to: coder.makeIncrementalDecoder(options: options))
        #expect(Self.distinctPartials(reduced).count >= 3)
        #expect(reduced.compactMap { $0 }.allSatisfy { $0.pixelSize == PixelSize(width: 40, height: 30) })
        let oneShot = try #require(try? coder.decode(photo, options: options))
        #expect(reduced.last!?.pixels == oneShot.pixels)

        options.maxPixelCount = 1200
        options.thumbnailPixelSize = PixelSize(square: 8)
        let data = JPEGFixture.data("quad-progressive")
        let progressive = Self.feed(data, step: 50, to: coder.makeIncrementalDecoder(options: options))
        #expect(progressive.allSatisfy { $0 == nil })
        #expect((try? coder.decode(data, options: options)) == nil)
    }

    @Test("truncated downloads keep a partial image marked incremental, or none")
    func truncated() throws {
        for name in ["photo", "quad-progressive", "quad-420"] {
            let data = JPEGFixture.data(name)
            let size = try coder.decode(data).pixelSize
            for cut in CorruptData.truncations(of: data, dense: 40, count: 24) where cut.count < data.count {
                let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
                decoder.update(cut.prefix(cut.count / 2), isFinished: false)
                decoder.update(cut, isFinished: true)
                if let image = decoder.currentImage() {
                    #expect(image.isIncremental, "\(name) cut at \(cut.count)")
                    #expect(image.pixelSize == size, "\(name) cut at \(cut.count)")
                }
                // Later updates change nothing.
                decoder.update(data, isFinished: true)
                #expect(decoder.currentImage()?.isIncremental ?? true, "\(name) cut at \(cut.count)")
            }
        }
        // Cut well into the scans, the missing part comes out as libjpeg shows it: the whole frame, no alpha.
        let data = JPEGFixture.data("photo")
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(data.count / 2), isFinished: true)
        let image = try #require(decoder.currentImage())
        #expect(image.isIncremental)
        #expect(!image.hasAlpha)
        #expect(image.pixels.isOpaque)
    }

    @Test("damaged and foreign data never crash, and give partial images or the one-shot result")
    func damaged() {
        let foreign = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        _ = Self.feed(Fixtures.data("source/quad.png"), step: 30, to: foreign)
        #expect(foreign.currentImage() == nil)

        let noise = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        _ = Self.feed(Data([0xFF, 0xD8]) + CorruptData.randomBytes(count: 3000, seed: 3), step: 100, to: noise)
        #expect(noise.currentImage() == nil)

        for name in ["photo", "quad-progressive"] {
            let data = JPEGFixture.data(name)
            let flips = CorruptData.byteFlips(of: data, count: 60, seed: 11)
            for (i, flipped) in flips.enumerated() {
                let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
                let images = Self.feed(flipped, step: 97, to: decoder)
                #expect(images.dropLast().allSatisfy { $0?.isIncremental ?? true }, "\(name) flip \(i)")
                guard let final = images.last!, !final.isIncremental else { continue }
                #expect(final.pixels == (try? coder.decode(flipped))?.pixels, "\(name) flip \(i)")
            }
        }
    }

    @Test("a progressive file with more scans than TurboJPEG allows gives only partial images, without a crash")
    func tooManyScans() throws {
        // The last scan (a refinement) repeated 600 times before the end marker: libjpeg only warns about it.
        let data = JPEGFixture.data("quad-progressive")
        let bytes = [UInt8](data)
        let end = bytes.count - 2
        #expect(bytes[end...] == [0xFF, 0xD9])
        let lastScan = try #require((0..<end - 1).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let scans = [[UInt8]](repeating: Array(bytes[lastScan..<end]), count: 600).joined()
        let repeated = Data(bytes[..<end] + Array(scans) + [0xFF, 0xD9])
        #expect((try? coder.decode(repeated)) == nil, "TurboJPEG refuses over 500 scans")

        let images = Self.feed(repeated, step: 400, to: coder.makeIncrementalDecoder(options: ImageDecodeOptions()))
        #expect(!Self.distinctPartials(images).isEmpty)
        #expect(images.allSatisfy { $0?.isIncremental ?? true })
        #expect(images.last!?.pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test("a decoder released mid-stream frees everything")
    func releasedMidStream() {
        weak var released: (any IncrementalImageDecoding)?
        for name in ["photo", "quad-progressive", "cmyk-adobe"] {
            let data = JPEGFixture.data(name)
            for cut in stride(from: 0, to: data.count, by: max(1, data.count / 7)) {
                do {
                    let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
                    released = decoder
                    decoder.update(data.prefix(cut), isFinished: false)
                    _ = decoder.currentImage()
                }
                #expect(released == nil, "\(name) released after \(cut) bytes")
            }
        }
    }
}
