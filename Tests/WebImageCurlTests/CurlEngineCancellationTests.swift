import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
@testable import WebImageCurl

@Suite struct CurlEngineCancellationTests {
    @Test func cancelBeforeTheTransferRuns() async throws {
        var configuration = CurlEngine.Configuration()
        configuration.maxConcurrentTransfers = 1
        let engine = try CurlEngine(configuration: configuration)
        let blocker = try RawTCPListener(.silent)
        let blocking = RecordingSink()
        let blockingID = engine.start(CurlRequest.patient(url: blocker.url), sink: blocking)
        let waiting = RecordingSink()
        let id = engine.start(CurlRequest.patient(url: blocker.url + "second"), sink: waiting)
        engine.cancel(id)
        #expect(await waiting.waitForCompletion())
        #expect(waiting.errorCode == .cancelled)
        engine.cancel(blockingID)
        #expect(await blocking.waitForCompletion())
        #expect(blocking.errorCode == .cancelled)
        engine.cancel(id)  // already finished: nothing more
        engine.invalidate()
        #expect(waiting.completionCount == 1 && blocking.completionCount == 1)
        #expect(waiting.snapshot.eventsAfterCompletion == 0)
        await blocker.stop()
    }

    @Test func cancelDuringATransfer() async throws {
        let engine = try CurlEngine()
        let listener = try RawTCPListener(.silent)
        let sink = RecordingSink()
        let id = engine.start(CurlRequest.patient(url: listener.url), sink: sink)
        #expect(await waitUntil(timeout: .seconds(30)) { listener.acceptedCount == 1 })
        engine.cancel(id)
        #expect(await sink.waitForCompletion())
        #expect(sink.errorCode == .cancelled)
        if case .failure(let error)? = sink.result { #expect(error.message.contains(listener.url)) }
        #expect(await waitUntil(timeout: .seconds(2)) { engine.liveCounters.contexts == 0 })
        engine.invalidate()
        #expect(sink.completionCount == 1)
        #expect(engine.liveCounters.isEmpty)
        await listener.stop()
    }

    @Test func cancellingOneRunningTransferLeavesTheOthersRunning() async throws {
        var configuration = CurlEngine.Configuration()
        configuration.maxConcurrentTransfers = 3
        let engine = try CurlEngine(configuration: configuration)
        let listener = try RawTCPListener(.silent)
        let sinks = [RecordingSink(), RecordingSink(), RecordingSink()]
        let ids = sinks.enumerated().map { index, sink in
            engine.start(CurlRequest.patient(url: listener.url + "\(index)"), sink: sink)
        }
        #expect(await waitUntil(timeout: .seconds(30)) { listener.acceptedCount == 3 })
        // The first started, then the last, then the middle one: each cancel finds its own transfer among the
        // running ones, whatever the earlier cancels moved.
        let order = [0, 2, 1]
        for (step, index) in order.enumerated() {
            engine.cancel(ids[index])
            #expect(await sinks[index].waitForCompletion())
            #expect(sinks[index].errorCode == .cancelled)
            let stillRunning = Set(sinks.indices.filter { sinks[$0].completionCount == 0 })
            #expect(stillRunning == Set(order[(step + 1)...]))
        }
        #expect(await waitUntil(timeout: .seconds(2)) { engine.liveCounters.contexts == 0 })
        engine.invalidate()
        #expect(sinks.allSatisfy { $0.completionCount == 1 && $0.snapshot.eventsAfterCompletion == 0 })
        #expect(engine.liveCounters.isEmpty)
        await listener.stop()
    }

    @Test func manyStartsWithRandomCancelsCompleteEachSinkOnce() async throws {
        let engine = try CurlEngine()
        let body = Data(count: 2000)
        let listener = try RawTCPListener(.respond(RawTCPListener.response(body: body)))
        var generator = SystemRandomNumberGenerator()
        var sinks: [RecordingSink] = []
        var ids: [CurlTransferID] = []
        for index in 0..<200 {
            let sink = RecordingSink()
            var request = CurlRequest.patient(url: listener.url + "\(index)")
            if index % 3 == 0 {
                request = CurlRequest(url: Fixtures.url("png/gray8.png").absoluteString)
                request.allowsFileScheme = true
            }
            ids.append(engine.start(request, sink: sink))
            sinks.append(sink)
            if Bool.random(using: &generator), let victim = ids.randomElement(using: &generator) {
                engine.cancel(victim)
            }
        }
        let allSinks = sinks
        let allDone = await waitUntil(timeout: .seconds(30)) { allSinks.allSatisfy { $0.completionCount > 0 } }
        #expect(allDone)
        engine.invalidate()
        #expect(sinks.allSatisfy { $0.completionCount == 1 })
        #expect(sinks.allSatisfy { $0.snapshot.eventsAfterCompletion == 0 })
        for sink in sinks {
            switch sink.result {
            case .success(let result)?: #expect(result.body.count == 2000 || result.body == Fixtures.data("png/gray8.png"))
            case .failure(let error)?: #expect(error.code == .cancelled)
            case nil: break
            }
        }
        #expect(engine.liveCounters.isEmpty)
        await listener.stop()
    }

    @Test func invalidateCancelsEverythingAndLeavesNothing() async throws {
        var configuration = CurlEngine.Configuration()
        configuration.maxConcurrentTransfers = 4
        let engine = try CurlEngine(configuration: configuration)
        let listener = try RawTCPListener(.silent)
        let sinks = (0..<12).map { _ in RecordingSink() }
        for (index, sink) in sinks.enumerated() {
            var request = CurlRequest.patient(url: listener.url + "\(index)")
            request.usesCookies = index.isMultiple(of: 2)
            engine.start(request, sink: sink)
        }
        #expect(await waitUntil(timeout: .seconds(30)) { listener.acceptedCount == 4 })
        #expect(engine.liveCounters.threads == 1)
        #expect(engine.liveCounters.contexts == 4)
        engine.invalidate()
        #expect(sinks.allSatisfy { $0.completionCount == 1 && $0.errorCode == .cancelled })
        #expect(engine.liveCounters.handles == 0)
        #expect(engine.liveCounters.contexts == 0)
        #expect(engine.liveCounters.threads == 0)
        engine.invalidate()  // idempotent
        let late = RecordingSink()
        engine.start(CurlRequest.patient(url: listener.url), sink: late)
        #expect(late.completionCount == 1 && late.errorCode == .cancelled)
        await listener.stop()
    }

    @Test func deinitInvalidates() async throws {
        let listener = try RawTCPListener(.silent)
        let sink = RecordingSink()
        var counters: CurlLiveCounters?
        do {
            let engine = try CurlEngine()
            counters = engine.liveCounters
            engine.start(CurlRequest.patient(url: listener.url), sink: sink)
            #expect(await waitUntil(timeout: .seconds(30)) { listener.acceptedCount == 1 })
        }
        #expect(sink.completionCount == 1 && sink.errorCode == .cancelled)
        #expect(counters?.isEmpty == true)
        await listener.stop()
    }

    @Test func invalidateFromASinkOnTheCurlThread() async throws {
        let engine = try CurlEngine()
        let counters = engine.liveCounters
        let listener = try RawTCPListener(.silent)
        let other = RecordingSink()
        engine.start(CurlRequest.patient(url: listener.url), sink: other)
        #expect(await waitUntil(timeout: .seconds(30)) { listener.acceptedCount == 1 })
        let invalidating = InvalidatingSink(engine: engine)
        var request = CurlRequest(url: Fixtures.url("png/gray8.png").absoluteString)
        request.allowsFileScheme = true
        engine.start(request, sink: invalidating)
        #expect(await waitUntil(timeout: .seconds(30)) { other.completionCount == 1 && counters.isEmpty })
        #expect(other.errorCode == .cancelled)
        #expect(invalidating.completions.withLock { $0 } == 1)
        await listener.stop()
    }
}

/// Invalidates the engine from its own completion, on the curl thread.
private final class InvalidatingSink: CurlTransferSink {
    let engine: CurlEngine
    let completions = Locked(0)

    init(engine: CurlEngine) {
        self.engine = engine
    }

    func didReceiveResponse(_ response: CurlResponse) {}
    func didReceive(bytesSoFar: Int64, expected: Int64, chunk: UnsafeRawBufferPointer) {}
    func didComplete(_ result: Result<CurlTransferResult, WebImageError>, deliveries: DeliveryBatch?) {
        completions.withLock { $0 += 1 }
        engine.invalidate()
    }
}
