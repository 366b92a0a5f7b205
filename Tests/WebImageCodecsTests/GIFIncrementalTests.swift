#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Progressive decoding of GIF data that arrives in pieces: frames as they complete.
@Suite("GIF incremental decoding")
struct GIFIncrementalTests {
    let coder = GIFCoder()
    let palette: [RGBAColor] = [.red, .green, .blue, .white]

    /// Feeds `data` in prefixes of `step` bytes and returns the images after each step.
    static func feed(_ data: Data, step: Int, to decoder: any IncrementalImageDecoding) -> [Image?] {
        WebPIncrementalTests.feed(data, step: step, to: decoder)
    }

    /// Expects `partial` to hold the first frames of `whole`, pixel for pixel, with their durations.
    static func expectPrefix(_ partial: Image, of whole: Image, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(partial.isIncremental, sourceLocation: sourceLocation)
        #expect(partial.format == .gif, sourceLocation: sourceLocation)
        #expect(partial.frames.count <= whole.frames.count, sourceLocation: sourceLocation)
        #expect(partial.isAnimated == (partial.frames.count > 1), sourceLocation: sourceLocation)
        for (index, (frame, expected)) in zip(partial.frames, whole.frames).enumerated() {
            #expect(frame.pixels == expected.pixels, "frame \(index)", sourceLocation: sourceLocation)
            if partial.isAnimated {
                #expect(frame.duration == expected.duration, "frame \(index)", sourceLocation: sourceLocation)
            }
        }
    }

    /// A 40 x 30 animation of `count` frames, each a different pattern of the palette's colours.
    func stripes(frames count: Int) -> Data {
        var gif = GIFBuilder(width: 40, height: 30, colors: palette)
        gif.loop(2)
        for frame in 0..<count {
            gif.control(delay: 5 + frame)
            let indices = (0..<(40 * 30)).map { UInt8((($0 / 40) / (1 + frame % 7) + frame) % 4) }
            gif.image(width: 40, height: 30, indices: indices)
        }
        return gif.finished()
    }

    @Test("recognises the start of a GIF download")
    func canDecodeIncrementally() {
        let data = Fixtures.data("gif/anim.gif")
        #expect(coder.canDecodeIncrementally(data.prefix(6)))
        #expect(coder.canDecodeIncrementally(data))
        #expect(!coder.canDecodeIncrementally(data.prefix(5)))
        #expect(!coder.canDecodeIncrementally(Fixtures.data("png/rgba8.png")))
    }

