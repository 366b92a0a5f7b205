import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// The view binding's steps, one branch at a time, against a loader the tests answer by hand.
@Suite struct WebImageTargetTests {
    let loader = ScriptedLoader()
    let harness: ManagerHarness
    let target: RecordingTarget
    let placeholder = solidImage(width: 1, color: .red)
    let url = URL(string: "http://example.test/a.png")!
    let otherURL = URL(string: "http://example.test/b.png")!

    init() {
        harness = ManagerHarness(loader: loader)
        target = RecordingTarget(manager: harness.manager)
    }

    @discardableResult
    private func bind(
        _ url: URL?, options: ImageOptions = [], context: ImageContext = ImageContext(), log: ResultLog? = nil,
        progress: ImageLoadProgressHandler? = nil
    ) -> ImageLoadOperation? {
        target.onQueue { [target, placeholder] in
            target.setImage(with: url, placeholder: placeholder, options: options, context: context, progress: progress) { result in
                log?.handler(result)
            }
        }
    }

    @Test func operationKeyIsTheTypeNameUnlessTheContextNamesOne() async {
        bind(url)
        #expect(target.defaultOperationKey == "RecordingTarget")
        #expect(target.webImageState.latestOperationKey == "RecordingTarget")
        #expect(target.webImageState.operation(forKey: "RecordingTarget") != nil)
        var context = ImageContext()
        context.operationKey = "highlighted"
        bind(otherURL, context: context)
        #expect(target.webImageState.latestOperationKey == "highlighted")
        #expect(target.imageURL == otherURL)
        #expect(target.webImageState.loadState(forKey: "RecordingTarget")?.url == url)
        #expect(target.webImageState.operation(forKey: "RecordingTarget") != nil, "another key does not cancel it")
    }

    @Test func placeholderFirstThenTheLoadedImage() async throws {
        let log = ResultLog()
        bind(url, log: log)
        #expect(target.shown.map(\.image?.width) == [1], "the placeholder is set during the call")
        let request = try #require(await loader.request(for: url))
        request.succeed(solidImage(width: 7))
        #expect(await eventually { log.count == 1 })
        await target.drain()
        let shown = target.shown
        #expect(shown.map(\.image?.width) == [1, 7])
        #expect(shown.allSatisfy { $0.onQueue && $0.url == url })
        #expect(shown.last?.cacheType == ImageCacheType.none)
        #expect(target.imageProgress == WebImageProgress(completedUnitCount: 1, totalUnitCount: 1), "no size reported: 1 of 1")
    }

    @Test func aFailureKeepsThePlaceholder() async throws {
        let log = ResultLog()
        bind(url, log: log)
        try #require(await loader.request(for: url)).fail(WebImageError(.badImageData, "not an image"))
        #expect(await eventually { log.count == 1 })
        await target.drain()
        #expect(log.errorCodes == [.badImageData])
        #expect(target.shown.map(\.image?.width) == [1])
        #expect(target.imageProgress == WebImageProgress(), "a failure leaves the progress as it was")
    }

    @Test func delayPlaceholderShowsItOnlyWhenTheLoadFails() async throws {
        let log = ResultLog()
        bind(url, options: .delayPlaceholder, log: log)
        #expect(target.shown.isEmpty)
        try #require(await loader.request(for: url)).fail(WebImageError(.badImageData, "not an image"))
        #expect(await eventually { log.count == 1 })
        await target.drain()
        #expect(target.shown.map(\.image?.width) == [1])

        let second = ResultLog()
        bind(otherURL, options: .delayPlaceholder, log: second)
        try #require(await loader.request(for: otherURL)).succeed(solidImage(width: 5))
        #expect(await eventually { second.count == 1 })
        await target.drain()
        #expect(target.shown.map(\.image?.width) == [1, 5], "with an image, the placeholder is never set")
    }

