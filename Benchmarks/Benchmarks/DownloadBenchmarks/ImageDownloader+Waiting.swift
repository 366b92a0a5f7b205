import Dispatch
import Foundation
import Synchronization
import WebImage

extension ImageDownloader {
    /// Requests every URL in `urls` (in order, one caller each) and waits for every completion; fails the benchmark
    /// when one fails or when they take more than a minute.
    func downloadAll(_ urls: [URL], context: ImageContext) {
        waitForAll(urls) { url, completion in downloadImage(url: url, context: context) { completion($0.map { _ in () }) } }
    }

    /// As ``downloadAll(_:context:)``, through `downloadData`: nothing is decoded.
    func downloadAllData(_ urls: [URL], context: ImageContext) {
        waitForAll(urls) { url, completion in downloadData(url: url, context: context) { completion($0.map { _ in () }) } }
    }

    private func waitForAll(
        _ urls: [URL], _ start: (URL, @escaping @Sendable (Result<Void, WebImageError>) -> Void) -> Void
    ) {
        let waiter = CompletionWaiter(expected: urls.count)
        for url in urls {
            start(url) { result in
                if case .failure(let error) = result { waiter.fail(error) } else { waiter.succeed() }
            }
        }
        waiter.wait(seconds: 60)
    }
}

/// Counts completions and wakes the waiter when the last one comes.
final class CompletionWaiter: Sendable {
    private let state: Mutex<(done: Int, firstError: WebImageError?)> = Mutex((0, nil))
    private let expected: Int
    private let allDone = DispatchSemaphore(value: 0)

    init(expected: Int) {
        self.expected = expected
    }

    func succeed() {
        finishOne(nil)
    }

    func fail(_ error: WebImageError) {
        finishOne(error)
    }

    private func finishOne(_ error: WebImageError?) {
        let isLast = state.withLock { state in
            state.done += 1
            if state.firstError == nil { state.firstError = error }
            return state.done == expected
        }
        if isLast { allDone.signal() }
    }

    /// Waits for every completion; fails the benchmark on a timeout or when any completion was a failure.
    func wait(seconds: Int) {
        guard expected > 0 else { return }
        guard allDone.wait(timeout: .now() + .seconds(seconds)) == .success else {
            let done = state.withLock { $0.done }
            fatalError("only \(done) of \(expected) downloads completed in \(seconds) s")
        }
        if let error = state.withLock({ $0.firstError }) {
            fatalError("a download failed: \(error)")
        }
    }
}
