import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The variants ``ImageManager/loadImageData(url:options:context:completion:)`` is making, one flight per variant
/// key and cache.
typealias VariantFlights = SingleFlight<VariantPlan.FlightKey, Void, Never, Result<ImageDataResult, WebImageError>>

/// What one call of ``ImageManager/loadImageData(url:options:context:completion:)`` asks for, worked out once: the
/// keys, the variant's format and encoding, the cache and the coder.
struct VariantPlan: Sendable {
    /// What calls share a variant by: its key, in one cache, made with one coder, by calls that bring nothing of
    /// their own to run on the load.
    struct FlightKey: Hashable, Sendable {
        let key: String
        let cache: ObjectIdentifier?
        let coder: ObjectIdentifier?
        let sole: UInt64?
    }

    /// Numbers the calls that share with no one.
    private static let soleNumbers = Atomic<UInt64>(0)

    let url: URL
    let options: ImageOptions
    /// The call's context, prepared, with the inline callback queue for the library's own steps.
    let context: ImageContext
    let originalKey: String
    /// The image's key, with the thumbnail and transformer suffixes.
    let fullKey: String
    /// The variant's key: the original key for the original as it came, the full key for a derived image encoded
    /// as the disk cache encodes it, else the full key with a suffix naming the format and the encoding.
    let key: String
    /// The format asked for; nil keeps the image's own.
    let format: ImageFormat?
    let encodeOptions: ImageEncodeOptions
    let coder: (any ImageCoding)?
    /// Where the variant is read and stored.
    let cache: any ImageCaching
    let flightKey: FlightKey

    init(manager: ImageManager, url: URL, options: ImageOptions, context: ImageContext) {
        self.url = url
        self.options = options
        var inline = context
        inline.callbackQueue = .inline
        self.context = inline
        (originalKey, fullKey, key) = Self.keys(for: url, context: context, derivedImageQuality: manager.derivedImageQuality)
        format = context.encodedFormat
        encodeOptions = context.encodeOptions ?? ImageEncodeOptions(quality: manager.derivedImageQuality)
        coder = context.imageCoder ?? manager.coder
        cache = key == originalKey
            ? context.originalImageCache ?? context.imageCache ?? manager.cache
            : context.imageCache ?? manager.cache
        flightKey = FlightKey(
            key: key,
            cache: Self.objectIdentity(cache),
            coder: coder.flatMap(Self.objectIdentity),
            sole: SharedDecodes.loadsAlone(context) || Self.objectIdentity(cache) == nil
                ? Self.soleNumbers.add(1, ordering: .relaxed).newValue : nil
        )
    }

    /// The original key, the image's full key and the variant's key of a load of `url` with `context` (resolved):
    /// the original key for the original as it came, the full key for a derived image encoded as the disk cache
    /// encodes it, else the full key with a suffix naming the format and the encoding.
    static func keys(
        for url: URL, context: ImageContext, derivedImageQuality: Double
    ) -> (original: String, full: String, variant: String) {
        let (original, full) = ImageManager.keys(for: url, context: context)
        let format = context.encodedFormat
        if format == nil, context.encodeOptions == nil { return (original, full, full) }
        let options = context.encodeOptions ?? ImageEncodeOptions(quality: derivedImageQuality)
        let variant = ImageCacheKeys.transformedKey(for: full, transformerKey: encodingKey(format: format, options: options))
        return (original, full, variant)
    }

    /// Whether the variant is a thumbnail or a transformed image.
    var isDerived: Bool { fullKey != originalKey }

    /// Whether the variant is the original's bytes as they came.
    var isOriginal: Bool { key == originalKey && !isDerived }

    /// Whether the caches are asked before anything is loaded or made.
    var readsCaches: Bool { options.isDisjoint(with: [.fromLoaderOnly, .refreshCached]) }

    /// The key suffix of an encoding: format, quality and the options that change the bytes.
    static func encodingKey(format: ImageFormat?, options: ImageEncodeOptions) -> String {
        var key = "Encoded(\(format?.name ?? "own"),q\(Int((options.clampedQuality * 100).rounded()))"
        if options.lossless { key += ",lossless" }
        if let size = options.maxPixelSize { key += ",max\(size.width)x\(size.height)" }
        if options.firstFrameOnly { key += ",first" }
        if options.backgroundColor != .white {
            let color = options.backgroundColor
            key += ",bg\(color.red).\(color.green).\(color.blue).\(color.alpha)"
        }
        return key + ")"
    }

    /// `data` with its format and pixel size, read from its header; nil when `coder` does not read it.
    func describe(_ data: Data, coder: any ImageCoding) -> EncodedImage? {
        try? describeLoaded(data, coder: coder)
    }

    /// ``describe(_:coder:)`` for the loaded original, with the reason it fails. Bytes that are not an image are
    /// `badImageData` to a load, as a load's decode reports them; bytes no coder recognises keep `unsupportedFormat`
    /// in ``WebImageError/coderCode``, as there too.
    func describeLoaded(_ data: Data, coder: any ImageCoding) throws(WebImageError) -> EncodedImage {
        do throws(WebImageError) {
            let info = try coder.info(for: data)
            return EncodedImage(data: data, format: info.format, pixelSize: info.pixelSize)
        } catch {
            var failure = WebImageError(.badImageData, "the bytes of \(url.absoluteString) are not an image: \(error.message)")
            if error.code == .unsupportedFormat { failure.coderCode = .unsupportedFormat }
            throw failure
        }
    }

    /// The variant of a loaded image: an original asked for in its own format, with no encoding of its own, is its
    /// bytes as they came; anything else is encoded here (an animation decoded on demand whole first).
    func encode(_ loaded: ImageLoadResult, coder: any ImageCoding) throws(WebImageError) -> EncodedImage {
        let image = loaded.image
        let format = format ?? coder.encodingFormat(for: image)
        if !isDerived, context.encodeOptions == nil, let data = loaded.data, image.format == format {
            return EncodedImage(data: data, format: format, pixelSize: image.pixelSize)
        }
        let whole = image.animation == nil ? image : try image.withAllFrames()
        let data = try coder.encode(whole, as: format, options: encodeOptions)
        return describe(data, coder: coder) ?? EncodedImage(data: data, format: format, pixelSize: image.pixelSize)
    }

    /// The result of the call for `encoded`, found in `cacheType` (`.none`: loaded or made now).
    func result(_ encoded: EncodedImage, from cacheType: ImageCacheType) -> ImageDataResult {
        ImageDataResult(
            data: encoded.data, format: encoded.format, pixelSize: encoded.pixelSize, cacheType: cacheType, url: url, key: key
        )
    }

    private static func objectIdentity(_ value: Any) -> ObjectIdentifier? {
        type(of: value) is AnyObject.Type ? ObjectIdentifier(value as AnyObject) : nil
    }
}