    @Test func aNilURLSetsThePlaceholderAndFailsWithoutLoading() async {
        let log = ResultLog()
        let operation = bind(nil, log: log)
        await target.drain()
        #expect(operation == nil)
        #expect(log.errorCodes == [.invalidURL])
        #expect(target.shown.map(\.image?.width) == [1])
        #expect(target.imageURL == nil)
        #expect(loader.all.isEmpty)
    }

    @Test func aMemoryHitIsSetDuringTheCallWithNoPlaceholderFirst() async {
        harness.cache.memoryCache.setImage(solidImage(width: 9), forKey: url.absoluteString)
        let log = ResultLog()
        let setDuringCall = target.onQueue { [target, placeholder, url] in
            target.setImage(with: url, placeholder: placeholder, completion: log.handler)
            return (target.shown.map(\.image?.width), log.count)
        }
        #expect(setDuringCall.0 == [9], "no placeholder flash")
        #expect(setDuringCall.1 == 1)
        #expect(target.shown.last?.cacheType == .memory)
        #expect(loader.all.isEmpty)
    }

    @Test func aMemoryHitOffTheTargetQueueStillShowsThePlaceholderFirst() async {
        harness.cache.memoryCache.setImage(solidImage(width: 9), forKey: url.absoluteString)
        let log = ResultLog()
        // Started off the target's queue: the result cannot be ready during the call, so the placeholder shows.
        target.setImage(with: url, placeholder: placeholder, completion: log.handler)
        #expect(await eventually { log.count == 1 })
        await target.drain()
        #expect(target.shown.map(\.image?.width) == [1, 9])
    }

    @Test func aNewLoadCancelsThePreviousOneUnderTheSameKey() async throws {
        let first = ResultLog(), second = ResultLog()
        bind(url, log: first)
        let firstRequest = try #require(await loader.request(for: url))
        bind(otherURL, log: second)
        #expect(await eventually { first.count == 1 })
        #expect(first.errorCodes == [.cancelled])
        #expect(firstRequest.isCancelled)
        try #require(await loader.request(for: otherURL)).succeed(solidImage(width: 4))
        #expect(await eventually { second.count == 1 })
        await target.drain()
        #expect(target.shown.map(\.image?.width) == [1, 1, 4])
        #expect(target.current()?.url == otherURL)
    }

    @Test func avoidAutoCancelLetsTheEarlierLoadFinishWithoutShowingIt() async throws {
        let first = ResultLog(), second = ResultLog()
        bind(url, options: .avoidAutoCancelImage, log: first)
        bind(otherURL, options: .avoidAutoCancelImage, log: second)
        let firstRequest = try #require(await loader.request(for: url))
        #expect(!firstRequest.isCancelled)
        try #require(await loader.request(for: otherURL)).succeed(solidImage(width: 4))
        #expect(await eventually { second.count == 1 })
        firstRequest.succeed(solidImage(width: 3))
        #expect(await eventually { first.count == 1 })
        await target.drain()
        #expect(first.images.map(\.width) == [3], "the earlier load still completes")
        #expect(target.shown.map(\.image?.width) == [1, 1, 4], "but its late image is never set")
    }

    @Test func avoidAutoSetImageCallsTheCompletionAndSetsNothing() async throws {
        let log = ResultLog()
        bind(url, options: .avoidAutoSetImage, log: log)
        try #require(await loader.request(for: url)).succeed(solidImage(width: 6))
        #expect(await eventually { log.count == 1 })
        await target.drain()
        #expect(log.images.map(\.width) == [6])
        #expect(target.shown.map(\.image?.width) == [1])
    }

