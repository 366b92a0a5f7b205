#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageFormat {
    /// The format of encoded image data, from its leading bytes; `.undefined` for empty or unknown data.
    ///
    /// Stricter than SDWebImage, which looks at the first byte only: every signature is checked in full.
    /// - JPEG `FF D8 FF`; PNG's 8-byte signature; `GIF87a` or `GIF89a`; `RIFF` with `WEBP` at offset 8;
    /// - TIFF `II*\0` or `MM\0*`; BMP `BM`; PDF `%PDF`;
    /// - JPEG XL: a bare codestream `FF 0A`, or the container's signature box `00 00 00 0C 4A 58 4C 20 0D 0A 87 0A`;
    /// - HEIC, HEIF and AVIF by the brands of an ISO-BMFF `ftyp` box (major brand first, then compatible brands);
    /// - SVG: `<` first (after an optional byte-order mark and white space) and `</svg>` near the end.
    ///
    /// - Complexity: O(1) for every format but SVG, which reads at most the last 100 bytes more.
    public static func detect(_ data: Data) -> ImageFormat {
        data.withUnsafeBytes { detect($0) }
    }

    /// The format of encoded image bytes; see ``detect(_:)-(Data)``.
    public static func detect(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        let b = bytes
        let n = b.count
        guard n > 0 else { return .undefined }
        func starts(with signature: [UInt8], at offset: Int = 0) -> Bool {
            guard n >= offset + signature.count else { return false }
            for (i, byte) in signature.enumerated() where b[offset + i] != byte { return false }
            return true
        }
        switch b[0] {
        case 0xFF:
            if starts(with: [0xFF, 0x0A]) { return .jpegxl }
            return starts(with: [0xFF, 0xD8, 0xFF]) ? .jpeg : .undefined
        case 0x89:
            return starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) ? .png : .undefined
        case 0x47:
            return starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) ? .gif : .undefined
        case 0x52:
            return starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) ? .webp : .undefined
        case 0x49:
            return starts(with: [0x49, 0x49, 0x2A, 0x00]) ? .tiff : .undefined
        case 0x4D:
            return starts(with: [0x4D, 0x4D, 0x00, 0x2A]) ? .tiff : .undefined
        case 0x42:
            return starts(with: [0x42, 0x4D]) ? .bmp : .undefined
        case 0x25:
            return starts(with: Array("%PDF".utf8)) ? .pdf : .undefined
        case 0x00:
            if starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jpegxl }
            return isoMediaFormat(b)
        default:
            return looksLikeSVG(b) ? .svg : .undefined
        }
    }

    /// HEIC, HEIF or AVIF from an `ftyp` box: size (4 bytes), `ftyp`, major brand, minor version, compatible brands.
    private static func isoMediaFormat(_ b: UnsafeRawBufferPointer) -> ImageFormat {
        guard b.count >= 16, b[4] == 0x66, b[5] == 0x74, b[6] == 0x79, b[7] == 0x70 else { return .undefined }
        let boxSize = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        guard boxSize >= 16, boxSize % 4 == 0 else { return .undefined }
        func brand(at offset: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: b[offset..<offset + 4]), as: UTF8.self)
        }
        func classify(_ brand: String) -> ImageFormat? {
            switch brand {
            case "heic", "heix", "hevc", "hevx", "heim", "heis": .heic
            case "avif", "avis": .avif
            default: nil
            }
        }
        let major = brand(at: 8)
        if let format = classify(major) { return format }
        guard major == "mif1" || major == "msf1" else { return .undefined }
        // A generic HEIF major brand: the compatible brands say which codec the items use.
        var offset = 16
        let end = min(boxSize, b.count)
        while offset + 4 <= end {
            if let format = classify(brand(at: offset)) { return format }
            offset += 4
        }
        return .heif
    }

    /// `<` as the first character that is not a byte-order mark or white space, and `</svg>` in the last 100
    /// bytes once trailing white space is dropped.
    private static func looksLikeSVG(_ b: UnsafeRawBufferPointer) -> Bool {
        var start = 0
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { start = 3 }
        while start < b.count, isSpace(b[start]) { start += 1 }
        guard start < b.count, b[start] == UInt8(ascii: "<") else { return false }
        var end = b.count
        while end > start, isSpace(b[end - 1]) { end -= 1 }
        let tail = Array(UnsafeRawBufferPointer(rebasing: b[max(start, end - 100)..<end]))
        let needle = Array("</svg>".utf8)
        guard tail.count >= needle.count else { return false }
        for i in 0...(tail.count - needle.count) where tail[i..<i + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
