#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ContiguousBytes {
    /// `withUnsafeBytes` for closures that throw ``WebImageError`` (on `Data`, `[UInt8]` and the other
    /// contiguous byte containers): the standard method is `rethrows`, which widens a typed error to `any Error`.
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(WebImageError) -> R) throws(WebImageError) -> R {
        let result: Result<R, WebImageError> = withUnsafeBytes { bytes in
            do throws(WebImageError) {
                return .success(try body(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
