import Synchronization

/// A few idle TurboJPEG instances kept for reuse, so that a decode does not pay for creating and destroying one.
///
/// Thread-safe. ``withHandle(_:_:)`` lends an instance to one caller for the length of a closure; concurrent
/// callers get distinct instances (a new one when none is idle). An instance whose closure threw is destroyed
/// rather than kept: TurboJPEG 2.1 does not reset libjpeg's state after a fatal error in every function (after a
/// failed header read, the next call on that instance sees "two SOI markers").
final class TurboJPEGHandlePool: Sendable {
    /// The pool the JPEG coder uses.
    static let shared = TurboJPEGHandlePool()

    private struct Idle {
        var compressors: [TurboJPEGHandle] = []
        var decompressors: [TurboJPEGHandle] = []
    }

    private let idle = Mutex(Idle())
    private let maximumIdle: Int

    /// Creates a pool that keeps at most `maximumIdle` idle instances of each kind.
    init(maximumIdle: Int = 4) {
        self.maximumIdle = max(0, maximumIdle)
    }

    /// Calls `body` with an instance of `kind` that no other caller uses until `body` returns.
    ///
    /// The handle must not escape the closure. When `body` throws, the handle is destroyed instead of kept.
    /// - Throws: What creating an instance throws; whatever `body` throws.
    func withHandle<R>(
        _ kind: TurboJPEGHandle.Kind,
        _ body: (TurboJPEGHandle) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        let handle = try take(kind)
        let result = try body(handle)
        give(handle)
        return result
    }

    /// The number of idle instances of `kind`.
    func idleCount(_ kind: TurboJPEGHandle.Kind) -> Int {
        idle.withLock { kind == .compressor ? $0.compressors.count : $0.decompressors.count }
    }

    private func take(_ kind: TurboJPEGHandle.Kind) throws(WebImageError) -> TurboJPEGHandle {
        let reused = idle.withLock { idle in
            kind == .compressor ? idle.compressors.popLast() : idle.decompressors.popLast()
        }
        if let reused { return reused }
        return try TurboJPEGHandle(kind)
    }

    private func give(_ handle: TurboJPEGHandle) {
        // A handle the pool has no room for is returned from the lock and destroyed outside it.
        let surplus: TurboJPEGHandle? = idle.withLock { idle in
            switch handle.kind {
            case .compressor:
                guard idle.compressors.count < maximumIdle else { return handle }
                idle.compressors.append(handle)
            case .decompressor:
                guard idle.decompressors.count < maximumIdle else { return handle }
                idle.decompressors.append(handle)
            }
            return nil
        }
        _ = surplus
    }
}
