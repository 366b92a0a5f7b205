import Foundation
import WebImage

/// Fuzzes cache keys as the disk cache turns them into file names and files: the input (after a first byte
/// that chooses the key's shape) is the key, as UTF-8 with invalid bytes repaired, either alone or as the
/// path and query of an `https` URL, the shape most keys have.
///
/// The name must be at most 255 bytes (`NAME_MAX`), hold no path separator and no NUL, be the same for the
/// same key, and be 32 lowercase hex digits with an optional `.` and extension. An entry stored under the
/// key, in a cache in a temporary directory, must read back the same, with its extended data, and be gone once
/// removed.
enum DiskCacheKeyHarness {
    static var target: FuzzTarget {
        FuzzTarget(
            name: "disk-cache-key",
            summary: "Cache keys to file names, and entries stored under them",
            maxLength: 1 << 10,
            run: run
        )
    }

    /// One cache for the whole run, in a directory of its own under the temporary directory.
    private static let cache = DiskCache(
        directory: FileManager.default.temporaryDirectory.appendingPathComponent("webimage-fuzz-cache-\(getpid())", isDirectory: true)
    )

    static func run(_ data: Data) {
        var input = FuzzInput(data)
        let shape = input.byte()
        let text = String(decoding: input.rest(), as: UTF8.self)
        let key = shape & 1 == 0 ? text : "https://example.com/" + text

        let name = DiskCache.fileName(forKey: key)
        fuzzCheck(
            name.utf8.count <= 255,
            "the name for a key of \(key.utf8.count) bytes has \(name.utf8.count) bytes: \(name)"
        )
        fuzzCheck(!name.utf8.contains(UInt8(ascii: "/")), "the name '\(name)' holds a path separator")
        fuzzCheck(!name.utf8.contains(0), "the name '\(name)' holds a NUL")
        fuzzCheck(name == DiskCache.fileName(forKey: key), "the same key named two ways: \(name)")
        let digits = name.utf8.prefix(32)
        fuzzCheck(
            digits.count == 32 && digits.allSatisfy { (48...57).contains($0) || (97...102).contains($0) },
            "the name '\(name)' does not start with 32 lowercase hex digits"
        )
        fuzzCheck(
            name.utf8.count == 32 || name.utf8.dropFirst(32).first == UInt8(ascii: "."),
            "the name '\(name)' goes on after its digits without a dot"
        )
        let path = URL(fileURLWithPath: cache.path(forKey: key))
        fuzzCheck(
            path.deletingLastPathComponent().standardizedFileURL.path == cache.directory.standardizedFileURL.path,
            "the path \(path.path) is not in the cache's directory"
        )

        let payload = Data([shape]) + Data(key.utf8.prefix(32))
        do {
            try cache.setData(payload, forKey: key)
        } catch {
            fuzzCheck(false, "storing under the key '\(key)' (file \(name)) failed: \(error)")
        }
        fuzzCheck(cache.data(forKey: key) == payload, "the entry under '\(key)' (file \(name)) does not read back")
        let extended = Data(name.utf8.prefix(8))
        do {
            try cache.setExtendedData(extended, forKey: key)
        } catch {
            fuzzCheck(false, "storing extended data under the key '\(key)' (file \(name)) failed: \(error)")
        }
        fuzzCheck(cache.extendedData(forKey: key) == extended, "the extended data under '\(key)' does not read back")
        cache.removeData(forKey: key)
        fuzzCheck(cache.data(forKey: key) == nil, "the entry under '\(key)' is still there once removed")
    }
}
