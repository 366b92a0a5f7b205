/// The names a disk cache gives its files, and what a name in its directory is.
///
/// - An entry: `<32 hex digits>[.<extension>]`, the name ``DiskCache/fileName(forKey:)`` gives. Every visible
///   file in the directory counts as an entry.
/// - A temporary file: `.<digest>.<16 random hex digits>.tmp`, hidden, written and then renamed over the entry.
/// - A sidecar: `.<digest>.extended`, hidden, the extended data of the entry with that digest when the file
///   system refuses extended attributes.
/// - The ledger: `.swift-web-image-ledger`, hidden, the bytes the directory holds, shared by every process that
///   uses it.
///
/// Every name fits in 255 bytes: an entry's extension is at most 222 bytes, and the hidden names are built from
/// the digest alone.
enum DiskCacheFileName {
    enum Kind: Equatable {
        case entry
        case temporary
        case sidecar
        case other
    }

    /// The names of one key's entry.
    struct Names {
        /// The 32 hex digits.
        let digest: String
        /// The name with the extension, where entries are written.
        let primary: String
        /// The name without extension, read for compatibility; nil when it is the primary name.
        let legacy: String?

        init(key: String) {
            digest = DiskCache.digestName(forKey: key)
            let ext = DiskCache.fileExtension(forKey: key)
            primary = ext.isEmpty ? digest : digest + "." + ext
            legacy = ext.isEmpty ? nil : digest
        }

        /// The primary name, then the legacy one.
        var lookupOrder: [String] { legacy.map { [primary, $0] } ?? [primary] }
    }

    static let temporarySuffix = ".tmp"
    static let sidecarSuffix = ".extended"
    static let ledger = ".swift-web-image-ledger"

    /// A fresh temporary name for an entry with `digest` (or any other name used as the digest).
    static func temporary(forDigest digest: String) -> String {
        let random = UInt64.random(in: .min ... .max)
        let digits = String(random, radix: 16)
        return "." + digest + "." + String(repeating: "0", count: 16 - digits.count) + digits + temporarySuffix
    }

    /// The sidecar holding the extended data of the entry with `digest`.
    static func sidecar(forDigest digest: String) -> String {
        "." + digest + sidecarSuffix
    }

    /// What `name` is.
    static func kind(of name: String) -> Kind {
        guard name.utf8.first == UInt8(ascii: ".") else { return .entry }
        if name.hasSuffix(temporarySuffix) { return .temporary }
        if name.hasSuffix(sidecarSuffix), digest(ofSidecar: name) != nil { return .sidecar }
        return .other
    }

    /// The digest an entry name starts with; nil for a name the cache did not make.
    static func digest(ofEntry name: String) -> String? {
        let utf8 = name.utf8
        guard utf8.count >= 32 else { return nil }
        let head = utf8.prefix(32)
        guard head.allSatisfy(isLowercaseHexDigit) else { return nil }
        if utf8.count > 32, utf8[utf8.index(utf8.startIndex, offsetBy: 32)] != UInt8(ascii: ".") { return nil }
        return String(decoding: head, as: UTF8.self)
    }

    /// The digest a sidecar name holds; nil when it is not a sidecar's name.
    static func digest(ofSidecar name: String) -> String? {
        let utf8 = name.utf8
        guard utf8.count == 1 + 32 + sidecarSuffix.utf8.count, name.hasPrefix("."), name.hasSuffix(sidecarSuffix) else {
            return nil
        }
        let digits = utf8.dropFirst().prefix(32)
        guard digits.allSatisfy(isLowercaseHexDigit) else { return nil }
        return String(decoding: digits, as: UTF8.self)
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
