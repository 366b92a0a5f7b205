import Foundation
import WebImage

/// Fuzzes one decoder: every input goes to that coder directly, not through the registry's format sniffing, so
/// that a target's coverage stays in its coder (inputs without the format's signature end at the coder's first
/// check, and the seed corpus gives the fuzzer the signatures).
///
/// Each input is read for its header, decoded whole at the library's default limits (100 megapixels, 10,000
/// frames), decoded as a thumbnail, decoded once more with other options (first frame, scale-down limit,
/// frames on demand), walked through the coder's frame source when it animates, and fed in chunks of random
/// sizes to its incremental decoder when it has one. Options and chunk sizes come from a hash of the input, so
/// a seed file stays a valid file and a saved finding replays exactly.
///
/// What is checked beyond "no crash": every decoded image has the size the options promise for the header's
/// size (``ImageDecodeOptions/targetSize(for:frameCount:format:)``), within the pixel and frame limits; the frame
/// source's frames are the whole decode's frames; the incremental decoder's final image is the one-shot decode's.
/// Decodes are compared through ``ImageFingerprint``s, so that one decoded image at a time is in memory.
struct DecoderHarness<Coder: ImageCoding>: Sendable {
    let coder: Coder
    let format: ImageFormat
    /// Formats the coder's headers and images may give besides `format`: the HEIF coder names its images
    /// `.heic` or `.heif` by the file's brands.
    var otherFormats: Set<ImageFormat> = []

    /// The target `decode-<format>` for `coder`, whose images are of `format` or one of `otherFormats`.
    static func target(_ coder: Coder, format: ImageFormat, otherFormats: Set<ImageFormat> = []) -> FuzzTarget {
        let harness = DecoderHarness(coder: coder, format: format, otherFormats: otherFormats)
        return FuzzTarget(
            name: "decode-\(format.name)",
            summary: "\(format.name.uppercased()) decoder: info, decode, thumbnail, frames, incremental",
            maxLength: 64 << 10,
            run: harness.run
        )
    }

    func run(_ data: Data) {
        var random = FuzzRandom(seed: data)
        // Half of the time the bytes are a slice that does not start at index 0, as a slice of a larger
        // download is.
        let input = Bool.random(using: &random) ? data : Self.offsetSlice(of: data)
        let info = try? coder.info(for: input)
        if let info { check(info) }

        let full = ImageDecodeOptions()
        let whole = decode(input, options: full, info: info)
        let thumbnail = Self.thumbnailOptions(using: &random)
        let reduced = decode(input, options: thumbnail, info: info)
        decode(input, options: Self.variantOptions(using: &random), info: info)

        if let animated = coder as? any AnimatedImageCoding {
            walkFrames(of: input, with: animated, options: full, whole: whole)
        }
        if let progressive = coder as? any ProgressiveImageCoding {
            let useThumbnail = Bool.random(using: &random)
            feed(
                input, to: progressive, options: useThumbnail ? thumbnail : full,
                oneShot: useThumbnail ? reduced : whole, random: &random
            )
        }
    }

    /// The same bytes as a slice whose indices start at 1.
    private static func offsetSlice(of data: Data) -> Data {
        var padded = Data(capacity: data.count + 1)
        padded.append(0)
        padded.append(data)
        return padded.dropFirst()
    }

    /// Whether `given` is a format this target's coder gives.
    private func decodes(_ given: ImageFormat) -> Bool {
        given == format || otherFormats.contains(given)
    }

    private func check(_ info: ImageInfo) {
        fuzzCheck(decodes(info.format), "info says \(info.format), the coder decodes \(format)")
        fuzzCheck(info.frameCount >= 1, "info counts \(info.frameCount) frames")
        fuzzCheck(!info.pixelSize.isEmpty, "info gives an empty size, \(info.pixelSize)")
    }

    /// Decodes `data` and checks the image against the options and the header; the image's fingerprint, or nil
    /// when the decode throws.
    @discardableResult
    func decode(_ data: Data, options: ImageDecodeOptions, info: ImageInfo?) -> ImageFingerprint? {
        let image: Image
        do {
            image = try coder.decode(data, options: options)
        } catch {
            return nil
        }
        fuzzCheck(decodes(image.format), "a \(format) decode made a \(image.format) image")
        fuzzCheck(!image.isIncremental, "a one-shot decode is marked incremental")
        fuzzCheck(!image.pixelSize.isEmpty, "the decode made an empty image, \(image.pixelSize)")
        if options.firstFrameOnly {
            fuzzCheck(image.frameCount == 1, "a first-frame decode made \(image.frameCount) frames")
        }
        if options.maxFrameCount > 0 {
            fuzzCheck(
                image.frameCount <= options.maxFrameCount,
                "\(image.frameCount) frames, over the limit of \(options.maxFrameCount)"
            )
        }
        let held = image.pixelSize.pixelCount * image.frames.count
        fuzzCheck(
            held <= options.maxPixelCount,
            "\(image.frames.count) frames of \(image.pixelSize), over the limit of \(options.maxPixelCount) pixels"
        )
        guard let info else { return ImageFingerprint(image) }

        let source = options.keepsOriginalOrientation ? info.pixelSize : info.uprightSize
        let expected: PixelSize?
        if image.animation != nil {
            expected = try? options.frameSize(forCanvas: source, frameCount: image.frameCount, format: format)
        } else {
            expected = try? options.targetSize(for: source, frameCount: image.frameCount, format: format)
        }
        fuzzCheck(expected != nil, "the decode made \(image) although \(info) is over the limits of \(options)")
        fuzzCheck(
            image.pixelSize == expected,
            "the decode made \(image.pixelSize), the options promise \(expected.map(String.init(describing:)) ?? "-") for \(info) with \(options)"
        )
        if !options.firstFrameOnly {
            fuzzCheck(
                image.frameCount == info.frameCount,
                "the decode made \(image.frameCount) frames, info counts \(info.frameCount)"
            )
        }
        if options.keepsOriginalOrientation {
            fuzzCheck(
                image.orientation == info.orientation,
                "the decode kept \(image.orientation), info says \(info.orientation)"
            )
        } else {
            fuzzCheck(
                image.orientation == .up,
                "the decode was asked to turn the image upright and left it \(image.orientation)"
            )
        }
        if image.animation != nil, options.framesOnDemand {
            checkAllFrames(of: image)
        }
        return ImageFingerprint(image)
    }

    /// An image whose frames are decoded on demand gives all of them at the size of the first.
    private func checkAllFrames(of image: Image) {
        guard let whole = try? image.withAllFrames() else { return }
        fuzzCheck(
            whole.frameCount == image.frameCount,
            "withAllFrames made \(whole.frameCount) of \(image.frameCount) frames"
        )
        fuzzCheck(
            whole.pixelSize == image.pixelSize,
            "withAllFrames made \(whole.pixelSize) frames of a \(image.pixelSize) image"
        )
        fuzzCheck(whole.frames[0].pixels == image.frames[0].pixels, "withAllFrames changed the first frame")
    }
}
