#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DiskCache {
    /// A disk cache's contents and limits at one moment, from its in-memory index.
    public struct Statistics: Sendable, Hashable {
        /// The number of entries.
        public var count: Int
        /// The bytes the entries occupy on disk (allocated blocks, not content lengths).
        public var totalSize: Int
        /// The access date of the least recently used entry; nil when the cache is empty.
        public var oldestAccess: Date?
        /// The access date of the most recently used entry; nil when the cache is empty.
        public var newestAccess: Date?
        /// The size limit in bytes; 0 for none.
        public var maxSize: Int
        /// The age limit in seconds; negative for none.
        public var maxAge: Double

        /// Creates statistics.
        public init(count: Int, totalSize: Int, oldestAccess: Date?, newestAccess: Date?, maxSize: Int, maxAge: Double) {
            self.count = count
            self.totalSize = totalSize
            self.oldestAccess = oldestAccess
            self.newestAccess = newestAccess
            self.maxSize = maxSize
            self.maxAge = maxAge
        }
    }
}
