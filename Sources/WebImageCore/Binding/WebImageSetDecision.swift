/// What a target does with one result of its load: SDWebImage's `shouldCallCompletedBlock`, `shouldNotSetImage`
/// and transition rules from `sd_internalSetImageWithURL`, as a value computed without side effects.
struct WebImageSetDecision: Equatable {
    /// What to put in the target.
    enum Content: Equatable {
        /// Nothing: the target keeps what it shows.
        case nothing
        /// The result's image.
        case image
        /// The placeholder (a `delayPlaceholder` load that ended without an image).
        case placeholder
    }

    /// Whether the result ends the load (SDWebImage's `finished`): an error, or any success but a partial image.
    let isFinished: Bool
    /// Whether the caller's completion runs for this result.
    let callsCompletion: Bool
    /// What is set.
    let content: Content
    /// Whether the target's transition (if it has one) shows the content.
    let usesTransition: Bool

    /// The decision for a result.
    ///
    /// - Parameters:
    ///   - outcome: The success's outcome, or nil for a failure.
    ///   - cacheType: Where the image came from (`.none` for a failure).
    init(outcome: ImageLoadResult.Outcome?, cacheType: ImageCacheType, options: ImageOptions) {
        isFinished = outcome != .partial
        callsCompletion = isFinished || options.contains(.avoidAutoSetImage)
        let hasImage = outcome != nil
        // SDWebImage: (image && AvoidAutoSetImage) || (!image && !DelayPlaceholder). A `notModified` result is the
        // image already set by the `refreshing` result before it, so it is not set again.
        if (hasImage && options.contains(.avoidAutoSetImage)) || (!hasImage && !options.contains(.delayPlaceholder))
            || outcome == .notModified {
            content = .nothing
        } else {
            content = hasImage ? .image : .placeholder
        }
        usesTransition = isFinished && content != .nothing && Self.transitions(cacheType: cacheType, options: options)
    }

    /// SDWebImage's `shouldUseTransition`: always with `forceTransition`; for loaded images; for disk hits unless
    /// one of the synchronous query flags made them synchronous; never for memory hits.
    private static func transitions(cacheType: ImageCacheType, options: ImageOptions) -> Bool {
        if options.contains(.forceTransition) { return true }
        switch cacheType {
        case .none: return true
        case .disk: return options.isDisjoint(with: [.queryMemoryDataSync, .queryDiskDataSync])
        case .memory, .all: return false
        }
    }
}
