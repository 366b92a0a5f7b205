/// An image file format.
///
/// The raw values are SDWebImage's `SDImageFormat` numbers, so formats can be stored and compared across both
/// libraries; a coder for another format may define its own value above 100.
public struct ImageFormat: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public static let undefined = ImageFormat(rawValue: -1)
    public static let jpeg = ImageFormat(rawValue: 0)
    public static let png = ImageFormat(rawValue: 1)
    public static let gif = ImageFormat(rawValue: 2)
    public static let tiff = ImageFormat(rawValue: 3)
    public static let webp = ImageFormat(rawValue: 4)
    public static let heic = ImageFormat(rawValue: 5)
    public static let heif = ImageFormat(rawValue: 6)
    public static let pdf = ImageFormat(rawValue: 7)
    public static let svg = ImageFormat(rawValue: 8)
    public static let bmp = ImageFormat(rawValue: 9)
    public static let raw = ImageFormat(rawValue: 10)
    public static let avif = ImageFormat(rawValue: 15)
    /// JPEG XL, numbered as SDWebImage's JPEG-XL coder plugin numbers it.
    public static let jpegxl = ImageFormat(rawValue: 17)

    /// Every format this library names.
    public static let known: [ImageFormat] = [.jpeg, .png, .gif, .tiff, .webp, .heic, .heif, .pdf, .svg, .bmp, .raw, .avif, .jpegxl]

    /// A short lowercase name: `jpeg`, `png`, `gif`, `webp`, `jxl` ...; `undefined`, or `format(N)` for other values.
    public var name: String {
        switch self {
        case .undefined: "undefined"
        case .jpeg: "jpeg"
        case .png: "png"
        case .gif: "gif"
        case .tiff: "tiff"
        case .webp: "webp"
        case .heic: "heic"
        case .heif: "heif"
        case .pdf: "pdf"
        case .svg: "svg"
        case .bmp: "bmp"
        case .raw: "raw"
        case .avif: "avif"
        case .jpegxl: "jxl"
        default: "format(\(rawValue))"
        }
    }

    /// The format a name or file extension stands for (`jpg`, `jpeg`, `png`, `webp` ...), case-insensitive.
    public init?(name: String) {
        switch name.lowercased() {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "png", "apng": self = .png
        case "gif": self = .gif
        case "tif", "tiff": self = .tiff
        case "webp": self = .webp
        case "heic", "heics": self = .heic
        case "heif", "heifs": self = .heif
        case "pdf": self = .pdf
        case "svg": self = .svg
        case "bmp": self = .bmp
        case "raw": self = .raw
        case "avif", "avifs": self = .avif
        case "jxl": self = .jpegxl
        default: return nil
        }
    }

    /// The usual file extension, without a dot; `nil` for `.undefined` and unnamed formats.
    public var fileExtension: String? {
        switch self {
        case .jpeg: "jpg"
        case .undefined: nil
        default: ImageFormat.known.contains(self) ? name : nil
        }
    }

    /// The MIME type, as servers send it in `Content-Type`.
    public var mimeType: String? {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .tiff: "image/tiff"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .pdf: "application/pdf"
        case .svg: "image/svg+xml"
        case .bmp: "image/bmp"
        case .avif: "image/avif"
        case .jpegxl: "image/jxl"
        default: nil
        }
    }

    public var description: String { name }
}
