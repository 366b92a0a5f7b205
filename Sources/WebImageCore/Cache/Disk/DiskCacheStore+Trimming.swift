extension DiskCacheStore {
    /// Opens the directory's ledger and builds the index from one listing of the directory, under the ledger's
    /// lock, setting the ledger to what the directory holds. Run first on the IO queue when the cache opens.
    ///
    /// Temporary files that writers which died left, and orphaned sidecars older than ``staleFileAge``, are
    /// removed on the way. A missing directory is an empty cache; one that cannot be read leaves the index empty.
    package func rebuildIndex() {
        if !sharesLedger { openLedger() }
        ledger.lock()
        defer { ledger.unlock() }
        do throws(DiskFileError) {
            try recount()
        } catch {
            index.removeAll()
            knownSidecars.removeAll()
        }
    }

    /// Removes expired entries, then the least recent ones while the directory is over the size limit, as
    /// SDWebImage's `removeExpiredData`, after re-reading the directory so that entries written by other
    /// processes, and dates changed behind the cache's back, count.
    ///
    /// - Age pass (unless ``DiskCache/Configuration/maxAge`` is negative): every entry whose date (per
    ///   ``DiskCache/Configuration/expireType``) is at or before now minus the age limit is removed.
    /// - Size pass (when ``DiskCache/Configuration/maxSize`` is not 0 and the directory holds more): entries are
    ///   removed oldest first until the total is below half the limit.
    ///
    /// Temporary files that writers which died left go too. Every entry that can be removed is, whatever fails.
    ///
    /// - Throws: `diskIO` naming the directory and the system's error when the directory cannot be read (a
    ///   missing one is an empty cache) or an entry cannot be removed.
    package func removeExpiredData() throws(WebImageError) {
        if !sharesLedger { openLedger() }
        ledger.lock()
        defer { ledger.unlock() }
        do throws(DiskFileError) {
            try recount()
        } catch {
            throw WebImageError(.diskIO, "cannot read the disk cache \(directory): \(error)")
        }
        var firstFailure: DiskFileError?
        if configuration.maxAge >= 0 {
            let expiration = clock() - configuration.maxAge
            for name in index.names(expiringAtOrBefore: expiration) {
                do throws(DiskFileError) {
                    try removeEntryFile(name)
                    evictions += 1
                } catch {
                    firstFailure = firstFailure ?? error
                }
            }
        }
        let limit = configuration.maxSize
        if limit > 0, ledger.value > limit, let failure = trim(toBelow: limit / 2, protecting: nil) {
            firstFailure = firstFailure ?? failure
        }
        if let firstFailure {
            throw WebImageError(.diskIO, "cannot remove expired entries from the disk cache \(directory): \(firstFailure)")
        }
    }

    /// After a write of `name`: when the directory is over the size limit, removes the least recent entries
    /// until it is below half the limit. The entry just written goes last, and only when it alone is too large
    /// for half the limit.
    ///
    /// The ledger says when: far from the limit this costs one atomic load. Over it, the directory is recounted
    /// under the ledger's lock first, unless another process trimmed while this one waited for the lock.
    func enforceSizeLimit(protecting name: String) {
        let limit = configuration.maxSize
        guard limit > 0, ledger.value > limit else { return }
        ledger.lock()
        defer { ledger.unlock() }
        guard ledger.value > limit else { return }
        try? recount()
        guard ledger.value > limit else { return }
        let target = limit / 2
        if let entry = index[name], entry.size >= target {
            // It cannot be kept below the target: drop it rather than everything else.
            if (try? removeEntryFile(name)) != nil { evictions += 1 }
            guard ledger.value > limit else { return }
            trim(toBelow: target, protecting: nil)
        } else {
            trim(toBelow: target, protecting: name)
        }
    }

    /// Removes entries, oldest first, until the ledger is strictly below `target`; `protected` is skipped.
    /// Entries whose files cannot be removed stay in the index and are skipped.
    ///
    /// - Returns: The first removal that failed, if any.
    @discardableResult
    func trim(toBelow target: Int, protecting protected: String?) -> DiskFileError? {
        var firstFailure: DiskFileError?
        for name in index.oldestFirst() {
            if ledger.value < target { break }
            if name == protected { continue }
            do throws(DiskFileError) {
                try removeEntryFile(name)
                evictions += 1
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        return firstFailure
    }
}
