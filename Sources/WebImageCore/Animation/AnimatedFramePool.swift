#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Dispatch)
import Dispatch
#endif

/// The decoded frames of one ``AnimatedImage``, kept within a byte budget and shared by every
/// ``AnimatedImagePlayer`` of that image, as SDWebImage's `SDImageFramePool`.
///
/// The budget is exact: the pool never holds more than ``maxByteCount`` bytes of frames, except that it always
/// keeps at least one frame, and except after ``AnimatedImage/preloadAllFrames()``, which holds every frame until
/// the frames are unloaded. When a new frame would pass the budget, the frames used longest ago go first.
///
/// Prefetches decode on the pool's scheduler (a serial queue of its own), at most one at a time; a prefetch asked
/// for while one is running is dropped (the player asks again on its next tick). A frame that fails to decode is
/// remembered as failed and not tried again.
///
/// Thread-safe: every method may be called from any thread. No user code runs under the pool's lock.
public final class AnimatedFramePool: Sendable {
    /// Where prefetches decode.
    package struct Scheduler: Sendable {
        let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void

        /// A scheduler that runs each decode with `schedule`, which must run the work exactly once.
        package init(_ schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
            self.schedule = schedule
        }

        /// A serial dispatch queue of its own (the default): decodes run off the player's clock thread.
        package static func serialQueue(qos: DispatchQoS = .userInitiated) -> Scheduler {
            let queue = DispatchQueue(label: "webimage.animated-frame-pool", qos: qos)
            return Scheduler { work in queue.async(execute: work) }
        }

        /// Decodes during the call that asks for the prefetch: deterministic, for tests and for rendering
        /// frames one after the other without a display.
        package static let immediate = Scheduler { work in work() }
    }

    /// The budget of a pool made without one: a quarter of the memory cache's default cost limit
    /// (``MemoryCache/defaultCostLimit``), so at most 256 MiB and in a small container a few MiB.
    public static let defaultMaxByteCount = max(ProcessMemory.defaultCacheBudget / 4, 1 << 20)

    private struct State {
        var frames: [Int: PixelBuffer] = [:]
        /// When each frame was last used, for evicting the one used longest ago.
        var lastUse: [Int: UInt64] = [:]
        var clock: UInt64 = 0
        var fetching: Int?
        var failed: Set<Int> = []
        var maxByteCount: Int
        var holdsAll = false
    }

    private let provider: any AnimatedImageProviding
    private let scheduler: Scheduler
    private let state: Locked<State>
    private let frameByteCount: Int

    init(provider: any AnimatedImageProviding, scheduler: Scheduler, maxByteCount: Int = AnimatedFramePool.defaultMaxByteCount) {
        self.provider = provider
        self.scheduler = scheduler
        self.frameByteCount = max(provider.frameSize.width * 4 * provider.frameSize.height, 1)
        self.state = Locked(State(maxByteCount: maxByteCount))
    }

    /// The most bytes of frames the pool keeps. Lowering it evicts at once, the frames used longest ago first.
    public var maxByteCount: Int {
        get { state.withLock { $0.maxByteCount } }
        set {
            let dropped = state.withLock { state -> [PixelBuffer] in
                state.maxByteCount = max(newValue, 0)
                return Self.evict(&state, keeping: nil, limit: maxFrames(state))
            }
            _ = dropped  // released outside the lock
        }
    }

    /// How many frames the budget allows: at least one.
    public var maxFrameCount: Int { state.withLock { maxFrames($0) } }

    /// The number of frames held.
    public var frameCount: Int { state.withLock { $0.frames.count } }

    /// Bytes of frames held.
    public var byteCount: Int { state.withLock { $0.frames.count * frameByteCount } }

    /// Whether every frame is held (after a preload, or when the budget fits the whole animation and every
    /// frame was shown).
    public var isAllLoaded: Bool { state.withLock { $0.frames.count == provider.frameCount } }

    /// Whether frame `index` is held.
    public func contains(frameAt index: Int) -> Bool {
        state.withLock { $0.frames[index] != nil }
    }

