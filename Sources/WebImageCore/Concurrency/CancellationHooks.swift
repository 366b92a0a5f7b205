/// The work a ``CompletionLatch`` runs when it is cancelled, in the order it was added.
///
/// Nearly every latch gets one hook (the download or load it stands for), so the first is kept inline and only
/// further ones go to an array: a latch with one hook allocates nothing for it.
struct CancellationHooks {
    private var first: (@Sendable () -> Void)?
    private var more: [@Sendable () -> Void] = []

    init() {}

    /// Adds `hook` after the others.
    mutating func add(_ hook: @escaping @Sendable () -> Void) {
        if first == nil, more.isEmpty {
            first = hook
        } else {
            more.append(hook)
        }
    }

    /// Moves every hook out, leaving none.
    mutating func takeAll() -> CancellationHooks {
        var taken = CancellationHooks()
        swap(&taken.first, &first)
        swap(&taken.more, &more)
        return taken
    }

    /// Runs every hook, in order.
    func runAll() {
        first?()
        for hook in more { hook() }
    }
}
