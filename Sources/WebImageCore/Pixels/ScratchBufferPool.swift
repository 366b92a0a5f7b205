#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pool of large scratch buffers (a full-size decode that is then scaled down, an orientation pass), reused
/// between decodes.
///
/// A fresh buffer of tens of megabytes costs about as much to fault in as decoding into it; a reused buffer's
/// pages are already mapped. The pool keeps at most ``maximumRetainedBytes`` of idle buffers and at most
/// ``maximumRetainedCount`` of them; buffers above that are freed when returned.
///
/// Thread-safe. `withBuffer` hands out a buffer for the duration of a closure; concurrent callers get distinct
/// buffers.
package final class ScratchBufferPool: Sendable {
    /// The pool the codecs use.
    package static let shared = ScratchBufferPool()

    private struct Slot: @unchecked Sendable {
        // Sendable because a slot is only ever owned by the pool's locked list or by exactly one borrower.
        let pointer: UnsafeMutableRawPointer
        let capacity: Int
    }

    private struct State {
        var idle: [Slot] = []
        var retainedBytes = 0
        var maximumBytes: Int
        var maximumCount: Int
    }

    private let state: Locked<State>

    /// Creates a pool.
    package init(maximumRetainedBytes: Int = 256 << 20, maximumRetainedCount: Int = 4) {
        state = Locked(State(maximumBytes: maximumRetainedBytes, maximumCount: maximumRetainedCount))
    }

    deinit {
        state.withLock { state in
            for slot in state.idle { free(slot.pointer) }
        }
    }

    /// The most bytes of idle buffers kept for reuse; setting it frees idle buffers at once if needed.
    package var maximumRetainedBytes: Int {
        get { state.withLock { $0.maximumBytes } }
        set { freeAll(state.withLock { $0.maximumBytes = max(0, newValue); return trimmed(&$0) }) }
    }

    /// The most idle buffers kept for reuse.
    package var maximumRetainedCount: Int {
        get { state.withLock { $0.maximumCount } }
        set { freeAll(state.withLock { $0.maximumCount = max(0, newValue); return trimmed(&$0) }) }
    }

    /// Bytes held by idle buffers now.
    package var retainedBytes: Int { state.withLock { $0.retainedBytes } }

    /// Frees every idle buffer.
    package func removeAll() {
        freeAll(state.withLock { state in
            let all = state.idle
            state.idle = []
            state.retainedBytes = 0
            return all
        })
    }

    /// Calls `body` with a buffer of at least `byteCount` bytes, uninitialised, and takes it back afterwards.
    ///
    /// The pointer must not escape the closure.
    /// - Throws: `imageTooLarge` when the memory cannot be had; whatever `body` throws.
    package func withBuffer<R>(
        byteCount: Int,
        _ body: (UnsafeMutableRawBufferPointer) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        guard let slot = take(byteCount) else {
            throw WebImageError(.imageTooLarge, "cannot allocate a scratch buffer of \(byteCount) bytes")
        }
        defer { give(slot) }
        return try body(UnsafeMutableRawBufferPointer(start: slot.pointer, count: byteCount))
    }

    private func take(_ byteCount: Int) -> Slot? {
        // Sizes come from image headers: refuse what cannot be a real request rather than overflow below.
        guard byteCount >= 0, byteCount < Int.max / 2 else { return nil }
        let needed = max(1, byteCount)
        let reused: Slot? = state.withLock { state in
            var best: Int?
            for (i, slot) in state.idle.enumerated() where slot.capacity >= needed {
                if best == nil || slot.capacity < state.idle[best!].capacity { best = i }
            }
            guard let best else { return nil }
            let slot = state.idle.remove(at: best)
            state.retainedBytes -= slot.capacity
            return slot
        }
        if let reused { return reused }
        // Round up so that sizes a little apart share a buffer.
        let capacity = needed <= 1 << 16 ? needed : (needed + (needed >> 4) + 4095) & ~4095
        guard let pointer = malloc(capacity) else { return nil }
        return Slot(pointer: pointer, capacity: capacity)
    }

    private func give(_ slot: Slot) {
        freeAll(state.withLock { state in
            state.idle.append(slot)
            state.retainedBytes += slot.capacity
            return trimmed(&state)
        })
    }

    /// Drops the smallest idle buffers until the limits hold; returns what the caller must free outside the lock.
    private func trimmed(_ state: inout State) -> [Slot] {
        var dropped: [Slot] = []
        while !state.idle.isEmpty, state.retainedBytes > state.maximumBytes || state.idle.count > state.maximumCount {
            var smallest = 0
            for (i, slot) in state.idle.enumerated() where slot.capacity < state.idle[smallest].capacity {
                smallest = i
            }
            let slot = state.idle.remove(at: smallest)
            state.retainedBytes -= slot.capacity
            dropped.append(slot)
        }
        return dropped
    }

    private func freeAll(_ slots: [Slot]) {
        for slot in slots { free(slot.pointer) }
    }
}
