#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The ledger: how the processes sharing a directory keep one size limit.
//
// Every process keeps the count of the bytes in the directory current in the shared ledger as it writes and
// removes, with atomic additions and no lock, so that a write far from the limit costs nothing more. When the
// count goes over the limit, the process takes the ledger's lock, recounts the directory (entries written and
// removed by the others included), sets the count to what it found, and trims. Writes that others make during
// the recount are added on top of it, so the count errs on the side of too much, which only brings the next
// recount sooner.
extension DiskCacheStore {
    /// Opens the directory's shared ledger in place of the one in use; keeps the one in use when it cannot (the
    /// directory does not exist yet, or is read-only).
    func openLedger() {
        do throws(DiskFileError) {
            ledger = try fileSystem.openSharedCounter(atPath: path(DiskCacheFileName.ledger))
            sharesLedger = true
            ledgerRefused = false
        } catch {
            // A missing directory may appear at any moment; a refusal stays until the next recount asks again.
            ledgerRefused = !error.isNotFound
        }
    }

    /// Re-reads the directory into the index and sets the ledger to what the directory holds: the entries and
    /// the temporary files of writes in progress. Temporary files that writers which died left are removed, and
    /// sidecars of no entry older than ``staleFileAge``. The caller holds the ledger's lock.
    ///
    /// - Throws: The listing's error; a missing directory is an empty cache.
    func recount() throws(DiskFileError) {
        let before = ledger.value
        let listing: [DiskDirectoryEntry]
        do throws(DiskFileError) {
            listing = try fileSystem.contentsOfDirectory(atPath: directory)
        } catch {
            guard error.code == ENOENT else { throw error }
            listing = []
        }
        index.removeAll()
        knownSidecars.removeAll()
        index.reserveCapacity(listing.count)
        let now = clock()
        var temporaryBytes = 0
        var sidecars: [(name: String, digest: String, status: DiskFileStatus)] = []
        for item in listing {
            guard let status = item.status, status.isRegularFile else { continue }
            switch DiskCacheFileName.kind(of: item.name) {
            case .entry:
                index.update(item.name, from: status)
            case .temporary:
                if !removeIfOrphaned(item.name, status: status, now: now) { temporaryBytes += status.allocatedSize }
            case .sidecar:
                if let digest = DiskCacheFileName.digest(ofSidecar: item.name) {
                    sidecars.append((item.name, digest, status))
                }
            case .other:
                break
            }
        }
        ledger.add(index.totalSize + temporaryBytes - before)
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

    /// Removes the temporary file `name` when a writer that died left it: older than ``orphanAge`` and locked by
    /// no process. True when the file is gone; false when it stays (a write in progress, or too young to tell).
    func removeIfOrphaned(_ name: String, status: DiskFileStatus, now: Double) -> Bool {
        guard now - status.modificationTime > orphanAge else { return false }
        return (try? fileSystem.removeFileUnlessLocked(atPath: path(name))) ?? false
    }
}
