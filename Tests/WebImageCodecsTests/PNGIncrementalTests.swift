#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Progressive decoding of PNG data that arrives in pieces: rows of plain images, Adam7 passes of interlaced ones.
@Suite("PNG incremental decoding")
struct PNGIncrementalTests {
    let coder = PNGCoder()

    /// Feeds `data` in prefixes of `step` bytes and returns the images after each step.
    static func feed(_ data: Data, step: Int, to decoder: any IncrementalImageDecoding) -> [Image?] {
        WebPIncrementalTests.feed(data, step: step, to: decoder)
    }

    /// The partial images of `images` that differ from the one before them.
    static func distinctPartials(_ images: [Image?]) -> [Image] {
        var result: [Image] = []
        for case let image? in images where image.isIncremental {
            if let last = result.last, last.pixels == image.pixels { continue }
            result.append(image)
        }
        return result
    }

    /// The rows of `pixels` as packed RGBA values.
    static func rows(_ pixels: PixelBuffer) -> [[UInt32]] {
        pixels.withUnsafeBytes { bytes in
            (0..<pixels.height).map { y in
                (0..<pixels.width).map { x in bytes.load(fromByteOffset: y * pixels.bytesPerRow + x * 4, as: UInt32.self) }
            }
        }
    }

    /// The mean absolute difference of every channel of two images of one size.
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x: x, y: y]
                let q = b[x: x, y: y]
                total += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green))
                total += abs(Int(p.blue) - Int(q.blue)) + abs(Int(p.alpha) - Int(q.alpha))
            }
        }
        return Double(total) / Double(a.width * a.height * 4)
    }

    /// Adam7's passes: where each starts, its step, and the block each of its pixels stands for until later
    /// passes come.
    static let adam7: [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)] = [
        (0, 0, 8, 8, 8, 8), (4, 0, 8, 8, 4, 8), (0, 4, 4, 8, 4, 4), (2, 0, 4, 4, 2, 4),
        (0, 2, 2, 4, 2, 2), (1, 0, 2, 2, 1, 2), (0, 1, 1, 2, 1, 1),
    ]

    /// The image as a browser shows it after passes 0 ..< `passes` of `final`: each pixel of a pass fills its
    /// block; pixels no pass has reached yet are transparent.
    static func preview(of final: [[UInt32]], passes: Int) -> [[UInt32]] {
        let height = final.count
        let width = final[0].count
        var result = Array(repeating: Array(repeating: UInt32(0), count: width), count: height)
        for pass in adam7.prefix(passes) {
            for y in 0..<height where y >= pass.y {
                let py = y - (y - pass.y) % pass.dy
                guard y - py < pass.height else { continue }
                for x in 0..<width where x >= pass.x {
                    let px = x - (x - pass.x) % pass.dx
                    if x - px < pass.width { result[y][x] = final[py][px] }
                }
            }
        }
        return result
    }

    /// The pass libpng is in when it has written `partial`: the `q` for which the rows above some row are the
    /// preview after pass `q` and the rest the preview before it; nil when `partial` is no such state.
    static func adam7Pass(of partial: [[UInt32]], previews: [[[UInt32]]]) -> Int? {
        for pass in 0..<7 {
            let after = previews[pass + 1]
            let before = previews[pass]
            let done = partial.indices.first { partial[$0] != after[$0] } ?? partial.count
            let notYet = (partial.indices.last { partial[$0] != before[$0] }).map { $0 + 1 } ?? 0
            if notYet <= done { return pass }
        }
        return nil
    }

    @Test("recognises the start of a PNG download")
    func canDecodeIncrementally() {
        let data = Fixtures.data("png/rgba8.png")
        #expect(coder.canDecodeIncrementally(data.prefix(8)))
        #expect(coder.canDecodeIncrementally(data))
        #expect(!coder.canDecodeIncrementally(data.prefix(7)))
        #expect(!coder.canDecodeIncrementally(Fixtures.data("gif/anim.gif")))
    }

    @Test("an interlaced image arrives as coarse previews that sharpen pass by pass")
    func interlacedPasses() throws {
        let data = Fixtures.data("png/photo-crop-interlaced.png")
        let oneShot = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 300, to: decoder)

        let partials = Self.distinctPartials(images)
        #expect(partials.count >= 3, "expected several partial images, got \(partials.count)")
        let differences = partials.map { Self.meanDifference($0.pixels, oneShot.pixels) }
        #expect(zip(differences, differences.dropFirst()).allSatisfy { $0 > $1 }, "differences to the final image: \(differences)")

        // Every partial image is a browser's Adam7 preview, part way through some pass.
        let finalRows = Self.rows(oneShot.pixels)
        let previews = (0...7).map { Self.preview(of: finalRows, passes: $0) }
        let passes = partials.map { Self.adam7Pass(of: Self.rows($0.pixels), previews: previews) }
        #expect(passes.allSatisfy { $0 != nil }, "passes: \(passes)")
        #expect(Set(passes.compactMap { $0 }).count >= 3, "passes: \(passes)")
        // Once the first pass is done, the whole image is there, coarse: no pixel is left transparent.
        #expect(partials.contains { ($0.pixels.isOpaque) }, "no partial image covers the whole image")
        for image in partials {
            #expect(image.pixelSize == oneShot.pixelSize)
            #expect(image.hasAlpha)
            #expect(image.format == .png)
        }

        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(!final.hasAlpha)
        #expect(final.pixels == oneShot.pixels)
        // Nothing changes after the end.
        decoder.update(data, isFinished: true)
        #expect(decoder.currentImage()?.pixels === final.pixels)
    }

    @Test("an interlaced image fed in small pieces shows every Adam7 pass, in order")
    func everyPass() throws {
        let data = Fixtures.data("png/photo-crop-interlaced.png")
        let oneShot = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 37, to: decoder)

        let finalRows = Self.rows(oneShot.pixels)
        let previews = (0...7).map { Self.preview(of: finalRows, passes: $0) }
        let passes = Self.distinctPartials(images).map { Self.adam7Pass(of: Self.rows($0.pixels), previews: previews) }
        #expect(passes.allSatisfy { $0 != nil }, "passes: \(passes)")
        // 97 x 71 has pixels in all seven passes; each shows, in order.
        #expect(Set(passes.compactMap { $0 }) == Set(0..<7), "passes: \(passes)")
        #expect(passes.compactMap { $0 } == passes.compactMap { $0 }.sorted(), "passes: \(passes)")
        let final = try #require(images.last!)
        #expect(final.pixels == oneShot.pixels)
    }

    @Test("a plain image gains rows from the top, each final")
    func growingRows() throws {
        let data = Fixtures.data("png/photo-crop.png")
        let oneShot = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        // Up to the first IDAT chunk's header there are no rows.
        decoder.update(data.prefix(41), isFinished: false)
        #expect(decoder.currentImage() == nil)
        let images = Self.feed(data, step: 500, to: decoder)

        let partials = Self.distinctPartials(images)
        let rows = partials.map(WebPIncrementalTests.opaqueRows)
        #expect(Set(rows).count >= 3, "rows decoded: \(rows)")
        #expect(rows == rows.sorted(), "rows decoded went down: \(rows)")
        #expect(rows.allSatisfy { $0 > 0 && $0 < oneShot.height })
        let finalRows = Self.rows(oneShot.pixels)
        for image in partials {
            let decoded = WebPIncrementalTests.opaqueRows(image)
            let partialRows = Self.rows(image.pixels)
            #expect(Array(partialRows[..<decoded]) == Array(finalRows[..<decoded]), "rows libpng wrote are final")
            #expect(partialRows[decoded...].allSatisfy { $0.allSatisfy { $0 == 0 } }, "the rest is transparent")
        }

        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.pixels == oneShot.pixels)
    }

    @Test(
        "a small image fed one byte at a time ends as a one-shot decode",
        arguments: ["rgba8.png", "rgba8-interlaced.png", "palette2-trns.png", "gray16.png"]
    )
    func byteByByte(_ file: String) throws {
        let data = Fixtures.data("png/\(file)")
        let oneShot = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 1, to: decoder)
        #expect(images.dropLast().compactMap { $0 }.allSatisfy { $0.isIncremental && $0.pixelSize == oneShot.pixelSize })
        #expect(Self.distinctPartials(images).count >= 2)
        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.hasAlpha == oneShot.hasAlpha)
        #expect(final.pixels == oneShot.pixels)
    }

    @Test("partial images have the size of a reduced one-shot decode", arguments: ["photo-crop.png", "photo-crop-interlaced.png"])
    func reduced(_ file: String) throws {
        let data = Fixtures.data("png/\(file)")
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(square: 40)
        thumbnail.scaleFactor = 2
        var limited = ImageDecodeOptions()
        limited.scaleDownLimitBytes = 2000 * 4
        for options in [thumbnail, limited] {
            let oneShot = try coder.decode(data, options: options)
            #expect(oneShot.pixelSize != PixelSize(width: 97, height: 71))
            let decoder = coder.makeIncrementalDecoder(options: options)
            let images = Self.feed(data, step: 400, to: decoder)
            let partials = Self.distinctPartials(images)
            #expect(partials.count >= 3)
            #expect(partials.allSatisfy { $0.pixelSize == oneShot.pixelSize && $0.scale == oneShot.scale })
            let final = try #require(images.last!)
            #expect(!final.isIncremental)
            #expect(final.pixels == oneShot.pixels)
        }
    }

    @Test("an APNG shows its default image's rows, then ends animated")
    func animation() throws {
        let data = Fixtures.data("png/apng-apngasm.png")
        let oneShot = try coder.decode(data)
        #expect(oneShot.frames.count > 1)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 20, to: decoder)
        let partials = Self.distinctPartials(images)
        #expect(!partials.isEmpty)
        #expect(partials.allSatisfy { $0.frames.count == 1 && $0.pixelSize == oneShot.pixelSize })
        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.frames.count == oneShot.frames.count)
        #expect(zip(final.frames, oneShot.frames).allSatisfy { $0.pixels == $1.pixels && $0.duration == $1.duration })

        let first = coder.makeIncrementalDecoder(options: ImageDecodeOptions(firstFrameOnly: true))
        first.update(data, isFinished: true)
        #expect(first.currentImage()?.frames.count == 1)
    }

    @Test("an APNG whose default image is not a frame shows nothing until the end")
    func hiddenDefaultImage() throws {
        let data = Fixtures.data("png/apng-hidden-default.png")
        let oneShot = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 10, to: decoder)
        #expect(images.dropLast().allSatisfy { $0 == nil })
        let final = try #require(images.last!)
        #expect(final.frames.count == oneShot.frames.count)
        #expect(final.pixels == oneShot.pixels)
    }

    /// apng-apngasm.png's four frames (the default image the first) have their data end at bytes 157, 246, 335 and
    /// 423; apng-hidden-default.png's two frames, after a default image that is not one, at 197 and 289. A frame is
    /// whole once the header of the chunk after its data has come.
    @Test(
        "with frames on demand, an APNG's partial images are animations of the frames that have come",
        arguments: [
            ("apng-apngasm.png", [(164, 0), (165, 1), (253, 1), (254, 2), (400, 3)]),
            ("apng-hidden-default.png", [(180, 0), (205, 1), (297, 2)]),
        ]
    )
    func growingAnimation(file: String, steps: [(length: Int, frames: Int)]) throws {
        let data = Fixtures.data("png/\(file)")
        let oneShot = try coder.decode(data)
        var options = ImageDecodeOptions()
        options.framesOnDemand = true
        let decoder = coder.makeIncrementalDecoder(options: options)
        for step in steps {
            decoder.update(data.prefix(step.length), isFinished: false)
            let partial = decoder.currentImage()
            #expect((partial?.frameCount ?? 0) == step.frames, "\(file), \(step.length) bytes")
            guard let partial else { continue }
            #expect(partial.isIncremental)
            if step.frames > 1 {
                let animation = try #require(partial.animation, "frames on demand")
                for index in 0..<step.frames {
                    #expect(try animation.frame(at: index) == oneShot.frames[index].pixels, "\(file), frame \(index)")
                }
            } else {
                #expect(partial.pixels == oneShot.frames[0].pixels)
            }
        }
        decoder.update(data, isFinished: true)
        let final = try #require(decoder.currentImage())
        #expect(!final.isIncremental)
        #expect(final.frameCount == oneShot.frameCount)
    }

    @Test("truncated, malformed and oversized downloads")
    func badDownloads() throws {
        let data = Fixtures.data("png/photo-crop-interlaced.png")

        // Cut short: the last partial image stays.
        let truncated = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        truncated.update(data.prefix(data.count / 2), isFinished: false)
        let before = truncated.currentImage()
        truncated.update(data.prefix(data.count / 2), isFinished: true)
        #expect(truncated.currentImage()?.isIncremental == true)
        #expect(truncated.currentImage()?.pixels == before?.pixels)

        // Bytes after IEND change nothing.
        let source = Fixtures.data("png/photo-crop.png")
        let trailing = source + Data(repeating: 0xA5, count: 300)
        let after = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        after.update(source, isFinished: false)
        let whole = try #require(after.currentImage())
        after.update(trailing, isFinished: false)
        #expect(after.currentImage() === whole)
        after.update(trailing, isFinished: true)
        #expect(after.currentImage()?.pixels == (try coder.decode(source)).pixels)

        // Not PNG: never an image.
        let foreign = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        foreign.update(Fixtures.data("gif/anim.gif"), isFinished: false)
        #expect(foreign.currentImage() == nil)
        foreign.update(Fixtures.data("gif/anim.gif"), isFinished: true)
        #expect(foreign.currentImage() == nil)

        // Too few bytes for the header, then finished.
        let short = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        short.update(data.prefix(5), isFinished: false)
        #expect(short.currentImage() == nil)
        short.update(data.prefix(20), isFinished: true)
        #expect(short.currentImage() == nil)

        // Over the pixel limit: the one-shot decode refuses it too.
        var limited = ImageDecodeOptions()
        limited.maxPixelCount = 1000
        let large = coder.makeIncrementalDecoder(options: limited)
        _ = Self.feed(data, step: 1000, to: large)
        #expect(large.currentImage() == nil)

        // Every cut, finished there: no crash, and an image only if it is a partial one of the right size.
        for cut in CorruptData.truncations(of: data, dense: 80, count: 40) {
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            _ = Self.feed(cut, step: 97, to: decoder)
            if let image = decoder.currentImage() {
                #expect(image.isIncremental && image.pixelSize == PixelSize(width: 97, height: 71), "cut at \(cut.count)")
            }
        }

        // Damaged data: libpng stops, and nothing crashes, at any cut.
        for file in ["photo-crop-interlaced.png", "photo-crop.png", "apng-dispose.png"] {
            let source = Fixtures.data("png/\(file)")
            for (i, flipped) in CorruptData.byteFlips(of: source, count: 60, seed: 7).enumerated() {
                let damaged = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
                let images = Self.feed(flipped, step: 211, to: damaged)
                if let final = images.last!, !final.isIncremental {
                    #expect(final.pixels == (try? coder.decode(flipped))?.pixels, "\(file) flip \(i)")
                }
            }
        }
    }
}
