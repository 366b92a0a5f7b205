import Dispatch
import Foundation
import Synchronization
import WebImage

extension ImageManager {
    /// Loads every URL in `urls` (in order, one call each, all started before the first is waited for) and waits
    /// for every completion; fails the benchmark when a load fails, when an image comes from another tier than
    /// `tier` (`.none`: loaded, not cached), or when they take more than a minute.
    func loadAll(
        _ urls: [URL], options: ImageOptions = [], context: ImageContext = ImageContext(), expecting tier: ImageCacheType
    ) {
        let group = DispatchGroup()
        let problems = LoadProblems()
        for url in urls {
            group.enter()
            loadImage(url: url, options: options, context: context) { result in
                switch result {
                case .success(let loaded) where loaded.cacheType != tier:
                    problems.note("\(url.absoluteString) came from \(loaded.cacheType), not \(tier)")
                case .success:
                    break
                case .failure(let error):
                    problems.note("\(url.absoluteString) failed: \(error)")
                }
                group.leave()
            }
        }
        guard group.wait(timeout: .now() + .seconds(60)) == .success else {
            fatalError("\(urls.count) loads did not all complete in 60 s")
        }
        if let first = problems.first {
            fatalError("a load went wrong: \(first)")
        }
    }
}

/// The first thing that went wrong among many loads.
private final class LoadProblems: Sendable {
    private let problem = Mutex<String?>(nil)

    func note(_ text: String) {
        problem.withLock { problem in
            if problem == nil { problem = text }
        }
    }

    var first: String? { problem.withLock { $0 } }
}
