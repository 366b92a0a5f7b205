#if WEBIMAGE_THREAD_SANITIZER
import WebImageCore

/// Under ThreadSanitizer, the lock WebImageCore puts in place of Synchronization's `Mutex` (see its
/// `SanitizerMutex.swift`); a declaration of this module's own, so that it wins over the standard one here too.
typealias Mutex = WebImageCore.Mutex
#endif