    @Test func progressIsRecordedClampedAndResetByTheNextLoad() async throws {
        let indicator = RecordingIndicator()
        target.webImageState.indicator = indicator
        let log = ResultLog()
        let reports = ResultCounter()
        bind(url, log: log, progress: { _ in reports.increment() })
        let request = try #require(await loader.request(for: url))
        request.report(received: 50, expected: 100)
        #expect(await eventually { reports.value == 1 })
        await target.drain()
        #expect(target.imageProgress == WebImageProgress(completedUnitCount: 50, totalUnitCount: 100))
        request.report(received: 150, expected: 100)
        #expect(await eventually { reports.value == 2 })
        request.report(received: 10, expected: 0)
        #expect(await eventually { reports.value == 3 })
        request.succeed(solidImage(width: 2))
        #expect(await eventually { log.count == 1 })
        await target.drain()
        #expect(indicator.calls == [.start, .progress(0.5), .progress(1), .progress(0), .stop])
        #expect(target.imageProgress == WebImageProgress(completedUnitCount: 10, totalUnitCount: 0), "reported, so not set to 1 of 1")

        bind(otherURL)
        #expect(target.imageProgress == WebImageProgress(), "a new load starts from zero")
    }

    @Test func partialImagesAreSetAndOnlyTheFinalResultCompletes() async throws {
        let log = ResultLog()
        bind(url, options: .progressiveLoad, log: log)
        let request = try #require(await loader.request(for: url))
        request.report(received: 10, expected: 100, partial: solidImage(width: 2))
        #expect(await eventually { target.shown.count == 2 })
        #expect(target.current()?.image?.width == 2)
        #expect(log.count == 0, "no completion for a partial image")
        request.succeed(solidImage(width: 3))
        #expect(await eventually { log.count == 1 })
        await target.drain()
        #expect(target.shown.map(\.image?.width) == [1, 2, 3])
        #expect(log.images.map(\.width) == [3])
    }

    @Test func withAvoidAutoSetImagePartialImagesGoToTheCompletion() async throws {
        let log = ResultLog()
        bind(url, options: [.progressiveLoad, .avoidAutoSetImage], log: log)
        let request = try #require(await loader.request(for: url))
        request.report(received: 10, expected: 100, partial: solidImage(width: 2))
        #expect(await eventually { log.count == 1 })
        request.succeed(solidImage(width: 3))
        #expect(await eventually { log.count == 2 })
        await target.drain()
        let outcomes = log.all.compactMap { if case .success(let loaded) = $0 { loaded.outcome } else { nil } }
        #expect(outcomes == [.partial, .loaded])
        #expect(target.shown.map(\.image?.width) == [1])
    }

    @Test func transitionsRunForLoadedImagesAndNotForMemoryHits() async throws {
        let transition = HeldTransition(immediate: true)
        target.webImageState.transition = transition
        // The transition keeps its runs, whose closures hold the target: a cycle, broken when the test ends.
        defer { target.webImageState.transition = nil }
        let log = ResultLog()
        bind(url, log: log)
        try #require(await loader.request(for: url)).succeed(solidImage(width: 5))
        #expect(await eventually { log.count == 1 })
        await target.drain()
        #expect(transition.runs.map(\.cacheType) == [ImageCacheType.none])
        #expect(target.current()?.image?.width == 5, "applied by the transition")

        bind(url)   // now a memory hit
        await target.drain()
        #expect(transition.runs.count == 1, "no transition for a memory hit")
        #expect(target.current()?.cacheType == .memory)

        bind(url, options: .forceTransition)
        await target.drain()
        #expect(transition.runs.map(\.cacheType) == [ImageCacheType.none, .memory], "forceTransition: every result")
    }

    @Test func waitTransitionHoldsTheCompletionUntilTheTransitionEnds() async throws {
        let transition = HeldTransition()
        target.webImageState.transition = transition
        // The transition keeps its runs, whose closures hold the target: a cycle, broken when the test ends.
        defer { target.webImageState.transition = nil }
        let log = ResultLog()
        bind(url, options: .waitTransition, log: log)
        try #require(await loader.request(for: url)).succeed(solidImage(width: 5))
        #expect(await eventually { transition.runs.count == 1 })
        await target.drain()
        #expect(log.count == 0)
        let run = transition.runs[0]
        #expect(target.onQueue { run.apply() })
        #expect(target.current()?.image?.width == 5)
        target.onQueue { run.completion(true) }
        target.onQueue { run.completion(true) }
        #expect(log.count == 1, "exactly once, however often the transition ends")
    }

