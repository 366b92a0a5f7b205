import ArgumentParser
import WebImage

/// Options of the commands that write images.
struct EncodeArguments: ParsableArguments {
    @Option(name: .long, help: "Output format: jpeg, png, webp, gif, avif, jxl, or heic where libheif has an HEVC encoder (default: the input's format when it can be written, else by content).")
    var format: String?

    @Option(name: .long, help: "Lossy quality from 0 to 1.")
    var quality: Double = 0.9

    @Flag(name: .long, help: "Encode WebP, AVIF or JPEG XL losslessly.")
    var lossless = false

    func validate() throws {
        if let format, ImageFormat(name: format) == nil {
            throw ValidationError("unknown format '\(format)'; use jpeg, png, webp, gif, avif, jxl or heic")
        }
        guard (0...1).contains(quality) else { throw ValidationError("--quality must be between 0 and 1") }
    }

    var encodeOptions: ImageEncodeOptions {
        ImageEncodeOptions(quality: quality, lossless: lossless)
    }

    /// The format to write `image` as: the one asked for, else `preferred` (an output file's extension), else
    /// the registry's choice.
    func outputFormat(for image: Image, registry: ImageCoderRegistry, preferring preferred: ImageFormat? = nil) -> ImageFormat {
        if let format, let named = ImageFormat(name: format) { return named }
        return preferred ?? registry.encodingFormat(for: image)
    }
}
