import Foundation
import WebImage

/// The limits a cache was given on the command line, remembered in its directory so that later commands use
/// them in place of the defaults: `cache stats` shows them and `cache trim` trims to them.
///
/// Stored as JSON in ``fileName``, a hidden file, which the disk cache counts as none of its entries. A limit
/// that was never given is left out, and the default stands for it.
struct CacheLimits: Codable, Equatable {
    /// The file, in the cache directory.
    static let fileName = ".webimage-limits.json"

    /// Size limit in bytes, 0 for none.
    var maxSize: Int?
    /// Age limit in seconds, negative for none.
    var maxAge: Double?
    /// `access`, `modification` or `change`.
    var expireType: String?

    /// Whether no limit is set.
    var isEmpty: Bool { self == CacheLimits() }

    /// These limits, with `other`'s where these have none.
    func merged(over other: CacheLimits) -> CacheLimits {
        CacheLimits(maxSize: maxSize ?? other.maxSize, maxAge: maxAge ?? other.maxAge, expireType: expireType ?? other.expireType)
    }

    /// The limits stored in `directory`; none when there is no file or it cannot be read.
    static func stored(in directory: URL) -> CacheLimits {
        let url = directory.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url), let limits = try? JSONDecoder().decode(CacheLimits.self, from: data) else {
            return CacheLimits()
        }
        return limits
    }

    /// Writes the limits in `directory`, which must exist.
    func store(in directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try writeFile(try encoder.encode(self), to: directory.appendingPathComponent(Self.fileName).path)
    }
}
