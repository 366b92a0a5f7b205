#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A decoded image: RGBA pixels, 8 bits a channel, and for an animation its frames, durations and loop count.
///
/// `Image` is immutable and `Sendable`: share it between threads and caches freely. The pixels are stored once:
/// a full-size still image is decoded straight into the buffer the image keeps; a reduced or turned one is
/// resampled into it from a reused scratch buffer; animation frames are copied once from the compositing canvas.
///
/// ```swift
/// let image = try ImageCoderRegistry.shared.decode(data)
/// print(image.width, image.height, image.format, image.isAnimated)
/// let topLeft = image.pixels[x: 0, y: 0]
/// ```
public final class Image: Sendable {
    /// The frames; one for a still image. Every frame has the same size.
    public let frames: [ImageFrame]
    /// How many times an animation plays; 0 means forever. 0 for a still image.
    public let loopCount: Int
    /// Points per pixel side, as SDWebImage's `scale` (2 for an `@2x` image). Does not change the pixels.
    public let scale: Double
    /// The format the image was decoded from, or `.undefined` for an image made in memory.
    public let format: ImageFormat
    /// Whether the pixels may be transparent (the source had an alpha channel or a transparent colour). When
    /// false every pixel's alpha is 255, and encoders may ignore the alpha channel.
    public let hasAlpha: Bool
    /// How the stored pixels must be turned to appear upright: `.up` unless the decoder was asked to keep the
    /// source's EXIF orientation.
    public let orientation: ImageOrientation
    /// Whether this is a partial image from progressive decoding of data still arriving.
    public let isIncremental: Bool
    /// The options the image was decoded with, when the code that decoded it recorded them (the cache does).
    public let decodeOptions: ImageDecodeOptions?
    /// Bytes of pixel memory the image holds: `bytesPerRow * height` for each distinct frame buffer, plus, for an
    /// animation decoded on demand whose frames were all preloaded, those frames.
    public let memoryCost: Int
    /// The animation behind this image when it was decoded with frames on demand
    /// (``ImageDecodeOptions/framesOnDemand``): ``frames`` then holds only the first frame, and the animation hands
    /// out the others as they are needed. Nil for a still image or an animation decoded whole.
    public let animation: AnimatedImage?
    /// Whether a transformer made this image, as SDWebImage's `sd_isTransformed`: the manager sets it on what an
    /// ``ImageTransforming`` returns, partial images included.
    public let isTransformed: Bool
    /// Bytes of the caller's own that travel with the image, as SDWebImage's `sd_extendedObject`: the cache writes
    /// them to the disk entry's extended data when it stores the image, and a disk hit gives them back on the image
    /// it decodes. Encode any value you like into them (JSON, a property list). A transformed image keeps the
    /// bytes of the image it was made from unless the transformer gave it its own.
    public let extendedObject: Data?

    /// Creates an image from frames.
    ///
    /// - Precondition: `frames` is not empty and every frame has the size of the first.
    public init(
        frames: [ImageFrame],
        loopCount: Int = 0,
        scale: Double = 1,
        format: ImageFormat = .undefined,
        hasAlpha: Bool,
        orientation: ImageOrientation = .up,
        isIncremental: Bool = false,
        decodeOptions: ImageDecodeOptions? = nil,
        animation: AnimatedImage? = nil,
        isTransformed: Bool = false,
        extendedObject: Data? = nil
    ) {
        precondition(!frames.isEmpty, "an image needs at least one frame")
        let size = frames[0].pixels.size
        precondition(frames.allSatisfy { $0.pixels.size == size }, "every frame of an image has the same size")
        self.frames = frames
        self.loopCount = frames.count > 1 ? max(0, loopCount) : 0
        self.scale = scale >= 1 ? scale : 1
        self.format = format
        self.hasAlpha = hasAlpha
        self.orientation = orientation
        self.isIncremental = isIncremental
        self.decodeOptions = decodeOptions
        self.animation = animation
        self.isTransformed = isTransformed
        self.extendedObject = extendedObject
        var cost = Image.cost(of: frames)
        if let animation, animation.isAllFramesLoaded {
            cost = max(cost, animation.framePool.byteCount)
        }
        self.memoryCost = cost
    }

    /// Creates a still image from one pixel buffer.
    public convenience init(
        pixels: PixelBuffer,
        scale: Double = 1,
        format: ImageFormat = .undefined,
        hasAlpha: Bool,
        orientation: ImageOrientation = .up,
        isIncremental: Bool = false
    ) {
        self.init(
            frames: [ImageFrame(pixels: pixels, duration: 0)],
            scale: scale,
            format: format,
            hasAlpha: hasAlpha,
            orientation: orientation,
            isIncremental: isIncremental
        )
    }

