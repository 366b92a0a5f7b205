import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DiskCache {
    /// The longest extension a file name keeps: `NAME_MAX` (255) less the 32 digits and the dot.
    static let maximumExtensionLength = 255 - 32 - 1

    /// The file name of `key`, SDWebImage's `SDDiskCacheFileNameForKey`, so that caches written by either
    /// library find each other's entries.
    ///
    /// The name is the MD5 digest of the key's UTF-8 bytes up to the first NUL, as 32 lowercase hex digits,
    /// then `.` and the key's path extension. The extension is taken from the URL's path when the key parses as
    /// a URL (the query is ignored and percent escapes are decoded), else from the string itself; `:` and NUL
    /// are removed from it, and it is dropped when longer than 222 characters.
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
        let bytes = key.utf8.prefix { $0 != 0 }
        let digest = Insecure.MD5.hash(data: Array(bytes))
        var name = ""
        name.reserveCapacity(32)
        for byte in digest { name += byte.hexDigits() }
        return name
    }

    /// The extension a key's file name ends with, without the dot; empty when there is none.
    static func fileExtension(forKey key: String) -> String {
        let raw = URL(string: key).map { PathName.pathExtension($0.path) } ?? PathName.pathExtension(key)
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: raw.unicodeScalars.filter { $0 != ":" && $0 != "\0" })
        let ext = String(scalars)
        // Measured in UTF-16 units, as NSString counts characters.
        return ext.utf16.count > maximumExtensionLength ? "" : ext
    }
}
