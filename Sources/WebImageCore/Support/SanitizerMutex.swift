#if WEBIMAGE_THREAD_SANITIZER
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock over `pthread_mutex_t` with the shape of Synchronization's `Mutex`, compiled only for
/// ThreadSanitizer runs (`Scripts/sanitize.sh --thread`), where it stands in for `Mutex` in every module of the
/// package: on Linux, Synchronization's `Mutex` locks with raw futex calls that the sanitizer cannot see, so it
/// would report every access made under the lock as a race. This declaration shadows the standard one for code
/// that imports this module.
///
/// `@unchecked Sendable`: the value is read and written only by `withLock`, between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` on the one heap-allocated mutex.
package struct Mutex<Value>: @unchecked Sendable {
    private final class Storage: @unchecked Sendable {
        var value: Value
        let mutex: UnsafeMutablePointer<pthread_mutex_t>

        init(_ value: Value) {
            self.value = value
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
    }

    private let storage: Storage

    package init(_ value: Value) {
        storage = Storage(value)
    }

    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(storage.mutex)
        defer { pthread_mutex_unlock(storage.mutex) }
        return try body(&storage.value)
    }
}
#endif
