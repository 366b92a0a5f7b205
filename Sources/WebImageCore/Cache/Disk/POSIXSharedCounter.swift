#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A ``DiskSharedCounter`` kept in one page of a file, mapped into every process that opens it (`MAP_SHARED`),
/// with `flock` on the same file as its lock.
///
/// The page holds a tag (the format's name and version) in its first 8 bytes and the count in the next 8, both
/// changed only with atomic instructions, which work across processes on one machine. The file's blocks are
/// allocated when it is opened, because a store into a page that is a hole of the file kills the process with
/// `SIGBUS` when the device is full; the file must never be truncated while it is mapped, for the same reason.
/// Processes on different machines sharing a network file system do not share the count.
package final class POSIXSharedCounter: DiskSharedCounter {
    /// ASCII `swi-ldg1`: the page's first 8 bytes once a process has opened it.
    static let tag: UInt64 = 0x7377_692D_6C64_6731
    /// The bytes mapped: one page on every system Swift runs on.
    static let length = 4096

    private let path: String
    private var file: Int32
    private var page: UnsafeMutableRawPointer
    private var count: UnsafeMutablePointer<Atomic<Int64>>

    /// Opens the counter in the file at `path`, creating the file (as zeros, counting 0) when it is missing.
    ///
    /// - Throws: The failed call's error; `EBADMSG` when the file holds something other than a counter.
    package init(path: String) throws(DiskFileError) {
        self.path = path
        (file, page, count) = try Self.open(path)
    }

    deinit {
        Self.close(file, page)
    }

    package var value: Int {
        Int(count.pointee.load(ordering: .relaxed))
    }

    package func add(_ delta: Int) {
        count.pointee.wrappingAdd(Int64(delta), ordering: .relaxed)
    }

    package func lock() {
        while true {
            guard retryingInterrupts({ flock(file, LOCK_EX) }) == 0 else { return }
            // The lock guards the file at `path` only while it is that file: when the directory was removed and
            // made again since this one was opened, the others open the new file, so this one moves to it too.
            var held = stat()
            var current = stat()
            guard fstat(file, &held) == 0, stat(path, &current) == 0,
                  held.st_dev != current.st_dev || held.st_ino != current.st_ino,
                  let (newFile, newPage, newCount) = try? Self.open(path)
            else { return }
            _ = flock(file, LOCK_UN)
            Self.close(file, page)
            (file, page, count) = (newFile, newPage, newCount)
        }
    }

    package func unlock() {
        _ = flock(file, LOCK_UN)
    }

    private static func open(_ path: String) throws(DiskFileError) -> (Int32, UnsafeMutableRawPointer, UnsafeMutablePointer<Atomic<Int64>>) {
        let fd = retryingInterrupts { systemOpen(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        guard fd >= 0 else { throw .last("open", path) }
        let allocated = allocate(fd, length)
        guard allocated == 0 else {
            closeFile(fd)
            throw DiskFileError(code: allocated, operation: "fallocate", path: path)
        }
        guard let page = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), page != MAP_FAILED else {
            let error = DiskFileError.last("mmap", path)
            closeFile(fd)
            throw error
        }
        let tag = page.bindMemory(to: Atomic<UInt64>.self, capacity: 1)
        let count = (page + 8).bindMemory(to: Atomic<Int64>.self, capacity: 1)
        // A new file is zeros: the first process to map it tags it. Another tag is another format.
        let (tagged, found) = tag.pointee.compareExchange(expected: 0, desired: Self.tag, ordering: .relaxed)
        guard tagged || found == Self.tag else {
            close(fd, page)
            throw DiskFileError(code: EBADMSG, operation: "open", path: path)
        }
        return (fd, page, count)
    }

    private static func close(_ fd: Int32, _ page: UnsafeMutableRawPointer) {
        _ = munmap(page, length)
        closeFile(fd)
    }
}

private func retryingInterrupts(_ call: () -> Int32) -> Int32 {
    while true {
        let result = call()
        if result < 0, errno == EINTR { continue }
        return result
    }
}

private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

private func closeFile(_ fd: Int32) {
    _ = close(fd)
}

/// Allocates the first `length` bytes of the file without changing what they hold; an `errno` value, 0 on
/// success.
private func allocate(_ fd: Int32, _ length: Int) -> Int32 {
    #if canImport(Darwin)
    // No posix_fallocate: extending the file is the best there is.
    var info = stat()
    guard fstat(fd, &info) == 0 else { return errno }
    guard info.st_size < off_t(length) else { return 0 }
    return ftruncate(fd, off_t(length)) == 0 ? 0 : errno
    #else
    return posix_fallocate(fd, 0, off_t(length))
    #endif
}
