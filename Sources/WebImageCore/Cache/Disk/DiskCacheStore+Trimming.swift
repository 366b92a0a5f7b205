extension DiskCacheStore {
    /// Builds the index from one listing of the directory. Run first on the IO queue when the cache opens, and
    /// again by ``removeExpiredData()``.
    ///
    /// Temporary files and orphaned sidecars older than ``staleFileAge`` are removed on the way: they are what a
    /// writer killed in the middle of a write leaves. A missing directory is an empty cache.
    package func rebuildIndex() {
        index.removeAll()
        knownSidecars.removeAll()
        guard let listing = try? fileSystem.contentsOfDirectory(atPath: directory) else { return }
        index.reserveCapacity(listing.count)
        let now = clock()
        var sidecars: [(name: String, digest: String, status: DiskFileStatus)] = []
        for item in listing {
            guard let status = item.status, status.isRegularFile else { continue }
            switch DiskCacheFileName.kind(of: item.name) {
            case .entry:
                index.update(item.name, from: status)
            case .temporary:
                if now - status.modificationTime > staleFileAge {
                    try? fileSystem.removeFile(atPath: path(item.name))
                }
            case .sidecar:
                if let digest = DiskCacheFileName.digest(ofSidecar: item.name) {
                    sidecars.append((item.name, digest, status))
                }
            case .other:
                break
            }
        }
        guard !sidecars.isEmpty else { return }
        let digests = Set(index.entries.keys.compactMap(DiskCacheFileName.digest(ofEntry:)))
        for sidecar in sidecars {
            if digests.contains(sidecar.digest) {
                knownSidecars.insert(sidecar.digest)
            } else if now - sidecar.status.modificationTime > staleFileAge {
                try? fileSystem.removeFile(atPath: path(sidecar.name))
            }
        }
    }

    /// Removes expired entries, then the least recent ones while the total is over the size limit, as
    /// SDWebImage's `removeExpiredData`, after re-reading the directory so that entries written by other
    /// processes, and dates changed behind the cache's back, count.
    ///
    /// - Age pass (unless ``DiskCache/Configuration/maxAge`` is negative): every entry whose date (per
    ///   ``DiskCache/Configuration/expireType``) is at or before now minus the age limit is removed.
    /// - Size pass (when ``DiskCache/Configuration/maxSize`` is not 0 and the total is over it): entries are
    ///   removed oldest first until the total is below half the limit.
    package func removeExpiredData() {
        rebuildIndex()
        if configuration.maxAge >= 0 {
            let expiration = clock() - configuration.maxAge
            for name in index.names(expiringAtOrBefore: expiration) {
                removeEntryFile(name)
            }
        }
        let limit = configuration.maxSize
        if limit > 0, index.totalSize > limit {
            trim(toBelow: limit / 2, protecting: nil)
        }
    }

    /// After a write of `name`: when the total is over the size limit, removes the least recent entries until
    /// it is below half the limit. The entry just written goes last, and only when it alone is too large for
    /// half the limit.
    func enforceSizeLimit(protecting name: String) {
        let limit = configuration.maxSize
        guard limit > 0, index.totalSize > limit else { return }
        let target = limit / 2
        if let entry = index[name], entry.size >= target {
            // It cannot be kept below the target: drop it rather than everything else.
            removeEntryFile(name)
            guard index.totalSize > limit else { return }
            trim(toBelow: target, protecting: nil)
        } else {
            trim(toBelow: target, protecting: name)
        }
    }

    /// Removes entries, oldest first, until the total is strictly below `target`; `protected` is skipped.
    /// Entries whose files cannot be removed stay in the index and are skipped.
    func trim(toBelow target: Int, protecting protected: String?) {
        for name in index.oldestFirst() {
            if index.totalSize < target { return }
            if name == protected { continue }
            removeEntryFile(name)
        }
    }
}
