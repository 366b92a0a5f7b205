/// Transforms by the key their result is stored under and the image they start from: loads of one URL with one
/// transformer that received the same decoded image (the downloader shares one decode among them) share one
/// transform as well, whether they ask while it runs or shortly after.
///
/// Finished transforms are remembered weakly (the source and the result), a bounded number of them: a result is
/// reused only while both images are still alive somewhere, so this holds no pixels of its own.
final class TransformCoalescer: Sendable {
    private struct Key: Hashable {
        let cacheKey: String
        /// The source image's identity; checked against the weak source of a finished entry before reuse.
        let image: ObjectIdentifier
    }

    /// A finished transform.
    private struct Done {
        weak var source: Image?
        weak var result: Image?
        /// The transformer kept the image as it was (returned nil).
        let keptSource: Bool
    }

    private struct State {
        var running: [Key: [@Sendable (Image?) -> Void]] = [:]
        var done: [Key: Done] = [:]
        var order: [Key] = []
    }

    /// Finished transforms remembered at most.
    private static let rememberedLimit = 128
    private let state = Locked(State())

    /// Runs `transformer` on `image` on `executor`, unless the same transform is running or has just finished
    /// with both images still alive, and hands the result (nil when the transformer kept the image as it was) to
    /// every caller. A caller served by a finished transform is called at once, on its own thread.
    ///
    /// A running transform finishes even when every caller has gone: it is bounded, and a caller arriving later
    /// joins it.
    func transform(
        _ image: Image,
        key: String,
        with transformer: any ImageTransforming,
        on executor: BoundedExecutor,
        completion: @escaping @Sendable (Image?) -> Void
    ) {
        let id = Key(cacheKey: key, image: ObjectIdentifier(image))
        enum Next { case run, wait, reuse(Image?) }
        let next: Next = state.withLock { state in
            if let done = state.done[id], done.source === image {
                if done.keptSource { return .reuse(nil) }
                if let result = done.result { return .reuse(result) }
            }
            if state.running[id] != nil {
                state.running[id]?.append(completion)
                return .wait
            }
            state.running[id] = [completion]
            return .run
        }
        switch next {
        case .wait:
            return
        case .reuse(let result):
            completion(result)
        case .run:
            executor.submit { [self] in
                // Transformers work on frames in memory: an animation decoded on demand is decoded whole first.
                let whole = image.animation == nil ? image : (try? image.withAllFrames()) ?? image
                let result = transformer.transform(image: whole, key: key)
                let callers = state.withLock { state in
                    remember(Done(source: image, result: result, keptSource: result == nil), for: id, in: &state)
                    return state.running.removeValue(forKey: id) ?? []
                }
                for caller in callers { caller(result) }
            }
        }
    }

    private func remember(_ done: Done, for id: Key, in state: inout State) {
        if state.done.updateValue(done, forKey: id) == nil { state.order.append(id) }
        guard state.order.count > Self.rememberedLimit else { return }
        // Forget entries whose images are gone, then the oldest.
        state.order.removeAll { key in
            guard let entry = state.done[key], entry.source != nil else {
                state.done[key] = nil
                return true
            }
            return false
        }
        while state.order.count > Self.rememberedLimit {
            state.done[state.order.removeFirst()] = nil
        }
    }
}
