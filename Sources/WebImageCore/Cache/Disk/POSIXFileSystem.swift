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

/// The disk cache's file operations as plain POSIX calls.
///
/// Reads open files with `O_NOATIME` where the caller may (the owner, or root), so that reading an entry does
/// not move its access date by itself: the cache sets the access date explicitly on every hit.
package struct POSIXFileSystem: DiskFileSystem {
    package init() {}

    package func createFile(atPath path: String) throws(DiskFileError) -> DiskFileDescriptor {
        let fd = retryingInterrupts { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw .last("create", path) }
        // A new file: no one else can hold its lock. A file system without locks writes unlocked.
        _ = retryingInterrupts { flock(fd, LOCK_EX | LOCK_NB) }
        return DiskFileDescriptor(rawValue: fd)
    }

    package func write(_ data: Data, to file: DiskFileDescriptor, path: String) throws(DiskFileError) {
        let failure: DiskFileError? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(file.rawValue, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return .last("write", path)
                }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }

    package func synchronize(_ file: DiskFileDescriptor, path: String) throws(DiskFileError) {
        guard retryingInterrupts({ fsync(file.rawValue) }) == 0 else { throw .last("fsync", path) }
    }

    package func status(of file: DiskFileDescriptor, path: String) throws(DiskFileError) -> DiskFileStatus {
        var info = stat()
        guard fstat(file.rawValue, &info) == 0 else { throw .last("fstat", path) }
        return DiskFileStatus(info)
    }

    package func close(_ file: DiskFileDescriptor) {
        systemClose(file.rawValue)
    }

    package func rename(_ source: String, to destination: String) throws(DiskFileError) {
        guard systemRename(source, destination) == 0 else { throw .last("rename", destination) }
    }

    package func synchronizeDirectory(atPath path: String) throws(DiskFileError) {
        let fd = retryingInterrupts { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw .last("open", path) }
        defer { systemClose(fd) }
        guard retryingInterrupts({ fsync(fd) }) == 0 else { throw .last("fsync", path) }
    }

    package func readFile(atPath path: String) throws(DiskFileError) -> (Data, DiskFileStatus) {
        var fd = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC | noAccessTime) }
        if fd < 0, errno == EPERM, noAccessTime != 0 {
            // Only the owner (or root) may ask for no access-time update.
            fd = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { throw .last("open", path) }
        defer { systemClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .last("fstat", path) }
        let status = DiskFileStatus(info)
        guard status.isRegularFile else { throw DiskFileError(code: EISDIR, operation: "read", path: path) }
        let capacity = status.size
        guard capacity > 0 else { return (Data(), status) }
        guard let buffer = malloc(capacity) else { throw DiskFileError(code: ENOMEM, operation: "read", path: path) }
        var count = 0
        while count < capacity {
            let got = read(fd, buffer + count, capacity - count)
            if got < 0 {
                if errno == EINTR { continue }
                let error = DiskFileError.last("read", path)
                free(buffer)
                throw error
            }
            if got == 0 { break }
            count += got
        }
        return (Data(bytesNoCopy: buffer, count: count, deallocator: .free), status)
    }

    package func status(atPath path: String) throws(DiskFileError) -> DiskFileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .last("stat", path) }
        return DiskFileStatus(info)
    }

    package func removeFile(atPath path: String) throws(DiskFileError) {
        guard unlink(path) == 0 else { throw .last("unlink", path) }
    }

    package func setAccessDateToNow(atPath path: String) throws(DiskFileError) {
        // Access time now, modification time untouched: needs write access or ownership, not both times.
        var times = (timespec(tv_sec: 0, tv_nsec: timeNow), timespec(tv_sec: 0, tv_nsec: timeOmit))
        let result = withUnsafePointer(to: &times) { pair in
            pair.withMemoryRebound(to: timespec.self, capacity: 2) { utimensat(AT_FDCWD, path, $0, 0) }
        }
        guard result == 0 else { throw .last("utimensat", path) }
    }

    package func contentsOfDirectory(atPath path: String) throws(DiskFileError) -> [DiskDirectoryEntry] {
        guard let directory = opendir(path) else { throw .last("opendir", path) }
        defer { closedir(directory) }
        let fd = dirfd(directory)
        var entries: [DiskDirectoryEntry] = []
        while true {
            errno = 0
            guard let item = readdir(directory) else {
                if errno != 0 { throw .last("readdir", path) }
                break
            }
            let name = withUnsafePointer(to: &item.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            let status = fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? DiskFileStatus(info) : nil
            entries.append(DiskDirectoryEntry(name: name, status: status))
        }
        return entries
    }

    package func createDirectory(atPath path: String) throws(DiskFileError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw .last("mkdir", prefix) }
            prefix += "/"
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .last("stat", path) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw DiskFileError(code: ENOTDIR, operation: "mkdir", path: path) }
    }

    package func extendedAttribute(named name: String, atPath path: String) throws(DiskFileError) -> Data? {
        while true {
            let length = getAttribute(path, name, nil, 0)
            if length < 0 {
                if errno == noAttribute { return nil }
                throw .last("getxattr", path)
            }
            guard length > 0 else { return Data() }
            var value = Data(count: length)
            let got = value.withUnsafeMutableBytes { getAttribute(path, name, $0.baseAddress, length) }
            if got < 0 {
                // The value grew between the two calls: ask again.
                if errno == ERANGE { continue }
                if errno == noAttribute { return nil }
                throw .last("getxattr", path)
            }
            return value.prefix(got)
        }
    }

    package func setExtendedAttribute(named name: String, to value: Data, atPath path: String) throws(DiskFileError) {
        let result = value.withUnsafeBytes { setAttribute(path, name, $0.baseAddress, $0.count) }
        guard result == 0 else { throw .last("setxattr", path) }
    }

    package func removeExtendedAttribute(named name: String, atPath path: String) throws(DiskFileError) {
        guard removeAttribute(path, name) == 0 || errno == noAttribute else { throw .last("removexattr", path) }
    }

    func retryingInterrupts(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result < 0, errno == EINTR { continue }
            return result
        }
    }
}