    @Test func aTransitionOfAReplacedLoadDoesNotApply() async throws {
        let transition = HeldTransition()
        target.webImageState.transition = transition
        let log = ResultLog()
        bind(url, log: log)
        try #require(await loader.request(for: url)).succeed(solidImage(width: 5))
        #expect(await eventually { transition.runs.count == 1 })
        #expect(await eventually { log.count == 1 }, "without waitTransition the completion does not wait")
        bind(otherURL)
        let run = transition.runs[0]
        #expect(!target.onQueue { run.apply() }, "a later load has the key")
        #expect(target.shown.map(\.image?.width) == [1, 1])
    }

    @Test func twoSlotsLoadIndependently() async throws {
        let image = ResultLog(), background = ResultLog()
        target.onQueue { [target, url, otherURL] in
            target.setImage(with: url, completion: image.handler)
            target.setBackgroundImage(with: otherURL, completion: background.handler)
        }
        #expect(target.webImageState.latestOperationKey == "background")
        let imageRequest = try #require(await loader.request(for: url))
        let backgroundRequest = try #require(await loader.request(for: otherURL))
        #expect(!imageRequest.isCancelled, "the background's load does not cancel the image's")
        backgroundRequest.succeed(solidImage(width: 8))
        imageRequest.succeed(solidImage(width: 6))
        #expect(await eventually { image.count == 1 && background.count == 1 })
        await target.drain()
        #expect(target.current("image")?.image?.width == 6)
        #expect(target.current("background")?.image?.width == 8)

        // Cancelling one slot leaves the other's load alone.
        let third = URL(string: "http://example.test/c.png")!, fourth = URL(string: "http://example.test/d.png")!
        target.onQueue { [target] in
            target.setImage(with: third)
            target.setBackgroundImage(with: fourth)
        }
        let kept = try #require(await loader.request(for: third))
        let cancelled = try #require(await loader.request(for: fourth))
        target.cancelImageLoad(forKey: "background")
        #expect(cancelled.isCancelled)
        #expect(!kept.isCancelled)
    }

    @Test func cancelCurrentImageLoadCancelsTheLatestAndShowsNothingMore() async throws {
        let log = ResultLog()
        bind(url, log: log)
        let request = try #require(await loader.request(for: url))
        target.cancelCurrentImageLoad()
        #expect(await eventually { log.count == 1 })
        #expect(log.errorCodes == [.cancelled])
        #expect(request.isCancelled)
        request.succeed(solidImage(width: 5))
        await target.drain()
        #expect(target.shown.map(\.image?.width) == [1])
    }

    @Test func aReleasedTargetIsNotSetButItsCallerStillHears() async throws {
        let log = ResultLog()
        var released: RecordingTarget? = RecordingTarget(manager: harness.manager)
        weak let weakTarget = released
        released?.onQueue { [released, url] in _ = released?.setImage(with: url, completion: log.handler) }
        released = nil
        #expect(weakTarget == nil, "the binding does not keep its target")
        try #require(await loader.request(for: url)).succeed(solidImage(width: 5))
        #expect(await eventually { log.count == 1 })
        #expect(log.images.map(\.width) == [5])
    }

    @Test func theOperationIsHeldWeakly() async throws {
        let log = ResultLog()
        bind(url, log: log)
        #expect(target.webImageState.operation(forKey: target.defaultOperationKey) != nil, "running: the manager keeps it")
        try #require(await loader.request(for: url)).succeed(solidImage(width: 5))
        #expect(await eventually { log.count == 1 })
        let state = target.webImageState, key = target.defaultOperationKey
        let released = await eventually { state.operation(forKey: key) == nil }
        #expect(released)
    }

    @Test func aContextManagerReplacesTheTargetsManager() async throws {
        let otherLoader = ScriptedLoader()
        let other = ManagerHarness(loader: otherLoader)
        var context = ImageContext()
        context.imageManager = other.manager
        bind(url, context: context)
        #expect(await otherLoader.request(for: url) != nil)
        #expect(loader.all.isEmpty)
    }
}

/// A thread-safe counter.
final class ResultCounter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
