import CRawCodecs
import WebImage

/// The coder and the C baseline of each format the comparison decodes, by the short name of ``ImageFormat/name``:
/// `jpeg`, `png`, `webp`, `gif`, `avif`, `jxl`, `heic`.
enum Coders {
    /// A C baseline of `CRawCodecs`: the library called directly with the flags our coder uses.
    typealias RawDecode = (
        UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?,
        UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
    ) -> Int32

    /// Our coder for `format`.
    static func coder(_ format: String) -> any ImageCoding {
        switch format {
        case "jpeg": JPEGCoder()
        case "png": PNGCoder()
        case "webp": WebPCoder()
        case "gif": GIFCoder()
        case "avif": AVIFCoder()
        case "jxl": JXLCoder()
        case "heic": HEIFCoder()
        default: fail("unknown format \(format)")
        }
    }

    /// The C baseline for `format`.
    static func raw(_ format: String) -> RawDecode {
        switch format {
        case "jpeg": raw_jpeg_decode
        case "png": raw_png_decode
        case "webp": raw_webp_decode
        case "gif": raw_gif_decode
        case "avif": raw_avif_decode
        case "jxl": raw_jxl_decode
        case "heic": raw_heif_decode
        default: fail("unknown format \(format)")
        }
    }
}
