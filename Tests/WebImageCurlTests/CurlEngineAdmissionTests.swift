import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
@testable import WebImageCurl

/// The engine hands libcurl no more transfers than it may connect: the others wait in its own queue.
@Suite struct CurlEngineAdmissionTests {
    @Test func aFullHostHoldsBackOnlyItsOwnTransfers() async throws {
        var configuration = CurlEngine.Configuration()
        configuration.maxConcurrentTransfers = 4
        configuration.maxConnectionsPerHost = 1
        let engine = try CurlEngine(configuration: configuration)
        let silent = try RawTCPListener(.silent)
        let answering = try RawTCPListener(.respond(RawTCPListener.response(body: Data(count: 100))))
        let first = RecordingSink()
        let firstID = engine.start(CurlRequest.patient(url: silent.url + "1"), sink: first)
        #expect(await waitUntil(timeout: .seconds(30)) { silent.acceptedCount == 1 })
        let second = RecordingSink()
        let secondID = engine.start(CurlRequest.patient(url: silent.url + "2"), sink: second)
        // Another host, and a file, start while the silent host's second transfer waits for its one connection.
        let other = await engine.run(CurlRequest.patient(url: answering.url), timeout: .seconds(30))
        #expect(other.snapshot.chunkBytes == 100)
        var file = CurlRequest(url: Fixtures.url("png/gray8.png").absoluteString)
        file.allowsFileScheme = true
        #expect(try await engine.run(file, timeout: .seconds(30)).result?.get().body == Fixtures.data("png/gray8.png"))
        #expect(silent.acceptedCount == 1)
        engine.cancel(firstID)
        #expect(await waitUntil(timeout: .seconds(30)) { silent.acceptedCount == 2 })
        engine.cancel(secondID)
        #expect(await second.waitForCompletion())
        #expect(first.errorCode == .cancelled && second.errorCode == .cancelled)
        engine.invalidate()
        #expect(engine.liveCounters.isEmpty)
        await silent.stop()
        await answering.stop()
    }

    @Test func waitingTransfersOfManyHostsStartByPriority() async throws {
        var configuration = CurlEngine.Configuration()
        configuration.maxConcurrentTransfers = 8
        configuration.maxTotalConnections = 1
        let engine = try CurlEngine(configuration: configuration)
        let blocker = try RawTCPListener(.silent)
        let body = RawTCPListener.response(body: Data(count: 10))
        let hosts = try (0..<3).map { _ in try RawTCPListener(.respond(body)) }
        let blockerID = engine.start(CurlRequest.patient(url: blocker.url), sink: RecordingSink())
        #expect(await waitUntil(timeout: .seconds(30)) { blocker.acceptedCount == 1 })
        let order = CompletionOrder()
        let names: [(String, CurlRequest.Priority)] = [("low", .low), ("normal", .normal), ("high", .high)]
        let sinks = names.enumerated().map { index, entry in
            var request = CurlRequest.patient(url: hosts[index].url)
            request.priority = entry.1
            let sink = RecordingSink(name: entry.0, order: order)
            engine.start(request, sink: sink)
            return sink
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(hosts.allSatisfy { $0.acceptedCount == 0 })
        engine.cancel(blockerID)
        #expect(await waitUntil(timeout: .seconds(30)) { order.all.count == 3 })
        #expect(order.all == ["high", "normal", "low"])
        #expect(sinks.allSatisfy { $0.snapshot.chunkBytes == 10 })
        engine.invalidate()
        await blocker.stop()
        for host in hosts { await host.stop() }
    }
}
