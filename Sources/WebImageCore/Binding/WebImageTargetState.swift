#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The binding state a ``WebImageTarget`` keeps: per operation key, the running load (held weakly) and what is
/// known of the last load (URL, progress); the latest key; and the target's transition and indicator
/// (SDWebImage's `UIView+WebCacheOperation` and `UIView+WebCacheState`).
///
/// A target stores one for its whole life: `let webImageState = WebImageTargetState()`.
///
/// Threading: thread-safe; every method may be called from any thread. Loads are held weakly, as SDWebImage's
/// operation map holds them: the manager keeps a load alive while it runs.
public final class WebImageTargetState: Sendable {
    private let storage = Locked(Storage())

    private struct Storage {
        var operations: [String: WeakOperation] = [:]
        var loads: [String: Entry] = [:]
        var latestOperationKey: String?
        var transition: (any WebImageTransition)?
        var indicator: (any WebImageIndicator)?
        /// The number given to the next load started, under any key.
        var nextGeneration: UInt64 = 1
    }

    /// One key's last load: its public state, and the number that tells it from the loads before it.
    private struct Entry {
        var state: WebImageLoadState
        var generation: UInt64
    }

    /// A load held weakly: its URL, and its run while something else keeps it.
    private struct WeakOperation: Sendable {
        let url: URL?
        weak var run: ImageLoadOperation.Run?

        init(operation: ImageLoadOperation) {
            url = operation.url
            run = operation.run
        }

        /// The load, while it is still kept elsewhere; nil for a load delivered during its call, which ended then.
        var operation: ImageLoadOperation? {
            guard let run else { return nil }
            return ImageLoadOperation(url: url, run: run)
        }
    }

    /// An empty state: no key, no load, no transition, no indicator.
    public init() {}

    // MARK: Settings

    /// Runs when a final image not from the memory cache is set; nil (the default) sets images at once.
    public var transition: (any WebImageTransition)? {
        get { storage.withLock { $0.transition } }
        set { storage.withLock { $0.transition = newValue } }
    }

    /// Shows loading and progress; nil by default.
    public var indicator: (any WebImageIndicator)? {
        get { storage.withLock { $0.indicator } }
        set { storage.withLock { $0.indicator = newValue } }
    }

    // MARK: Load states

    /// The operation key of the load started last, under any key (SDWebImage's `sd_latestOperationKey`).
    public var latestOperationKey: String? {
        storage.withLock { $0.latestOperationKey }
    }

    /// What is known of the last load started under `key`, or nil when none was.
    public func loadState(forKey key: String) -> WebImageLoadState? {
        storage.withLock { $0.loads[key]?.state }
    }

    /// Forgets the last load under `key` (its URL and progress); a result of that load still on its way is not
    /// set afterwards.
    public func removeLoadState(forKey key: String) {
        storage.withLock { _ = $0.loads.removeValue(forKey: key) }
    }

    // MARK: Operations

    /// The running load under `key`, or nil when there is none or it has ended and been released.
    public func operation(forKey key: String) -> ImageLoadOperation? {
        storage.withLock { $0.operations[key]?.operation }
    }

    /// Keeps `operation` (weakly) under `key`, in place of the one there.
    public func setOperation(_ operation: ImageLoadOperation, forKey key: String) {
        storage.withLock { $0.operations[key] = WeakOperation(operation: operation) }
    }

    /// Cancels the load under `key` and forgets it (SDWebImage's `sd_cancelImageLoadOperationWithKey:`). The load
    /// completes with `cancelled` unless it has already completed.
    public func cancelOperation(forKey key: String) {
        let operation = storage.withLock { $0.operations.removeValue(forKey: key)?.operation }
        operation?.cancel()
    }

    /// Forgets the load under `key` without cancelling it.
    public func removeOperation(forKey key: String) {
        storage.withLock { _ = $0.operations.removeValue(forKey: key) }
    }

    // MARK: Driven by the binding

