import Foundation
import WebImage

/// Fuzzes one encoder by round trips: an image made from the input (``ImageRecipe``: up to 128 x 128 pixels,
/// which keeps a run to milliseconds, and up to four frames for formats that animate) is encoded with options
/// from the input, decoded back by the same coder, and compared with what the encoder promises.
///
/// Encoding an image the format can hold must succeed, and so must decoding the result. The decoded image must
/// have the size (the source's, or scaled to fit ``ImageEncodeOptions/maxPixelSize``) and the frames (the
/// source's, or the first with ``ImageEncodeOptions/firstFrameOnly``), durations and loop count the encoder
/// writes; at full size, its pixels must be what the format keeps (``Fidelity``).
struct EncoderHarness<Coder: ImageCoding>: Sendable {
    /// What a round trip keeps of the pixels.
    enum Fidelity: Sendable {
        /// Nothing exactly (JPEG): only the size is checked.
        case lossy
        /// Every byte (PNG).
        case lossless
        /// Every byte with ``ImageEncodeOptions/lossless``, else the alpha channel (WebP).
        case losslessOnRequest
        /// Every colour of a frame of at most 256 colours, alpha reduced to transparent (under 128) or opaque
        /// (GIF).
        case palette
    }

    let coder: Coder
    let format: ImageFormat
    let fidelity: Fidelity
    /// Whether the format holds animations (frames beyond the first are otherwise dropped).
    let animates: Bool
    /// Whether the encoder may merge a frame that does not change the canvas into the frame before it.
    let mergesFrames: Bool

    /// The target `encode-<format>` for `coder`.
    static func target(
        _ coder: Coder, format: ImageFormat, fidelity: Fidelity, animates: Bool, mergesFrames: Bool = false
    ) -> FuzzTarget {
        let harness = EncoderHarness(coder: coder, format: format, fidelity: fidelity, animates: animates, mergesFrames: mergesFrames)
        return FuzzTarget(
            name: "encode-\(format.name)",
            summary: "\(format.name.uppercased()) encoder: round trips of random images",
            maxLength: 16 << 10,
            run: harness.run
        )
    }

    func run(_ data: Data) {
        var input = FuzzInput(data)
        var options = ImageEncodeOptions()
        options.quality = Double(input.byte()) / 255
        options.lossless = input.bool()
        options.firstFrameOnly = input.int(in: 0...7) == 0
        options.backgroundColor = RGBAColor(red: input.byte(), green: input.byte(), blue: input.byte(), alpha: input.byte())
        if input.int(in: 0...3) == 0 {
            options.maxPixelSize = PixelSize(width: input.int(in: 1...300), height: input.int(in: 1...300))
        }
        let source = ImageRecipe.image(from: &input, seed: data, maxFrames: animates ? 4 : 1, maxSide: 128)

        let encoded: Data
        do {
            encoded = try coder.encode(source, as: format, options: options)
        } catch {
            fuzzCheck(false, "encoding \(source) with \(options) failed: \(error)")
            return
        }
        let decoded: Image
        do {
            decoded = try coder.decode(encoded, options: ImageDecodeOptions())
        } catch {
            fuzzCheck(false, "decoding the encoding of \(source) with \(options) failed: \(error)")
            return
        }
        check(decoded, against: source, options: options)
    }

    private func check(_ decoded: Image, against source: Image, options: ImageEncodeOptions) {
        let size = options.maxPixelSize.map { source.pixelSize.scaled(toFit: $0, preserveAspectRatio: true) } ?? source.pixelSize
        fuzzCheck(decoded.pixelSize == size, "\(source) with \(options) came back at \(decoded.pixelSize), not \(size)")
        fuzzCheck(decoded.format == format, "\(source) encoded as \(format) came back as \(decoded.format)")

        let written = animates && !options.firstFrameOnly ? source.frames : [source.frames[0]]
        if mergesFrames {
            fuzzCheck(
                decoded.frames.count <= written.count,
                "\(written.count) frames came back as \(decoded.frames.count)"
            )
        } else {
            fuzzCheck(
                decoded.frames.count == written.count,
                "\(written.count) frames came back as \(decoded.frames.count)"
            )
        }
        if decoded.frames.count > 1 {
            fuzzCheck(
                decoded.loopCount == source.loopCount,
                "loop count \(source.loopCount) came back as \(decoded.loopCount)"
            )
        }
        if decoded.frames.count > 1 {
            let total = (decoded.duration * 100).rounded()
            let expected = written.reduce(0) { $0 + ($1.duration * 100).rounded() }
            fuzzCheck(
                total == expected,
                "\(written.count) frames of \(expected) cs came back as \(decoded.frames.count) of \(total) cs"
            )
        }
        let shown = Self.sourceFrames(shownBy: decoded.frames, from: written)
        for (index, (frame, expected)) in zip(decoded.frames, shown).enumerated() {
            if decoded.frames.count > 1, decoded.frames.count == written.count {
                fuzzCheck(
                    abs(frame.duration - expected.duration) < 1e-9,
                    "frame \(index) lasts \(frame.duration) s, written as \(expected.duration) s"
                )
            }
            guard size == source.pixelSize else { continue }
            comparePixels(frame.pixels, expected.pixels, frame: index, hasAlpha: source.hasAlpha, options: options)
        }
        if fidelity == .lossless {
            fuzzCheck(
                decoded.hasAlpha == source.hasAlpha,
                "an image with hasAlpha \(source.hasAlpha) came back with \(decoded.hasAlpha)"
            )
        }
    }

    /// For each decoded frame, the written frame on screen when it starts (the same frame, unless the encoder
    /// merged frames): matched by start times in centiseconds.
    static func sourceFrames(shownBy decoded: [ImageFrame], from written: [ImageFrame]) -> [ImageFrame] {
        var starts: [Int] = []
        var time = 0
        for frame in written {
            starts.append(time)
            time += Int((frame.duration * 100).rounded())
        }
        var result: [ImageFrame] = []
        time = 0
        for frame in decoded {
            result.append(written[starts.lastIndex { $0 <= time } ?? 0])
            time += Int((frame.duration * 100).rounded())
        }
        return result
    }
}
