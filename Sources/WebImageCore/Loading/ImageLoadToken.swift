/// One caller's part of a load in progress.
public protocol ImageLoadToken: AnyObject, Sendable {
    /// Cancels this caller's part: its completion runs at once with `cancelled` unless it has already run, and
    /// nothing is delivered to it after that. Thread-safe, returns at once; calling it again does nothing.
    func cancel()

    /// Whether ``cancel()`` was called before the load finished.
    var isCancelled: Bool { get }

    /// Whether this caller's completion has run or been claimed by a cancellation.
    var isFinished: Bool { get }
}

/// A token over a ``CompletionLatch``, for loaders that finish a single caller.
package final class LatchLoadToken<Success: Sendable>: ImageLoadToken {
    let latch: CompletionLatch<Success>

    package init(latch: CompletionLatch<Success>) {
        self.latch = latch
    }

    package func cancel() {
        latch.cancel()
    }

    package var isCancelled: Bool { latch.isCancelled }
    package var isFinished: Bool { latch.isDone }
}
