#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed file operation: the `errno` value, the operation and the path, for a ``DiskFileSystem``.
///
/// The disk cache turns it into a `diskIO` ``WebImageError`` that also names the key.
package struct DiskFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value.
    package var code: Int32
    /// What was being done: "open", "write", "rename" ...
    package var operation: String
    /// The file concerned.
    package var path: String

    package init(code: Int32, operation: String, path: String) {
        self.code = code
        self.operation = operation
        self.path = path
    }

    /// The error of the last failed system call (`errno`).
    package static func last(_ operation: String, _ path: String) -> DiskFileError {
        DiskFileError(code: errno, operation: operation, path: path)
    }

    /// Whether the file (or a directory on its path) does not exist.
    package var isNotFound: Bool { code == ENOENT || code == ENOTDIR }

    /// Whether the file system refuses extended attributes on this file, or refuses one of this size: the cache
    /// then keeps extended data in a sidecar file.
    package var refusesExtendedAttributes: Bool {
        code == ENOTSUP || code == EOPNOTSUPP || code == EPERM || code == E2BIG || code == ERANGE || code == ENOSPC
    }

    /// The system's text for the error number.
    package var reason: String { String(cString: strerror(code)) }

    /// `"<operation> <path>: <reason>"`.
    package var description: String { "\(operation) \(path): \(reason)" }
}
