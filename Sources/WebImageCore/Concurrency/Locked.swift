#if WEBIMAGE_THREAD_SANITIZER
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#else
import Synchronization
#endif

/// A value that only the holder of its lock may read or write: the package's one lock type, used by every module
/// and test target.
///
/// It is Synchronization's `Mutex`, except under ThreadSanitizer (`Scripts/sanitize.sh --thread`, which compiles
/// with `WEBIMAGE_THREAD_SANITIZER`): there it locks a `pthread_mutex_t`, as on Linux `Mutex` locks with raw
/// futex calls that the sanitizer cannot see, so it would report every access made under the lock as a race.
///
/// `withLock` runs its body on the calling thread with the lock held; the lock is not recursive. Never call user
/// code, resume a continuation or wait for another lock's holder inside the body: take what is needed out, and act
/// after the lock is released.
package struct Locked<Value>: ~Copyable {
    #if WEBIMAGE_THREAD_SANITIZER
    /// The value and the mutex, each in memory of its own behind a constant pointer: the sanitizer then sees the
    /// plain loads and stores made under the mutex. A `var` property of this class would be a Swift access, which
    /// the sanitizer checks against the object as a whole: the read of `mutex` before locking would race with a
    /// write of the value under the lock in another thread.
    @usableFromInline
    final class Storage {
        @usableFromInline let value: UnsafeMutablePointer<Value>
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

        init(_ value: sending Value) {
            self.value = .allocate(capacity: 1)
            self.value.initialize(to: value)
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            value.deinitialize(count: 1)
            value.deallocate()
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
    }

    @usableFromInline let storage: Storage

    /// Creates a lock around `value`.
    package init(_ value: sending Value) {
        storage = Storage(value)
    }

    /// Runs `body` with the value, the lock held; returns what it returns.
    @inlinable
    package borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(storage.mutex)
        defer { pthread_mutex_unlock(storage.mutex) }
        return try body(&storage.value.pointee)
    }
    #else
    @usableFromInline let mutex: Mutex<Value>

    /// Creates a lock around `value`.
    package init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, the lock held; returns what it returns.
    @inlinable
    package borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock(body)
    }
    #endif
}

#if WEBIMAGE_THREAD_SANITIZER
// Unchecked: the value is read and written only by `withLock`, between `pthread_mutex_lock` and
// `pthread_mutex_unlock` on the one heap-allocated mutex.
extension Locked: @unchecked Sendable {}
#else
extension Locked: Sendable {}
#endif
