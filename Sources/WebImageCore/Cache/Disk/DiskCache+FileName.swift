#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DiskCache {
    /// The longest extension a file name keeps, in UTF-8 bytes: `NAME_MAX` (255 bytes) less the 32 digits and
    /// the dot.
    static let maximumExtensionLength = 255 - 32 - 1

    /// The file name of `key`, SDWebImage's `SDDiskCacheFileNameForKey`, so that caches written by either
    /// library find each other's entries.
    ///
    /// The name is the MD5 digest of the key's UTF-8 bytes up to the first NUL, as 32 lowercase hex digits,
    /// then `.` and the key's path extension. The extension is taken from the URL's path when the key parses as
    /// a URL (the query is ignored and percent escapes are decoded), else from the string itself; `:` and NUL
    /// are removed from it, and it is dropped when longer than 222 bytes in UTF-8, so that every name fits in
    /// the 255 bytes a file name may have. (SDWebImage counts UTF-16 units, which is the same for ASCII, but
    /// lets through names that no file system accepts.)
    ///
    /// ```swift
    /// DiskCache.fileName(forKey: "https://placehold.co/50x50.jpg")   // "e9936aba8d7f7fcca7813d72290de957.jpg"
    /// ```
    public static func fileName(forKey key: String) -> String {
        let digest = digestName(forKey: key)
        let ext = fileExtension(forKey: key)
        return ext.isEmpty ? digest : digest + "." + ext
    }

    /// The 32 hex digits of the MD5 digest of the key's UTF-8 bytes up to the first NUL.
    static func digestName(forKey key: String) -> String {
        let digest: [UInt8]
        if let hashed = key.utf8.withContiguousStorageIfAvailable({ bytes in
            MD5.digest(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)])))
        }) {
            digest = hashed
        } else {
            digest = Array(key.utf8.prefix { $0 != 0 }).withUnsafeBytes { MD5.digest($0) }
        }
        return digest.withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: 32) { name in
                let hex: StaticString = "0123456789abcdef"
                let digits = hex.utf8Start
                for (offset, byte) in bytes.enumerated() {
                    name[2 * offset] = digits[Int(byte >> 4)]
                    name[2 * offset + 1] = digits[Int(byte & 0x0f)]
                }
                return 32
            }
        }
    }

    /// The extension a key's file name ends with, without the dot; empty when there is none.
    static func fileExtension(forKey key: String) -> String {
        let raw: String
        if let path = plainURLPath(key) {
            raw = PathName.pathExtension(String(path))
        } else {
            raw = URL(string: key).map { PathName.pathExtension($0.path) } ?? PathName.pathExtension(key)
        }
        guard raw.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == 0 }) else {
            return raw.utf8.count > maximumExtensionLength ? "" : raw
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: raw.unicodeScalars.filter { $0 != ":" && $0 != "\0" })
        let ext = String(scalars)
        return ext.utf8.count > maximumExtensionLength ? "" : ext
    }

    /// The path of an `http` or `https` key made only of characters a URL carries as they are (no percent
    /// escapes, no spaces, nothing outside ASCII, at most one `#`), without asking Foundation to parse it: such a
    /// key parses as a URL, and its path is what lies between the authority and the first `?` or `#`. Nil for
    /// any other key, which goes to Foundation's parser.
    static func plainURLPath(_ key: String) -> Substring? {
        let utf8 = key.utf8
        let authorityStart: String.Index
        if utf8.starts(with: "https://".utf8) {
            authorityStart = utf8.index(utf8.startIndex, offsetBy: 8)
        } else if utf8.starts(with: "http://".utf8) {
            authorityStart = utf8.index(utf8.startIndex, offsetBy: 7)
        } else {
            return nil
        }
        var fragments = 0
        for byte in utf8 {
            switch byte {
            // Unreserved and reserved characters, less `%`, `;` and the brackets of IPv6 hosts.
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
                UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
                continue
            case UInt8(ascii: "#"):
                fragments += 1
            default:
                return nil
            }
        }
        guard fragments <= 1 else { return nil }
        let rest = key[authorityStart...]
        guard let pathStart = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
              rest.utf8[pathStart] == UInt8(ascii: "/")
        else { return "" }
        let pathEnd = rest.utf8[pathStart...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        return rest[pathStart..<pathEnd]
    }
}