extension DiskFileStatus {
    /// The fields of a `stat` result.
    init(_ info: stat) {
        self.init(
            isRegularFile: info.st_mode & S_IFMT == S_IFREG,
            size: Int(info.st_size),
            allocatedSize: Int(info.st_blocks) * 512,
            accessTime: Self.seconds(info.accessTime),
            modificationTime: Self.seconds(info.modificationTime),
            changeTime: Self.seconds(info.changeTime)
        )
    }

    private static func seconds(_ time: timespec) -> Double {
        Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}

// MARK: Platform differences
// Free functions, because inside the file system type the names `write`, `close` and `rename` are its own.

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

private func systemClose(_ fd: Int32) {
    _ = close(fd)
}

private func systemRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}

#if canImport(Darwin)
/// No `O_NOATIME` on Darwin.
private let noAccessTime: Int32 = 0
private let timeNow = Int(UTIME_NOW)
private let timeOmit = Int(UTIME_OMIT)
private let noAttribute = ENOATTR

private func getAttribute(_ path: String, _ name: String, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int {
    getxattr(path, name, value, size, 0, XATTR_NOFOLLOW)
}

private func setAttribute(_ path: String, _ name: String, _ value: UnsafeRawPointer?, _ size: Int) -> Int32 {
    setxattr(path, name, value, size, 0, XATTR_NOFOLLOW)
}

private func removeAttribute(_ path: String, _ name: String) -> Int32 {
    removexattr(path, name, XATTR_NOFOLLOW)
}

extension stat {
    fileprivate var accessTime: timespec { st_atimespec }
    fileprivate var modificationTime: timespec { st_mtimespec }
    fileprivate var changeTime: timespec { st_ctimespec }
}
#else
/// `O_NOATIME`, a GNU extension the Glibc module leaves out; the same value on every Linux architecture Swift
/// runs on.
private let noAccessTime: Int32 = 0o1000000
/// `UTIME_NOW` and `UTIME_OMIT` of `<sys/stat.h>`, macros Swift cannot import.
private let timeNow = (1 << 30) - 1
private let timeOmit = (1 << 30) - 2
/// The `errno` of a missing extended attribute (Linux's `ENOATTR` is `ENODATA`).
private let noAttribute = ENODATA

// The Glibc module does not include <sys/xattr.h>, and WebImageCore has no C target, so the three calls are
// looked up in the C library at run time. Where they cannot be found (a static binary), every call fails with
// ENOTSUP and the cache keeps extended data in sidecar files.
private typealias GetAttribute = @Sendable @convention(c) (
    UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Int
) -> Int
private typealias SetAttribute = @Sendable @convention(c) (
    UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeRawPointer?, Int, Int32
) -> Int32
private typealias RemoveAttribute = @Sendable @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32

private let lgetxattrFunction: GetAttribute? = cLibraryFunction("lgetxattr")
private let lsetxattrFunction: SetAttribute? = cLibraryFunction("lsetxattr")
private let lremovexattrFunction: RemoveAttribute? = cLibraryFunction("lremovexattr")

private func cLibraryFunction<Function>(_ name: String) -> Function? {
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, name) else { return nil }
    return unsafeBitCast(symbol, to: Function.self)
}

private func getAttribute(_ path: String, _ name: String, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int {
    guard let function = lgetxattrFunction else {
        errno = ENOTSUP
        return -1
    }
    return function(path, name, value, size)
}

private func setAttribute(_ path: String, _ name: String, _ value: UnsafeRawPointer?, _ size: Int) -> Int32 {
    guard let function = lsetxattrFunction else {
        errno = ENOTSUP
        return -1
    }
    return function(path, name, value, size, 0)
}

private func removeAttribute(_ path: String, _ name: String) -> Int32 {
    guard let function = lremovexattrFunction else {
        errno = ENOTSUP
        return -1
    }
    return function(path, name)
}

extension stat {
    fileprivate var accessTime: timespec { st_atim }
    fileprivate var modificationTime: timespec { st_mtim }
    fileprivate var changeTime: timespec { st_ctim }
}
#endif