    @Test("frames arrive one by one, each equal to the one-shot decode's")
    func framesAsTheyComplete() throws {
        let data = Fixtures.data("gif/anim.gif")
        let oneShot = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        #expect(decoder.currentImage() == nil)
        let images = Self.feed(data, step: 1, to: decoder)

        let partials = images.dropLast().compactMap { $0 }
        var counts: [Int] = []
        for image in partials where counts.last != image.frames.count {
            counts.append(image.frames.count)
        }
        #expect(counts == [1, 2, 3, 4], "frame counts of successive partial images: \(counts)")
        for partial in partials {
            Self.expectPrefix(partial, of: oneShot)
        }
        let animated = try #require(partials.last)
        #expect(animated.loopCount == oneShot.loopCount)
        #expect(!partials[0].isAnimated)

        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.frames.count == oneShot.frames.count)
        #expect(final.loopCount == oneShot.loopCount)
        #expect(zip(final.frames, oneShot.frames).allSatisfy { $0.pixels == $1.pixels && $0.duration == $1.duration })
        // Nothing changes after the end.
        decoder.update(data, isFinished: true)
        #expect(decoder.currentImage() === final)
    }

    @Test(
        "composited frames match the one-shot decode",
        arguments: [
            "anim-local.gif", "anim-noloop.gif", "dispose-background.gif", "dispose-none.gif",
            "dispose-previous.gif", "large-frame.gif", "offset.gif", "outside.gif", "quad-alpha.gif", "photo.gif",
        ]
    )
    func compositing(_ file: String) throws {
        let data = Fixtures.data("gif/\(file)")
        let oneShot = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 9, to: decoder)
        for partial in images.dropLast().compactMap({ $0 }) {
            Self.expectPrefix(partial, of: oneShot)
        }
        // Every frame is complete before the trailer.
        let untilTrailer = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        untilTrailer.update(data.dropLast(), isFinished: false)
        let whole = try #require(untilTrailer.currentImage())
        #expect(whole.frames.count == oneShot.frames.count)
        Self.expectPrefix(whole, of: oneShot)
        let final = try #require(images.last!)
        #expect(!final.isIncremental)
        #expect(final.hasAlpha == oneShot.hasAlpha)
        #expect(zip(final.frames, oneShot.frames).allSatisfy { $0.pixels == $1.pixels })
    }

    @Test("an interlaced still shows nothing until its frame is complete")
    func interlacedStill() throws {
        let data = Fixtures.data("gif/photo-interlaced.gif")
        let oneShot = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 500, to: decoder)
        #expect(images.dropLast(2).allSatisfy { $0 == nil })
        // Without its trailer the frame is complete.
        let untilTrailer = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        untilTrailer.update(data.dropLast(), isFinished: false)
        let partial = try #require(untilTrailer.currentImage())
        #expect(partial.isIncremental && !partial.isAnimated)
        #expect(partial.pixels == oneShot.pixels)
        #expect(try #require(images.last!).pixels == oneShot.pixels)
    }

    @Test("frames already decoded are kept, not decoded again")
    func keptFrames() throws {
        let data = stripes(frames: 24)
        let oneShot = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        var previous: Image?
        var sizes: [Int] = []
        var end = 0
        while end < data.count {
            end = min(data.count, end + 97)
            decoder.update(data.prefix(end), isFinished: false)
            let image = decoder.currentImage()
            // The same data again completes no frame: the very same image comes back.
            decoder.update(data.prefix(end), isFinished: false)
            #expect(decoder.currentImage() === image)
            guard let image else { continue }
            Self.expectPrefix(image, of: oneShot)
            if let previous {
                #expect(image.frames.count >= previous.frames.count)
                // Frames decoded before are the same buffers: they were not decoded again.
                #expect(zip(image.frames, previous.frames).allSatisfy { $0.pixels === $1.pixels })
            }
            if sizes.last != image.frames.count { sizes.append(image.frames.count) }
            previous = image
        }
        #expect(sizes.count >= 10, "frame counts: \(sizes)")
        #expect(previous?.loopCount == 2)
        decoder.update(data, isFinished: true)
        let final = try #require(decoder.currentImage())
        #expect(!final.isIncremental)
        #expect(final.frames.count == 24)
    }

    @Test("with firstFrameOnly, one frame")
    func firstFrameOnly() throws {
        let data = Fixtures.data("gif/anim.gif")
        let options = ImageDecodeOptions(firstFrameOnly: true)
        let oneShot = try coder.decode(data, options: options)
        let decoder = coder.makeIncrementalDecoder(options: options)
        let images = Self.feed(data, step: 3, to: decoder)
        let partials = images.dropLast().compactMap { $0 }
        #expect(!partials.isEmpty)
        #expect(partials.allSatisfy { $0.frames.count == 1 && $0.isIncremental && $0.pixels == oneShot.pixels })
        let final = try #require(images.last!)
        #expect(final.frames.count == 1)
        #expect(!final.isIncremental)
        #expect(final.pixels == oneShot.pixels)
    }

    @Test("partial frames have the size of a reduced one-shot decode")
    func reduced() throws {
        let data = Fixtures.data("gif/anim.gif")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 16)
        options.scaleFactor = 2
        let oneShot = try coder.decode(data, options: options)
        #expect(oneShot.pixelSize == PixelSize(width: 16, height: 12))
        let decoder = coder.makeIncrementalDecoder(options: options)
        let images = Self.feed(data, step: 5, to: decoder)
        let partials = images.dropLast().compactMap { $0 }
        #expect(!partials.isEmpty)
        for partial in partials {
            #expect(partial.pixelSize == oneShot.pixelSize && partial.scale == 2)
            Self.expectPrefix(partial, of: oneShot)
        }
        #expect(try #require(images.last!).frames.map(\.pixels) == oneShot.frames.map(\.pixels))

        // A scale-down limit depends on the frame count: frames shrink as they come, within the limit.
        let many = stripes(frames: 12)
        var limited = ImageDecodeOptions()
        limited.scaleDownLimitBytes = 40 * 30 * 4 * 3
        let limitedOneShot = try coder.decode(many, options: limited)
        let limitedDecoder = coder.makeIncrementalDecoder(options: limited)
        let limitedImages = Self.feed(many, step: 50, to: limitedDecoder)
        let limitedPartials = limitedImages.dropLast().compactMap { $0 }
        #expect(limitedPartials.contains { $0.frames.count > 4 })
        for partial in limitedPartials {
            let bytes = partial.frames.count * partial.pixelSize.pixelCount * 4
            #expect(bytes <= limited.scaleDownLimitBytes!, "\(partial.frames.count) frames of \(partial.pixelSize)")
        }
        #expect(limitedPartials.first?.pixelSize == PixelSize(width: 40, height: 30))
        let final = try #require(limitedImages.last!)
        #expect(final.pixelSize == limitedOneShot.pixelSize)
        #expect(final.frames.map(\.pixels) == limitedOneShot.frames.map(\.pixels))
    }

    @Test("truncated, malformed and oversized downloads")
    func badDownloads() throws {
        let data = Fixtures.data("gif/anim.gif")
        let oneShot = try coder.decode(data)

        // Cut short inside the third frame: the two complete frames stay.
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        var cut = 0
        while cut < data.count, decoder.currentImage()?.frames.count != 2 {
            cut += 1
            decoder.update(data.prefix(cut), isFinished: false)
        }
        // The bytes that completed the second frame, and a few of the third.
        cut += 5
        let truncated = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        truncated.update(data.prefix(cut), isFinished: true)
        let kept = try #require(truncated.currentImage())
        #expect(kept.isIncremental && kept.frames.count == 2)
        Self.expectPrefix(kept, of: oneShot)

        // Not GIF: never an image.
        let foreign = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        foreign.update(Fixtures.data("png/rgba8.png"), isFinished: false)
        #expect(foreign.currentImage() == nil)
        foreign.update(Fixtures.data("png/rgba8.png"), isFinished: true)
        #expect(foreign.currentImage() == nil)

        // Too few bytes for the header, then finished.
        let short = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        short.update(data.prefix(4), isFinished: false)
        #expect(short.currentImage() == nil)
        short.update(data.prefix(12), isFinished: true)
        #expect(short.currentImage() == nil)

        // Over the pixel limit, for the canvas or for the frames so far.
        var limited = ImageDecodeOptions()
        limited.maxPixelCount = 500
        let large = coder.makeIncrementalDecoder(options: limited)
        _ = Self.feed(data, step: 20, to: large)
        #expect(large.currentImage() == nil)
        var tiny = GIFBuilder(width: 1, height: 1, colors: palette)
        for _ in 0..<40 {
            tiny.image(width: 1, height: 1, indices: [0])
        }
        limited.maxPixelCount = 64 * 20
        let many = coder.makeIncrementalDecoder(options: limited)
        let manyImages = Self.feed(tiny.finished(), step: 10, to: many)
        #expect(manyImages.contains { ($0?.frames.count ?? 0) > 1 }, "frames within the budget show")
        #expect(manyImages.compactMap { $0 }.allSatisfy { $0.frames.count <= 20 })
        #expect(manyImages.last! == nil)

        // Image data that is not LZW: the frame fails, and so does the whole.
        var broken = GIFBuilder(width: 2, height: 2, colors: palette)
        broken.image(width: 2, height: 2, indices: [0, 1, 2, 3])
        broken.rawImage(width: 2, height: 2, data: [2, 2, 0xFF, 0xFF, 0])
        let damaged = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let damagedImages = Self.feed(broken.finished(), step: 4, to: damaged)
        #expect(damagedImages.dropLast().contains { $0?.frames.count == 1 })
        #expect(damagedImages.last! == nil)

        // Every cut and damaged bytes: no crash, and only images the one-shot decode agrees with.
        for file in ["anim.gif", "dispose-previous.gif", "photo-interlaced.gif"] {
            let source = Fixtures.data("gif/\(file)")
            for prefix in CorruptData.truncations(of: source, dense: 40, count: 30) {
                let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
                if let image = Self.feed(prefix, step: 13, to: decoder).last ?? nil {
                    #expect(image.isIncremental, "\(file) cut at \(prefix.count)")
                }
            }
            for (i, flipped) in CorruptData.byteFlips(of: source, count: 60, seed: 3).enumerated() {
                let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
                if let image = Self.feed(flipped, step: 17, to: decoder).last ?? nil, !image.isIncremental {
                    #expect(image.frames.map(\.pixels) == (try? coder.decode(flipped))?.frames.map(\.pixels), "\(file) flip \(i)")
                }
            }
        }
    }
}