    /// Whether decoding frame `index` failed.
    public func hasFailed(frameAt index: Int) -> Bool {
        state.withLock { $0.failed.contains(index) }
    }

    /// Frame `index` when the pool holds it (marking it used), else nil. Never decodes.
    public func frame(at index: Int) -> PixelBuffer? {
        state.withLock { state in
            guard let frame = state.frames[index] else { return nil }
            state.clock &+= 1
            state.lastUse[index] = state.clock
            return frame
        }
    }

    /// Decodes frame `index` on the scheduler and keeps it, unless it is held, failed, out of range, or another
    /// prefetch is running. Returns whether a decode was started.
    @discardableResult
    public func prefetch(frameAt index: Int) -> Bool {
        let starts = state.withLock { state -> Bool in
            guard index >= 0, index < provider.frameCount, state.fetching == nil,
                  state.frames[index] == nil, !state.failed.contains(index) else { return false }
            state.fetching = index
            return true
        }
        guard starts else { return false }
        scheduler.schedule { [self] in
            let result: Result<PixelBuffer, WebImageError>
            do throws(WebImageError) {
                result = .success(try provider.frame(at: index))
            } catch {
                result = .failure(error)
            }
            let dropped = state.withLock { state -> [PixelBuffer] in
                state.fetching = nil
                switch result {
                case .success(let frame): return Self.insert(frame, at: index, into: &state, limit: maxFrames(state))
                case .failure: state.failed.insert(index); return []
                }
            }
            _ = dropped
        }
        return true
    }

    /// Frame `index`, decoded now on the calling thread when the pool does not hold it, and kept.
    public func loadFrame(at index: Int) throws(WebImageError) -> PixelBuffer {
        if let held = frame(at: index) { return held }
        let decoded: PixelBuffer
        do throws(WebImageError) {
            decoded = try provider.frame(at: index)
        } catch {
            state.withLock { _ = $0.failed.insert(index) }
            throw error
        }
        let dropped = state.withLock { state in Self.insert(decoded, at: index, into: &state, limit: maxFrames(state)) }
        _ = dropped
        return decoded
    }

    /// Drops every frame (keeping the budget); a preload's hold ends.
    public func removeAll() {
        let dropped = state.withLock { state -> [Int: PixelBuffer] in
            state.holdsAll = false
            state.lastUse.removeAll()
            state.failed.removeAll()
            defer { state.frames.removeAll() }
            return state.frames
        }
        _ = dropped
    }

    /// Decodes every frame not yet held, in order, and holds them all regardless of the budget.
    func preloadAll() throws(WebImageError) {
        state.withLock { $0.holdsAll = true }
        for index in 0..<provider.frameCount where !contains(frameAt: index) {
            let frame = try provider.frame(at: index)
            state.withLock { state in
                state.frames[index] = frame
                state.clock &+= 1
                state.lastUse[index] = state.clock
            }
        }
    }

    private func maxFrames(_ state: State) -> Int {
        state.holdsAll ? Int.max : max(state.maxByteCount / frameByteCount, 1)
    }

    /// Adds `frame` and evicts down to `limit`, never the new frame; returns the evicted frames, to be released
    /// after the lock.
    private static func insert(_ frame: PixelBuffer, at index: Int, into state: inout State, limit: Int) -> [PixelBuffer] {
        state.frames[index] = frame
        state.clock &+= 1
        state.lastUse[index] = state.clock
        return evict(&state, keeping: index, limit: limit)
    }

    private static func evict(_ state: inout State, keeping: Int?, limit: Int) -> [PixelBuffer] {
        var dropped: [PixelBuffer] = []
        while state.frames.count > limit {
            let victim = state.lastUse.filter { $0.key != keeping }.min { $0.value < $1.value }?.key
            guard let victim, let frame = state.frames.removeValue(forKey: victim) else { break }
            state.lastUse[victim] = nil
            dropped.append(frame)
        }
        return dropped
    }
}