    /// The same image (its pixel buffers shared, not copied) with `decodeOptions` recorded.
    public func recording(decodeOptions: ImageDecodeOptions) -> Image {
        sharingPixels(decodeOptions: decodeOptions)
    }

    /// The same image (its pixel buffers shared, not copied) marked as a partial image of a progressive load.
    public func markedIncremental() -> Image {
        isIncremental ? self : sharingPixels(isIncremental: true)
    }

    /// The same image (its pixel buffers shared, not copied) carrying `extendedObject` in ``extendedObject``; nil
    /// takes it away.
    public func withExtendedObject(_ extendedObject: Data?) -> Image {
        extendedObject == self.extendedObject ? self : sharingPixels(extendedObject: .some(extendedObject))
    }

    /// This image as a transformer's result made from `source`: marked ``isTransformed``, and carrying the
    /// source's ``extendedObject`` when it has none of its own (SDWebImage's `preserveImageMetadata`).
    package func markedTransformed(from source: Image) -> Image {
        let extended = extendedObject ?? source.extendedObject
        if isTransformed, extended == extendedObject { return self }
        return sharingPixels(isTransformed: true, extendedObject: .some(extended))
    }

    private func sharingPixels(
        isIncremental: Bool? = nil,
        decodeOptions: ImageDecodeOptions?? = nil,
        isTransformed: Bool? = nil,
        extendedObject: Data?? = nil
    ) -> Image {
        Image(
            frames: frames,
            loopCount: loopCount,
            scale: scale,
            format: format,
            hasAlpha: hasAlpha,
            orientation: orientation,
            isIncremental: isIncremental ?? self.isIncremental,
            decodeOptions: decodeOptions ?? self.decodeOptions,
            animation: animation,
            isTransformed: isTransformed ?? self.isTransformed,
            extendedObject: extendedObject ?? self.extendedObject
        )
    }

    /// The first frame alone, as a still image (the pixel buffer shared); this image when it is still.
    public var firstFrame: Image {
        guard isAnimated else { return self }
        return Image(
            frames: [ImageFrame(pixels: frames[0].pixels, duration: 0)],
            scale: scale,
            format: format,
            hasAlpha: hasAlpha,
            orientation: orientation,
            isIncremental: isIncremental,
            decodeOptions: decodeOptions,
            isTransformed: isTransformed,
            extendedObject: extendedObject
        )
    }

    /// The pixels of the first frame.
    public var pixels: PixelBuffer { frames[0].pixels }
    /// Width in pixels.
    public var width: Int { frames[0].pixels.width }
    /// Height in pixels.
    public var height: Int { frames[0].pixels.height }
    /// Bytes per row of the first frame.
    public var bytesPerRow: Int { frames[0].pixels.bytesPerRow }
    /// The size in pixels.
    public var pixelSize: PixelSize { frames[0].pixels.size }
    /// Whether the image has more than one frame (held, or decoded on demand by ``animation``).
    public var isAnimated: Bool { frames.count > 1 || animation != nil }
    /// The number of frames: held, or decoded on demand by ``animation``.
    public var frameCount: Int { animation?.frameCount ?? frames.count }
    /// The sum of the frame durations, in seconds.
    public var duration: Double { animation?.totalDuration ?? frames.reduce(0) { $0 + $1.duration } }

    /// This image with every frame in ``frames``: itself unless its frames are decoded on demand, in which case
    /// every frame is decoded now (reusing the ones the animation's pool holds).
    public func withAllFrames() throws(WebImageError) -> Image {
        guard let animation else { return self }
        let whole = try animation.makeImage(scale: scale)
        return Image(
            frames: whole.frames,
            loopCount: loopCount,
            scale: scale,
            format: format,
            hasAlpha: hasAlpha,
            orientation: orientation,
            isIncremental: isIncremental,
            decodeOptions: decodeOptions,
            isTransformed: isTransformed,
            extendedObject: extendedObject
        )
    }

    /// The number of distinct pixel buffers among the frames (frames that did not change share one).
    public var uniqueFrameCount: Int {
        var seen = Set<ObjectIdentifier>()
        for frame in frames { seen.insert(ObjectIdentifier(frame.pixels)) }
        return seen.count
    }

    private static func cost(of frames: [ImageFrame]) -> Int {
        var seen = Set<ObjectIdentifier>()
        var total = 0
        for frame in frames where seen.insert(ObjectIdentifier(frame.pixels)).inserted {
            total += frame.pixels.byteCount
        }
        return total
    }
}

extension Image: CustomStringConvertible {
    public var description: String {
        var text = "Image(\(width) x \(height), \(format)"
        if isAnimated { text += ", \(frameCount) frames, loop \(loopCount)" }
        if animation != nil { text += ", on demand" }
        if hasAlpha { text += ", alpha" }
        if scale != 1 { text += ", @\(scale)x" }
        return text + ")"
    }
}
