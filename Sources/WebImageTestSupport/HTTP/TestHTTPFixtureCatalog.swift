#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The fixtures the test server serves, read into memory once so that no handler reads a file on the event loop.
///
/// A fixture is named by its file name (`photo.jpg`) or by its path under `Tests/Fixtures` (`jpeg/photo.jpg`);
/// where two directories hold the same file name, the first in sorted order wins and the path form reaches the other.
public struct TestHTTPFixtureCatalog: Sendable {
    /// One served file.
    public struct Entry: Sendable {
        public var bytes: [UInt8]
        public var contentType: String
        /// A strong entity tag, quoted: a hash of the bytes.
        public var etag: String
    }

    private var entries: [String: Entry]

    /// Every fixture of the checkout, read on first use.
    public static let shared = TestHTTPFixtureCatalog(directory: Fixtures.directory)

    /// The files one level under `directory`'s subdirectories.
    public init(directory: URL) {
        var entries: [String: Entry] = [:]
        let manager = FileManager.default
        let subdirectories = ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        for sub in subdirectories {
            let subURL = directory.appendingPathComponent(sub, isDirectory: true)
            let names = ((try? manager.contentsOfDirectory(atPath: subURL.path)) ?? []).sorted()
            for name in names {
                guard let data = try? Data(contentsOf: subURL.appendingPathComponent(name)) else { continue }
                let bytes = [UInt8](data)
                let entry = Entry(bytes: bytes, contentType: Self.contentType(forName: name), etag: Self.etag(of: bytes))
                entries["\(sub)/\(name)"] = entry
                if entries[name] == nil { entries[name] = entry }
            }
        }
        self.entries = entries
    }

    /// The fixture named `name` (a file name or a path under `Tests/Fixtures`).
    public func entry(_ name: some StringProtocol) -> Entry? {
        entries[String(name)]
    }

    /// The number of names the catalog answers to.
    public var count: Int { entries.count }

    /// The media type for a file name's extension; `application/octet-stream` when unknown.
    public static func contentType(forName name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "jxl": return "image/jxl"
        case "ppm": return "image/x-portable-pixmap"
        case "txt": return "text/plain"
        default: return "application/octet-stream"
        }
    }

    /// A quoted strong entity tag: FNV-1a 64 of the bytes, in hex.
    public static func etag(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "\"\(String(repeating: "0", count: 16 - hex.count))\(hex)\""
    }
}
