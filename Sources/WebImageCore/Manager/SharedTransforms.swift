/// Transforms by the key their result is stored under and the image they start from: loads of one URL with one
/// transformer that received the same decoded image (the downloader shares one decode among them) share one
/// transform as well, whether they ask while it runs (a ``SingleFlight``) or shortly after (a finished transform
/// remembered weakly).
///
/// Finished transforms are remembered weakly (the source and the result), a bounded number of them: a result is
/// reused only while both images are still alive somewhere, so this holds no pixels of its own.
final class SharedTransforms: Sendable {
    struct Key: Hashable, Sendable {
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

    private struct Recent {
        var done: [Key: Done] = [:]
        var order: [Key] = []
    }

    /// Finished transforms remembered at most.
    private static let rememberedLimit = 128
    private let running = SingleFlight<Key, Void, Never, Image?>()
    private let recent = Locked(Recent())

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
        let finished: Image?? = recent.withLock { recent in
            guard let done = recent.done[id], done.source === image else { return .none }
            if done.keptSource { return .some(nil) }
            return done.result.map { .some($0) } ?? .none
        }
        if let finished {
            completion(finished)
            return
        }
        _ = running.join(id, receiver: completion) { flight in
            executor.submit { [self] in
                // Transformers work on frames in memory: an animation decoded on demand is decoded whole first.
                let whole = image.animation == nil ? image : (try? image.withAllFrames()) ?? image
                let result = transformer.transform(image: whole, key: key)?.markedTransformed(from: image)
                // Remembered before the flight ends, so that a caller coming in between finds one or the other.
                recent.withLock { remember(Done(source: image, result: result, keptSource: result == nil), for: id, in: &$0) }
                flight.finish(result)
            }
        }
    }

    private func remember(_ done: Done, for id: Key, in recent: inout Recent) {
        if recent.done.updateValue(done, forKey: id) == nil { recent.order.append(id) }
        guard recent.order.count > Self.rememberedLimit else { return }
        // Forget entries whose images are gone, then the oldest.
        recent.order.removeAll { key in
            guard let entry = recent.done[key], entry.source != nil else {
                recent.done[key] = nil
                return true
            }
            return false
        }
        while recent.order.count > Self.rememberedLimit {
            recent.done[recent.order.removeFirst()] = nil
        }
    }
}
