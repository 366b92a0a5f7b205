/// What a disk cache knows about its entries without looking at the directory: each file's allocated size, its
/// access date and the date it expires by, with the running total.
///
/// A value type owned by the cache's store and touched only on its IO queue. It is built from one directory
/// listing when the cache opens and kept current by every operation; operations that find a file gone or
/// replaced correct it.
struct DiskCacheIndex {
    struct Entry: Equatable {
        /// Allocated bytes.
        var size: Int
        /// Seconds since 1970.
        var accessTime: Double
        /// The date ``DiskCache/Configuration/expireType`` names, seconds since 1970.
        var expireTime: Double
    }

    let expireType: DiskCache.ExpireType
    private(set) var entries: [String: Entry] = [:]
    private(set) var totalSize = 0

    init(expireType: DiskCache.ExpireType) {
        self.expireType = expireType
    }

    var count: Int { entries.count }

    subscript(name: String) -> Entry? { entries[name] }

    /// Records `name` with the size and dates of `status`, replacing what was known.
    mutating func update(_ name: String, from status: DiskFileStatus) {
        let entry = Entry(
            size: status.allocatedSize,
            accessTime: status.accessTime,
            expireTime: status.time(for: expireType)
        )
        if let old = entries.updateValue(entry, forKey: name) { totalSize -= old.size }
        totalSize += entry.size
    }

    /// Records that `name` was read at `time`: the access date moves, and so does the change date (setting the
    /// access date changes the inode).
    mutating func touch(_ name: String, at time: Double) {
        guard var entry = entries[name] else { return }
        entry.accessTime = time
        if expireType != .modificationDate { entry.expireTime = time }
        entries[name] = entry
    }

    /// Forgets `name`; returns what was known about it.
    @discardableResult
    mutating func remove(_ name: String) -> Entry? {
        guard let old = entries.removeValue(forKey: name) else { return nil }
        totalSize -= old.size
        return old
    }

    /// Makes room for `count` entries without growing.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
    }

    /// Forgets everything.
    mutating func removeAll() {
        entries.removeAll()
        totalSize = 0
    }

    /// The names ordered by expiry date, oldest first (ties by name, so the order is stable).
    func oldestFirst() -> [String] {
        entries.sorted { a, b in
            a.value.expireTime != b.value.expireTime ? a.value.expireTime < b.value.expireTime : a.key < b.key
        }.map(\.key)
    }

    /// The names whose expiry date is at or before `time`.
    func names(expiringAtOrBefore time: Double) -> [String] {
        entries.compactMap { $0.value.expireTime <= time ? $0.key : nil }
    }

    /// The oldest and newest access dates; nil when empty.
    var accessRange: (oldest: Double, newest: Double)? {
        var range: (oldest: Double, newest: Double)?
        for entry in entries.values {
            if let current = range {
                range = (min(current.oldest, entry.accessTime), max(current.newest, entry.accessTime))
            } else {
                range = (entry.accessTime, entry.accessTime)
            }
        }
        return range
    }
}