    /// Starts a load of `url` under `key`: makes `key` the latest, records the URL, resets the progress, and
    /// returns the load's number; results of the loads started before it under `key` are no longer current.
    func begin(key: String, url: URL?) -> UInt64 {
        storage.withLock { storage in
            let generation = storage.nextGeneration
            storage.nextGeneration += 1
            storage.latestOperationKey = key
            storage.loads[key] = Entry(state: WebImageLoadState(url: url), generation: generation)
            return generation
        }
    }

    /// Whether the load numbered `generation` is still the last one started under `key`.
    func isCurrent(key: String, generation: UInt64) -> Bool {
        storage.withLock { $0.loads[key]?.generation == generation }
    }

    /// Ends the currency of the load under `key`: nothing it delivers later is set.
    func retire(key: String) {
        storage.withLock { storage in
            guard storage.loads[key] != nil else { return }
            storage.loads[key]?.generation = 0
        }
    }

    /// Keeps `operation` under `key` if its load is still the current one there: a load started from inside the
    /// completion of this one must not be replaced by it.
    func setOperation(_ operation: ImageLoadOperation, forKey key: String, generation: UInt64) {
        storage.withLock { storage in
            guard storage.loads[key]?.generation == generation else { return }
            storage.operations[key] = WeakOperation(operation: operation)
        }
    }

    /// Records the progress of the current load under `key`; returns the indicator to update, or nil when the
    /// load is no longer current.
    func updateProgress(
        key: String, generation: UInt64, received: Int64, expected: Int64
    ) -> (progress: WebImageProgress, indicator: (any WebImageIndicator)?)? {
        storage.withLock { storage in
            guard storage.loads[key]?.generation == generation else { return nil }
            let progress = WebImageProgress(completedUnitCount: received, totalUnitCount: expected)
            storage.loads[key]?.state.progress = progress
            return (progress, storage.indicator)
        }
    }

    /// Marks the current load under `key` finished with an image: when its progress is still 0 of 0 (the size was
    /// never reported, or the image came from a cache), it becomes 1 of 1.
    func finishProgress(key: String, generation: UInt64) {
        storage.withLock { storage in
            guard let entry = storage.loads[key], entry.generation == generation,
                  entry.state.progress == WebImageProgress() else { return }
            storage.loads[key]?.state.progress = WebImageProgress(completedUnitCount: 1, totalUnitCount: 1)
        }
    }

    /// The indicator, when the load numbered `generation` is still current under `key`.
    func indicator(key: String, generation: UInt64) -> (any WebImageIndicator)? {
        storage.withLock { $0.loads[key]?.generation == generation ? $0.indicator : nil }
    }

    /// The transition, when the load numbered `generation` is still current under `key`.
    func transition(key: String, generation: UInt64) -> (any WebImageTransition)? {
        storage.withLock { $0.loads[key]?.generation == generation ? $0.transition : nil }
    }
}

/// What a target knows of the last load started under one operation key (SDWebImage's `SDWebImageLoadState`).
public struct WebImageLoadState: Sendable {
    /// The URL of the last load started under the key; nil when it was started without one.
    public var url: URL?
    /// How far that load has come.
    public var progress: WebImageProgress

    /// A state for `url` with no progress yet.
    public init(url: URL?, progress: WebImageProgress = WebImageProgress()) {
        self.url = url
        self.progress = progress
    }
}

/// How far a target's load has come, as the unit counts of SDWebImage's `sd_imageProgress`.
///
/// Reset to zero when a load starts; updated from the loader's byte counts as they arrive; set to 1 of 1 when a
/// load finishes without the size ever being known (SDWebImage's `SDWebImageProgressUnitCountUnknown`).
public struct WebImageProgress: Sendable, Hashable {
    /// The bytes received so far.
    public var completedUnitCount: Int64
    /// The bytes expected; 0 while the size is unknown.
    public var totalUnitCount: Int64

    /// A progress of `completed` out of `total`.
    public init(completedUnitCount: Int64 = 0, totalUnitCount: Int64 = 0) {
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
    }

    /// The share done, clamped to 0…1; 0 while the total is unknown.
    public var fractionCompleted: Double {
        guard totalUnitCount > 0 else { return 0 }
        return min(1, max(0, Double(completedUnitCount) / Double(totalUnitCount)))
    }
}
