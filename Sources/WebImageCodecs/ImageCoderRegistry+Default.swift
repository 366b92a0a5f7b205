extension ImageCoderRegistry {
    /// The registry most code uses: JPEG, PNG (with APNG), WebP, GIF, AVIF, HEIF/HEIC and JPEG XL.
    ///
    /// Shared and mutable, as SDWebImage's `SDImageCodersManager.sharedManager`: coders added here are asked first
    /// by every user of the shared registry. Make your own with ``makeDefault()`` to change the list privately.
    public static let shared = ImageCoderRegistry.makeDefault()

    /// The built-in coders, lowest priority first. Each recognises its own format by its signature, so the order
    /// matters only for coders added later.
    public static var defaultCoders: [any ImageCoding] {
        [JPEGCoder(), PNGCoder(), WebPCoder(), GIFCoder(), AVIFCoder(), HEIFCoder(), JXLCoder()]
    }

    /// A new registry with the built-in coders.
    public static func makeDefault() -> ImageCoderRegistry {
        ImageCoderRegistry(coders: defaultCoders)
    }
}
