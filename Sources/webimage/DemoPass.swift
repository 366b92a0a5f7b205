import Foundation
import WebImage

/// One pass of the demo over the whole gallery, and the tier every load of it should be served from.
enum DemoPass: String, Sendable, CaseIterable {
    /// The first pass: nothing is cached, every image comes from the server.
    case network
    /// The second pass: the same loads again, all answered from the memory tier.
    case memory
    /// The third pass, after the memory tier is cleared: all answered from the disk tier.
    case disk

    /// The tier every load of the pass must report (`none` is the loader).
    var expectedTier: ImageCacheType {
        switch self {
        case .network: .none
        case .memory: .memory
        case .disk: .disk
        }
    }

    /// The other tiers a load of the pass may be served from: a copy that starts after another load of its image
    /// has put it in the cache finds it there, as it should. Loads start in one quick loop, so this is rare, but
    /// a busy machine can pause the loop long enough.
    var toleratedTiers: Set<ImageCacheType> {
        switch self {
        case .network: [.memory, .disk]
        case .memory: []
        case .disk: [.memory]
        }
    }

    /// The pass's number, from 1.
    var number: Int {
        (Self.allCases.firstIndex(of: self) ?? 0) + 1
    }

    /// `1. network`.
    var title: String {
        "\(number). \(rawValue)"
    }

    /// Starts every load of `gallery` at once through `manager`, draws `progress` as they finish and returns
    /// when the last one has finished, with what the server saw meanwhile.
    func run(_ gallery: DemoGallery, manager: ImageManager, server: DemoServer, progress: DemoProgressBar) async -> DemoPassResult {
        let before = server.traffic
        // Padded, so that the bars of every pass line up.
        progress.start(title.padding(toLength: 10, withPad: " ", startingAt: 0), total: gallery.loads.count)
        let clock = ContinuousClock()
        let started = clock.now
        let outcomes: [DemoLoadOutcome] = await withCheckedContinuation { continuation in
            let collector = DemoLoadCollector(total: gallery.loads.count) { outcomes in
                continuation.resume(returning: outcomes)
            }
            // Every load starts here, in one loop, before any has had time to finish: loads of one URL are in
            // flight together. Memory hits complete during the call, on this thread.
            for (index, load) in gallery.loads.enumerated() {
                let begin = clock.now
                manager.loadImage(url: load.url, options: DemoGallery.options, context: gallery.context(for: load.variant)) { result in
                    if case .success(let loaded) = result, !loaded.isFinal { return }
                    let outcome = DemoLoadOutcome(load: load, result: result, duration: clock.now - begin)
                    // The bar first: the last outcome resumes the pass, which then erases the bar.
                    progress.advance()
                    collector.finish(outcome, at: index)
                }
            }
        }
        let wall = clock.now - started
        progress.finish()
        return DemoPassResult(pass: self, outcomes: outcomes, wall: wall, traffic: server.traffic - before)
    }
}
