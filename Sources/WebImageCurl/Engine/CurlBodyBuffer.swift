#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A response body as it arrives: one `malloc` block, sized from the `Content-Length` when there is one and
/// otherwise grown by doubling, handed over as `Data` without a copy when the transfer ends.
///
/// A body goes through `Data`'s general append otherwise, which costs more per chunk than the copy itself on the
/// small images a downloader mostly fetches. Curl thread only.
struct CurlBodyBuffer: ~Copyable {
    private var bytes: UnsafeMutableRawPointer?
    private var capacity = 0
    /// The bytes received so far.
    private(set) var count = 0

    init() {}

    deinit {
        free(bytes)
    }

    /// Makes room for `total` bytes in all (the announced length); returns false when memory could not be had.
    mutating func reserve(_ total: Int) -> Bool {
        guard total > capacity else { return true }
        guard let grown = realloc(bytes, total) else { return false }
        bytes = grown
        capacity = total
        return true
    }

    /// Appends `chunk`; returns false when memory could not be had, leaving the body as it was.
    mutating func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard let source = chunk.baseAddress, !chunk.isEmpty else { return true }
        let needed = count + chunk.count
        if needed > capacity {
            // At least double, and never less than a page's worth, so a body without a length grows in few steps.
            guard reserve(max(needed, capacity * 2, 16_384)) else { return false }
        }
        guard let bytes else { return false }
        (bytes + count).copyMemory(from: source, byteCount: chunk.count)
        count = needed
        return true
    }

    /// Hands the bytes over as `Data`, which frees them when it no longer needs them, and leaves the buffer empty.
    mutating func take() -> Data {
        guard let taken = bytes, count > 0 else { return Data() }
        let data = Data(bytesNoCopy: taken, count: count, deallocator: .free)
        bytes = nil
        capacity = 0
        count = 0
        return data
    }
}
