#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A disk cache's operations for code already running on its IO queue.
///
/// ``DiskCache`` runs every file operation on one serial queue and hands this object to the work it runs there
/// (``DiskCache/perform(_:)``), so that a caller such as the image cache can read, decode-check and write in one
/// hop. It is not `Sendable` and not thread-safe: use it only inside the closure that received it, never after.
package final class DiskCacheStore {
    /// The cache directory, without a trailing slash.
    package let directory: String
    package let configuration: DiskCache.Configuration
    let fileSystem: any DiskFileSystem
    /// Now, in seconds since 1970; a parameter so that tests can move time.
    let clock: @Sendable () -> Double
    /// Orphaned sidecars older than this (seconds) are left over from a writer that died; younger ones may
    /// belong to a write in progress in another process.
    package let staleFileAge: Double = 5 * 60
    /// A temporary file older than this (seconds) whose lock no process holds was left by a writer that died. A
    /// writer locks its temporary file the moment it has created it, long before this.
    package let orphanAge: Double = 5

    var index: DiskCacheIndex
    /// The bytes the directory's entries and temporary files occupy, as every process that uses the directory
    /// keeps count of them in its ledger file (``DiskCacheFileName/ledger``); this process's own count until the
    /// directory exists, or when the directory cannot hold the shared one.
    var ledger: any DiskSharedCounter = ProcessLocalCounter()
    /// Whether ``ledger`` is the directory's shared one.
    var sharesLedger = false
    /// Whether the directory refused the shared ledger when this store last asked; writes then do not ask again.
    var ledgerRefused = false
    /// Digests whose sidecar this store wrote or found, so that removing an entry removes its sidecar without a
    /// system call per entry.
    var knownSidecars: Set<String> = []

    init(directory: String, configuration: DiskCache.Configuration, fileSystem: any DiskFileSystem, clock: @escaping @Sendable () -> Double) {
        var directory = directory
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        self.directory = directory
        self.configuration = configuration
        self.fileSystem = fileSystem
        self.clock = clock
        index = DiskCacheIndex(expireType: configuration.expireType)
    }

    /// The full path of a file in the cache directory.
    func path(_ name: String) -> String {
        directory + "/" + name
    }

    /// The path of `key`'s entry (it may not exist).
    package func path(forKey key: String) -> String {
        path(DiskCache.fileName(forKey: key))
    }

    // MARK: Reading

    /// The data stored under `key`, or nil.
    ///
    /// Tries the entry's name, then the name without extension, then the configuration's additional lookup
    /// path. A hit in the cache sets the file's access date to now. A file that is gone is a miss and leaves
    /// the index; a file replaced behind the cache's back is read as it is now and the index follows it.
    package func data(forKey key: String) -> Data? {
        let names = DiskCacheFileName.Names(key: key)
        for name in names.lookupOrder {
            if let data = readEntry(name) { return data }
        }
        if let extra = configuration.additionalLookupPath?(key),
           let (data, _) = try? fileSystem.readFile(atPath: extra) {
            return data
        }
        return nil
    }

    /// Whether `data(forKey:)` would find something, without reading it or moving its access date.
    package func containsData(forKey key: String) -> Bool {
        let names = DiskCacheFileName.Names(key: key)
        for name in names.lookupOrder {
            do throws(DiskFileError) {
                let status = try fileSystem.status(atPath: path(name))
                if status.isRegularFile {
                    index.update(name, from: status)
                    return true
                }
            } catch {
                if error.isNotFound { index.remove(name) }
            }
        }
        if let extra = configuration.additionalLookupPath?(key),
           let status = try? fileSystem.status(atPath: extra) {
            return status.isRegularFile
        }
        return false
    }

    /// Reads one entry file, records it in the index and marks it used.
    private func readEntry(_ name: String) -> Data? {
        let path = path(name)
        do throws(DiskFileError) {
            let (data, status) = try fileSystem.readFile(atPath: path)
            index.update(name, from: status)
            // A read-only cache still serves hits; only the access date stays behind.
            if (try? fileSystem.setAccessDateToNow(atPath: path)) != nil {
                index.touch(name, at: clock())
            }
            return data
        } catch {
            if error.isNotFound { index.remove(name) }
            return nil
        }
    }

    /// The content of an entry file by name, without moving its access date; nil when it cannot be read.
    package func contentsOfEntry(named name: String) -> Data? {
        try? fileSystem.readFile(atPath: path(name)).0
    }

    /// The names of the entries the index holds, sorted.
    package var entryNames: [String] { index.entries.keys.sorted() }

    // MARK: Writing

    /// Stores `data` under `key`, replacing what was there, and enforces ``DiskCache/Configuration/maxSize``.
    ///
    /// The bytes go to a hidden temporary file in the cache directory, which is then renamed over the entry, so
    /// that no reader ever sees part of a file. Storing drops the key's extended data, as the new content has
    /// none. An entry of half the size limit or more is not kept (and the key's old entry is removed), so that
    /// one huge entry cannot flush the cache. The ledger counts the bytes from the moment the temporary file
    /// exists.
    ///
    /// - Throws: `diskIO`, naming the key and the path, when the directory cannot be created or the file cannot
    ///   be written; what was stored before stays intact.
    package func setData(_ data: Data, forKey key: String) throws(WebImageError) {
        let names = DiskCacheFileName.Names(key: key)
        let limit = configuration.maxSize
        if limit > 0, data.count >= limit / 2 {
            removeEntry(names)
            return
        }
        do throws(DiskFileError) {
            let status = try writeAtomically(data, named: names.primary, digest: names.digest, counted: true)
            index.update(names.primary, from: status)
            try? fileSystem.removeFile(atPath: path(DiskCacheFileName.sidecar(forDigest: names.digest)))
            knownSidecars.remove(names.digest)
            if configuration.syncsWrites { try fileSystem.synchronizeDirectory(atPath: directory) }
        } catch {
            throw WebImageError(.diskIO, "cannot store the key \"\(key)\": \(error)")
        }
        enforceSizeLimit(protecting: names.primary)
    }

    /// Writes a temporary file and renames it to `name`; the status is the new file's.
    ///
    /// The temporary file is locked from its creation until it has its new name, so that no process takes it
    /// for an orphan. A `counted` write keeps the ledger current: the bytes count from the moment the temporary
    /// file exists, and the file the rename replaces stops counting. On failure the temporary file is removed,
    /// its bytes stop counting, and the file called `name` is as it was.
    func writeAtomically(_ data: Data, named name: String, digest: String, counted: Bool) throws(DiskFileError) -> DiskFileStatus {
        let (file, temporary) = try createTemporaryFile(digest: digest)
        // Another process made the directory since this cache opened: share its ledger from the first write.
        if counted, !sharesLedger, !ledgerRefused { openLedger() }
        let reserved = counted ? data.count : 0
        ledger.add(reserved)
        do throws(DiskFileError) {
            try fileSystem.write(data, to: file, path: temporary)
            if configuration.syncsWrites { try fileSystem.synchronize(file, path: temporary) }
            let status = try fileSystem.status(of: file, path: temporary)
            let destination = path(name)
            // Looked at now, not in the index: another process may have replaced or removed the file since.
            var replaced = 0
            if counted, let old = try? fileSystem.status(atPath: destination), old.isRegularFile { replaced = old.allocatedSize }
            try fileSystem.rename(temporary, to: destination)
            fileSystem.close(file)
            ledger.add(status.allocatedSize - reserved - replaced)
            return status
        } catch {
            fileSystem.close(file)
            try? fileSystem.removeFile(atPath: temporary)
            ledger.add(-reserved)
            throw error
        }
    }

    /// Creates a fresh temporary file, creating the cache directory when it is missing (and then opening its
    /// ledger: what the index knew of the directory is gone with it).
    private func createTemporaryFile(digest: String) throws(DiskFileError) -> (DiskFileDescriptor, String) {
        var createdDirectory = false
        var attempts = 0
        while true {
            let temporary = path(DiskCacheFileName.temporary(forDigest: digest))
            do throws(DiskFileError) {
                return (try fileSystem.createFile(atPath: temporary), temporary)
            } catch {
                attempts += 1
                if error.code == EEXIST, attempts < 8 { continue }
                if error.isNotFound, !createdDirectory {
                    try fileSystem.createDirectory(atPath: directory)
                    createdDirectory = true
                    index.removeAll()
                    knownSidecars.removeAll()
                    openLedger()
                    continue
                }
                throw error
            }
        }
    }

    // MARK: Removing

    /// Removes `key`'s entry under both names, and its extended data.
    package func removeData(forKey key: String) {
        removeEntry(DiskCacheFileName.Names(key: key))
    }

    private func removeEntry(_ names: DiskCacheFileName.Names) {
        for name in names.lookupOrder { try? removeEntryFile(name) }
        try? fileSystem.removeFile(atPath: path(DiskCacheFileName.sidecar(forDigest: names.digest)))
        knownSidecars.remove(names.digest)
    }

    /// Removes one entry file and, when one is known, its sidecar; its bytes stop counting. A file already gone
    /// leaves the index; one that cannot be removed stays in it.
    ///
    /// - Throws: The error of the removal, when it is not that the file is gone.
    func removeEntryFile(_ name: String) throws(DiskFileError) {
        let path = path(name)
        // The size of a file this process has not seen yet, such as one another process wrote, is looked up.
        let size = index[name]?.size ?? (try? fileSystem.status(atPath: path))?.allocatedSize ?? 0
        do throws(DiskFileError) {
            try fileSystem.removeFile(atPath: path)
            ledger.add(-size)
        } catch {
            guard error.isNotFound else { throw error }
        }
        index.remove(name)
        if let digest = DiskCacheFileName.digest(ofEntry: name), knownSidecars.remove(digest) != nil {
            try? fileSystem.removeFile(atPath: self.path(DiskCacheFileName.sidecar(forDigest: digest)))
        }
    }

    /// Removes every entry and sidecar in the directory, including those other processes wrote, and the
    /// temporary files that writers which died left. The temporary files of writes in progress stay, and count.
    ///
    /// - Throws: `diskIO` naming the directory when it cannot be listed (a missing directory is an empty cache)
    ///   or a file cannot be removed; the files that could be removed are gone and the index says so.
    package func removeAll() throws(WebImageError) {
        if !sharesLedger { openLedger() }
        ledger.lock()
        defer { ledger.unlock() }
        let before = ledger.value
        let listing: [DiskDirectoryEntry]
        do throws(DiskFileError) {
            listing = try fileSystem.contentsOfDirectory(atPath: directory)
        } catch {
            if error.code == ENOENT {
                index.removeAll()
                knownSidecars.removeAll()
                return
            }
            throw WebImageError(.diskIO, "cannot empty the disk cache \(directory): \(error)")
        }
        var firstFailure: DiskFileError?
        var remaining: [String: DiskFileStatus] = [:]
        var remainingBytes = 0
        let now = clock()
        for item in listing {
            guard let status = item.status, status.isRegularFile else { continue }
            let kind = DiskCacheFileName.kind(of: item.name)
            switch kind {
            case .entry, .sidecar:
                do throws(DiskFileError) {
                    try fileSystem.removeFile(atPath: path(item.name))
                } catch {
                    if !error.isNotFound {
                        firstFailure = firstFailure ?? error
                        if kind == .entry {
                            remaining[item.name] = status
                            remainingBytes += status.allocatedSize
                        }
                    }
                }
            case .temporary:
                if !removeIfOrphaned(item.name, status: status, now: now) { remainingBytes += status.allocatedSize }
            case .other:
                break
            }
        }
        index.removeAll()
        for (name, status) in remaining { index.update(name, from: status) }
        knownSidecars.removeAll()
        ledger.add(remainingBytes - before)
        if let firstFailure {
            throw WebImageError(.diskIO, "cannot empty the disk cache \(directory): \(firstFailure)")
        }
    }

    // MARK: Size and statistics

    /// The bytes the entries occupy on disk (allocated blocks), from the index.
    package var totalSize: Int { index.totalSize }

    /// The number of entries, from the index.
    package var totalCount: Int { index.count }

    /// The entries this store has removed for the age or size limit since it was made.
    package internal(set) var evictions = 0

    /// Count, size, access range and limits, from the index.
    package func statistics() -> DiskCache.Statistics {
        let range = index.accessRange
        return DiskCache.Statistics(
            count: index.count,
            totalSize: index.totalSize,
            oldestAccess: range.map { Date(timeIntervalSince1970: $0.oldest) },
            newestAccess: range.map { Date(timeIntervalSince1970: $0.newest) },
            maxSize: configuration.maxSize,
            maxAge: configuration.maxAge
        )
    }
}
