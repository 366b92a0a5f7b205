#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The file operations the disk cache uses, one system call (or one loop of them) each, so that tests can put a
/// failing file system in place of the real one: a full disk, a read-only mount, a file system without extended
/// attributes.
///
/// Every method may fail with a ``DiskFileError`` that carries the `errno` value, the operation and the path.
/// Implementations are called only from a disk cache's IO queue, but must be `Sendable` because one may serve
/// several caches.
package protocol DiskFileSystem: Sendable {
    /// Creates a new file for writing, failing with `EEXIST` when the name is taken (`O_CREAT | O_EXCL`), and
    /// takes an exclusive lock on it (`flock`), held until the descriptor is closed, so that other processes can
    /// tell a file being written from one a dead writer left (``removeFileUnlessLocked(atPath:)``). Where the
    /// file system refuses locks, the file is created without one.
    func createFile(atPath path: String) throws(DiskFileError) -> DiskFileDescriptor
    /// Writes every byte of `data` at the file's current offset.
    func write(_ data: Data, to file: DiskFileDescriptor, path: String) throws(DiskFileError)
    /// Flushes the file's data and metadata to the device (`fsync`).
    func synchronize(_ file: DiskFileDescriptor, path: String) throws(DiskFileError)
    /// The status of an open file (`fstat`).
    func status(of file: DiskFileDescriptor, path: String) throws(DiskFileError) -> DiskFileStatus
    /// Closes a descriptor; errors are ignored, as the data was flushed or is thrown away.
    func close(_ file: DiskFileDescriptor)
    /// Renames `source` to `destination`, replacing a file of that name atomically.
    func rename(_ source: String, to destination: String) throws(DiskFileError)
    /// Flushes a directory's entries to the device, so that a rename survives a power loss.
    func synchronizeDirectory(atPath path: String) throws(DiskFileError)
    /// The whole content of a file and the status of the file it was read from (one open, `fstat`, reads).
    func readFile(atPath path: String) throws(DiskFileError) -> (Data, DiskFileStatus)
    /// The status of the file at `path` (`stat`, following symbolic links).
    func status(atPath path: String) throws(DiskFileError) -> DiskFileStatus
    /// Removes a file (`unlink`).
    func removeFile(atPath path: String) throws(DiskFileError)
    /// Removes a file unless a process holds its lock (a writer between ``createFile(atPath:)`` and closing the
    /// file): true when the file is gone (removed, or already gone), false when it is held and stays.
    func removeFileUnlessLocked(atPath path: String) throws(DiskFileError) -> Bool
    /// Opens the file at `path` (creating it when missing) as a counter that every process opening it shares.
    func openSharedCounter(atPath path: String) throws(DiskFileError) -> any DiskSharedCounter
    /// Sets the file's access date to now and leaves its modification date alone.
    func setAccessDateToNow(atPath path: String) throws(DiskFileError)
    /// The entries of a directory other than `.` and `..`, each with its status; the status is nil when the
    /// entry vanished between listing and `stat`.
    func contentsOfDirectory(atPath path: String) throws(DiskFileError) -> [DiskDirectoryEntry]
    /// Creates a directory and any missing parents; succeeds when it exists already.
    func createDirectory(atPath path: String) throws(DiskFileError)
    /// The value of an extended attribute, or nil when the file has no attribute of that name.
    func extendedAttribute(named name: String, atPath path: String) throws(DiskFileError) -> Data?
    /// Sets an extended attribute, replacing any value it had.
    func setExtendedAttribute(named name: String, to value: Data, atPath path: String) throws(DiskFileError)
    /// Removes an extended attribute; succeeds when the file has none of that name.
    func removeExtendedAttribute(named name: String, atPath path: String) throws(DiskFileError)
}

/// An open file descriptor handed out by a ``DiskFileSystem``.
package struct DiskFileDescriptor: Sendable, Hashable {
    /// The descriptor number.
    package let rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }
}

/// One name in a directory listing.
package struct DiskDirectoryEntry: Sendable {
    /// The file name (a single path component).
    package var name: String
    /// The file's status, or nil when it vanished before it could be examined.
    package var status: DiskFileStatus?

    package init(name: String, status: DiskFileStatus?) {
        self.name = name
        self.status = status
    }
}

/// What `stat` says about a file, in the units the cache uses.
package struct DiskFileStatus: Sendable, Hashable {
    /// Whether this is a regular file (not a directory, device, socket...).
    package var isRegularFile: Bool
    /// The length of the content in bytes.
    package var size: Int
    /// The bytes the file occupies on the device: `st_blocks` × 512.
    package var allocatedSize: Int
    /// Last access, seconds since 1970.
    package var accessTime: Double
    /// Last change of the content, seconds since 1970.
    package var modificationTime: Double
    /// Last change of the content or the attributes (inode change), seconds since 1970.
    package var changeTime: Double

    package init(
        isRegularFile: Bool = true,
        size: Int,
        allocatedSize: Int,
        accessTime: Double,
        modificationTime: Double,
        changeTime: Double
    ) {
        self.isRegularFile = isRegularFile
        self.size = size
        self.allocatedSize = allocatedSize
        self.accessTime = accessTime
        self.modificationTime = modificationTime
        self.changeTime = changeTime
    }

    /// The date a cache with `expireType` orders and expires this file by.
    package func time(for expireType: DiskCache.ExpireType) -> Double {
        switch expireType {
        case .accessDate: accessTime
        case .modificationDate: modificationTime
        case .changeDate: changeTime
        }
    }
}
