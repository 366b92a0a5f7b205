#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What processes sharing a cache directory need of each other: the locks of files being written, and the
// shared ledger.
extension POSIXFileSystem {
    package func removeFileUnlessLocked(atPath path: String) throws(DiskFileError) -> Bool {
        let fd = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        guard fd >= 0 else {
            if errno == ENOENT { return true }
            throw .last("open", path)
        }
        defer { closeDescriptor(fd) }
        guard retryingInterrupts({ flock(fd, LOCK_EX | LOCK_NB) }) == 0 else {
            if errno == EWOULDBLOCK { return false }
            throw .last("flock", path)
        }
        // The lock is on the file opened; remove the name only while it still names that file.
        var held = stat()
        var current = stat()
        guard fstat(fd, &held) == 0 else { throw .last("fstat", path) }
        guard stat(path, &current) == 0 else {
            if errno == ENOENT { return true }
            throw .last("stat", path)
        }
        guard held.st_dev == current.st_dev, held.st_ino == current.st_ino else { return false }
        guard unlink(path) == 0 || errno == ENOENT else { throw .last("unlink", path) }
        return true
    }

    package func openSharedCounter(atPath path: String) throws(DiskFileError) -> any DiskSharedCounter {
        try POSIXSharedCounter(path: path)
    }
}

/// `close`, which inside the file system type names its own method.
private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
