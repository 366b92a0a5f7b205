import WebImageCore

/// A few idle TurboJPEG compressors kept for reuse, so that an encode does not pay for creating and destroying
/// one; decompressors are made for each call.
///
/// A decompressor is never reused: libjpeg keeps the Huffman and quantization tables of every stream an instance
/// has read (so that an abbreviated stream may use the tables of an earlier one), and a damaged file that uses a
/// table it does not define, or defines only after the scan that uses it, would decode with a table left by
/// another file. The same bytes would then decode to different pixels depending on which instance served them.
/// A fresh instance fills an undefined table with the standard one, as every decoder of the file does, and costs
/// well under a microsecond to make. A compressor sets every table it uses on each call.
///
/// Thread-safe. ``withHandle(_:_:)`` lends an instance to one caller for the length of a closure; concurrent
/// callers get distinct instances (a new one when none is idle). An instance whose closure threw is destroyed
/// rather than kept: TurboJPEG 2.1 does not reset libjpeg's state after a fatal error in every function.
final class TurboJPEGHandlePool: Sendable {
    /// The pool the JPEG coder uses.
    static let shared = TurboJPEGHandlePool()

    private let idleCompressors = Locked<[TurboJPEGHandle]>([])
    private let maximumIdle: Int

    /// Creates a pool that keeps at most `maximumIdle` idle compressors.
    init(maximumIdle: Int = 4) {
        self.maximumIdle = max(0, maximumIdle)
    }

    /// Calls `body` with an instance of `kind` that no other caller uses until `body` returns: a new decompressor,
    /// or an idle compressor.
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

    /// The number of idle instances of `kind` (always 0 for decompressors).
    func idleCount(_ kind: TurboJPEGHandle.Kind) -> Int {
        kind == .compressor ? idleCompressors.withLock { $0.count } : 0
    }

    private func take(_ kind: TurboJPEGHandle.Kind) throws(WebImageError) -> TurboJPEGHandle {
        if kind == .compressor, let reused = idleCompressors.withLock({ $0.popLast() }) {
            return reused
        }
        return try TurboJPEGHandle(kind)
    }

    private func give(_ handle: TurboJPEGHandle) {
        guard handle.kind == .compressor else { return }
        // A handle the pool has no room for is returned from the lock and destroyed outside it.
        let surplus: TurboJPEGHandle? = idleCompressors.withLock { idle in
            guard idle.count < maximumIdle else { return handle }
            idle.append(handle)
            return nil
        }
        _ = surplus
    }
}
