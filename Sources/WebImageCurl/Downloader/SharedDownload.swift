#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// One transfer and every caller waiting on it: the engine's sink for the transfer, and the place where its
/// body is checked, decrypted and decoded once per distinct decode (see ``DownloadCaller/DecodeKey``).
///
/// Lifecycle: transferring (callers join and leave; the last to leave cancels the transfer), then processing
/// (callers may still join and are served from the same body), then done (the downloader forgets it, so the
/// next caller starts a new transfer). Every caller is completed exactly once through its token's latch.
final class SharedDownload: CurlTransferSink {
    private struct State {
        var callers = DownloadCallerTable()
        var transferID: CurlTransferID?
        var isTransferDone = false
        /// The body and response once the transfer succeeded.
        var outcome: Body?
        /// What callers who want the checked body alone get (see ``DownloadCaller/DecodeKey/isSharedData``), set
        /// with `outcome`.
        var sharedData: Result<DownloadOutcome, WebImageError>?
        /// Decodes started or finished, by key: the callers waiting on each, or its result once done.
        var decodes: [DownloadCaller.DecodeKey: DecodeState] = [:]
        var throttle: DownloadProgressThrottle
        var priority: CurlRequest.Priority = .low
        /// Callers in `callers` with a progress handler, so that a chunk costs nothing per caller when none listens.
        var progressListeners = 0

        mutating func add(_ caller: DownloadCaller) {
            if callers.insert(caller) == nil, caller.progress != nil { progressListeners += 1 }
        }

        mutating func remove(_ id: Int) -> DownloadCaller? {
            guard let caller = callers.remove(id) else { return nil }
            if caller.progress != nil { progressListeners -= 1 }
            return caller
        }

        mutating func removeAllCallers() -> [DownloadCaller] {
            progressListeners = 0
            return callers.removeAll()
        }
    }

    /// What a successful transfer left for the decodes: the body, the response, the metrics and the last
    /// progress report.
    private struct Body {
        var data: Data
        var response: ImageResponse
        var metrics: ImageDownloadMetrics
        var lastProgress: ImageLoadProgress
    }

    private enum DecodeState {
        case running([Int])
        case done(Result<DownloadOutcome, WebImageError>)
    }

    /// None, one or several: what a completed transfer hands on, without an array for the usual one.
    private enum OneOrMany<Element> {
        case none
        case one(Element)
        case many([Element])

        var isEmpty: Bool {
            switch self {
            case .none: true
            case .one: false
            case .many(let elements): elements.isEmpty
            }
        }

        func forEach(_ body: (Element) -> Void) {
            switch self {
            case .none: break
            case .one(let element): body(element)
            case .many(let elements): elements.forEach(body)
            }
        }
    }

    let identity: DownloadIdentity
    let url: URL
    /// Partial images, when the first caller asked for a progressive load.
    private let progressive: ProgressiveDownload?
    private let isConditional: Bool
    private let config: ImageDownloaderConfig
    private let executor: BoundedExecutor
    private let state: Locked<State>
    /// The downloader, told once when the download has nothing left to do (so that it forgets it), and through
    /// which the transfer is cancelled or raised in the engine. Weak: a download does not keep its downloader
    /// alive, and once the downloader is gone its engine has completed every transfer. (A reference rather than
    /// three closures: a download is made per request, and each closure would be an allocation.)
    private weak let owner: ImageDownloader?

    init(
        identity: DownloadIdentity,
        url: URL,
        isConditional: Bool,
        config: ImageDownloaderConfig,
        executor: BoundedExecutor,
        owner: ImageDownloader,
        progressive: ProgressiveDownload? = nil
    ) {
        self.progressive = progressive
        self.identity = identity
        self.url = url
        self.isConditional = isConditional
        self.config = config
        self.executor = executor
        self.owner = owner
        state = Locked(State(throttle: DownloadProgressThrottle(interval: config.minimumProgressInterval)))
    }

    /// Records the engine's number for the transfer (after `start` returned).
    /// Cancels the transfer at once when every caller left before it started.
    func started(_ id: CurlTransferID) {
        let abandoned: Bool = state.withLock { state in
            guard !state.isTransferDone else { return false }
            state.transferID = id
            return state.callers.isEmpty
        }
        if abandoned { owner?.cancelTransfer(id) }
    }

    // MARK: Callers

    /// Adds `caller`. Returns false when the download is already done, so that the caller starts a new one.
    func join(_ caller: DownloadCaller) -> Bool {
        enum Next { case none, refused, raise(CurlTransferID, CurlRequest.Priority), decode(Body), deliver(Result<DownloadOutcome, WebImageError>, Body) }
        let next: Next = state.withLock { state in
            if state.isTransferDone, state.outcome == nil { return .refused }
            if let outcome = state.outcome {
                if caller.decodeKey.isSharedData, let sharedData = state.sharedData { return .deliver(sharedData, outcome) }
                switch state.decodes[caller.decodeKey] {
                case .running(let waiting):
                    state.decodes[caller.decodeKey] = .running(waiting + [caller.id])
                    state.add(caller)
                    return .none
                case .done(let result):
                    return .deliver(result, outcome)
                case nil:
                    state.decodes[caller.decodeKey] = .running([caller.id])
                    state.add(caller)
                    return .decode(outcome)
                }
            }
            state.add(caller)
            if caller.priority > state.priority {
                state.priority = caller.priority
                if let id = state.transferID { return .raise(id, caller.priority) }
            }
            return .none
        }
        switch next {
        case .refused:
            return false
        case .none:
            break
        case .raise(let id, let priority):
            owner?.raiseTransfer(id, to: priority)
        case .decode(let body):
            scheduleDecode(caller.decodeKey, body: body)
        case .deliver(let result, let body):
            caller.token.record(body.metrics)
            caller.token.finish(result, before: caller.lastReport(body.lastProgress))
        }
        // Held strongly: the latch drops the hook when the caller completes, which every caller does.
        caller.token.onCancel { [self, id = caller.id] in leave(id) }
        return true
    }

    /// The priority the first caller asked for, before the transfer starts.
    func setInitialPriority(_ priority: CurlRequest.Priority) {
        state.withLock { $0.priority = priority }
    }

    /// A caller cancelled: forget it, and cancel the transfer when it was the last one waiting for it.
    private func leave(_ id: Int) {
        let cancel: CurlTransferID? = state.withLock { state in
            guard state.remove(id) != nil else { return nil }
            guard !state.isTransferDone, state.callers.isEmpty else { return nil }
            return state.transferID
        }
        if let cancel { owner?.cancelTransfer(cancel) }
    }

    // MARK: CurlTransferSink (on the curl thread: record and hand off only)

    func didReceiveResponse(_ response: CurlResponse) {}

    func didReceive(bytesSoFar: Int64, expected: Int64, chunk: UnsafeRawBufferPointer) {
        if let progressive {
            progressive.append(chunk) { [weak self] image in self?.deliverPartial(image, bytesSoFar: bytesSoFar, expected: expected) }
        }
        let listeners: [DownloadCaller] = state.withLock { state in
            guard state.progressListeners > 0,
                  state.throttle.shouldReport(received: bytesSoFar, expected: expected)
            else { return [] }
            return state.callers.filter { $0.progress != nil }
        }
        let progress = ImageLoadProgress(receivedBytes: bytesSoFar, expectedBytes: expected)
        for caller in listeners { caller.report(progress) }
    }

    /// Hands a partial image to the progressive callers still waiting.
    private func deliverPartial(_ image: Image, bytesSoFar: Int64, expected: Int64) {
        let listeners = state.withLock { state in
            state.isTransferDone ? [] : state.callers.filter { $0.wantsPartialImages }
        }
        let progress = ImageLoadProgress(receivedBytes: bytesSoFar, expectedBytes: expected, partialImage: image)
        for caller in listeners { caller.report(progress) }
    }

    func didComplete(_ result: Result<CurlTransferResult, WebImageError>, deliveries: DeliveryBatch?) {
        progressive?.finish()
        switch result {
        case .failure(let error):
            let callers: [DownloadCaller] = state.withLock { state in
                state.isTransferDone = true
                state.transferID = nil
                return state.removeAllCallers()
            }
            owner?.forget(self)
            for caller in callers { caller.token.finish(.failure(error), batch: deliveries) }
        case .success(let transfer):
            let response = ImageResponse(
                url: transfer.response.url == identity.url ? url : URL(string: transfer.response.url) ?? url,
                statusCode: transfer.response.statusCode,
                headers: transfer.response.headers
            )
            let body = Body(
                data: transfer.body,
                response: response,
                metrics: ImageDownloadMetrics(transfer.metrics),
                lastProgress: ImageLoadProgress(
                    receivedBytes: Int64(transfer.body.count),
                    expectedBytes: transfer.response.expectedContentLength ?? Int64(transfer.body.count)
                )
            )
            // Callers who want the body alone, with nothing of their own to run on it, need only the checks:
            // cheap, and no user code, so they run here and those callers complete at once.
            let sharedData = checkedData(body)
            let (decodeKeys, completedHere): (OneOrMany<DownloadCaller.DecodeKey>, OneOrMany<DownloadCaller>) = state.withLock { state in
                state.isTransferDone = true
                state.transferID = nil
                state.outcome = body
                state.sharedData = sharedData
                // One caller, the usual case, needs no grouping.
                if let only = state.callers.soleCaller {
                    if only.decodeKey.isSharedData {
                        _ = state.remove(only.id)
                        return (.none, .one(only))
                    }
                    state.decodes[only.decodeKey] = .running([only.id])
                    return (.one(only.decodeKey), .none)
                }
                var decodeKeys: [DownloadCaller.DecodeKey] = []
                var completedHere: [DownloadCaller] = []
                for (key, callers) in Dictionary(grouping: state.callers.all, by: \.decodeKey) {
                    if key.isSharedData {
                        for caller in callers { _ = state.remove(caller.id) }
                        completedHere += callers
                    } else {
                        state.decodes[key] = .running(callers.map(\.id))
                        decodeKeys.append(key)
                    }
                }
                return (.many(decodeKeys), .many(completedHere))
            }
            if decodeKeys.isEmpty { owner?.forget(self) }
            completedHere.forEach { caller in
                caller.token.record(body.metrics)
                caller.token.finish(sharedData, batch: deliveries, before: caller.lastReport(body.lastProgress))
            }
            decodeKeys.forEach { key in scheduleDecode(key, body: body) }
        }
    }

    /// The response checks on the body, for callers who want it undecoded and have no response modifier or
    /// decryptor.
    private func checkedData(_ body: Body) -> Result<DownloadOutcome, WebImageError> {
        if let failure = DownloadResponseCheck.failure(for: body.response, config: config, isConditional: isConditional) {
            return .failure(failure)
        }
        guard !body.data.isEmpty else {
            return .failure(WebImageError(.badImageData, "\(url.absoluteString) sent an empty body"))
        }
        return .success(.data(DownloadedImageData(data: body.data, response: body.response)))
    }

    // MARK: Decoding (on the executor)

    /// Decodes on the executor; the callers are completed after the executor's slot is released, on the same
    /// global-queue thread (no second dispatch for callers on the default callback queue).
    private func scheduleDecode(_ key: DownloadCaller.DecodeKey, body: Body) {
        executor.submitWithFollowUp { [self] in
            let representative: DownloadCaller? = state.withLock { state in
                guard case .running(let ids) = state.decodes[key] else { return nil }
                for id in ids {
                    if let caller = state.callers[id], !caller.token.isFinished { return caller }
                }
                return nil
            }
            let result: Result<DownloadOutcome, WebImageError>
            if let representative {
                result = process(body.data, response: body.response, for: representative)
            } else {
                result = .failure(WebImageError(.cancelled, "every caller of \(url.absoluteString) cancelled"))
            }
            return { [self] in finishDecode(key, result: result, body: body) }
        }
    }

    /// The response modifier, the response checks, the decryptor and the decode, for one decode key.
    private func process(_ body: Data, response: ImageResponse, for caller: DownloadCaller) -> Result<DownloadOutcome, WebImageError> {
        var response = response
        if let modifier = caller.responseModifier {
            guard let modified = modifier(response) else {
                return .failure(WebImageError(.invalidDownloadResponse, "the response modifier refused the response of \(url.absoluteString)"))
            }
            response = modified
        }
        if let failure = DownloadResponseCheck.failure(for: response, config: config, isConditional: isConditional) {
            return .failure(failure)
        }
        var data = body
        if let decryptor = caller.decryptor {
            guard let decrypted = decryptor(data, response) else {
                return .failure(WebImageError(.badImageData, "the decryptor refused the data of \(url.absoluteString)"))
            }
            data = decrypted
        }
        guard !data.isEmpty else {
            return .failure(WebImageError(.badImageData, "\(url.absoluteString) sent an empty body"))
        }
        if caller.decodeKey.dataOnly {
            return .success(.data(DownloadedImageData(data: data, response: response)))
        }
        do throws(WebImageError) {
            // The options are recorded so that a cache can tell a first-frame-only decode from the whole animation.
            let image = try caller.coder.decodeForLoad(data, options: caller.decodeKey.options)
            return .success(.image(DownloadedImage(image: image, data: data, response: response)))
        } catch {
            // A body no coder recognises is bad image data to a downloader, as SDWebImage reports it.
            let code = error.code == .unsupportedFormat ? .badImageData : error.code
            return .failure(WebImageError(code, "\(error.message) (\(url.absoluteString))", statusCode: error.statusCode))
        }
    }

    private func finishDecode(_ key: DownloadCaller.DecodeKey, result: Result<DownloadOutcome, WebImageError>, body: Body) {
        let (waiting, allDone): ([DownloadCaller], Bool) = state.withLock { state in
            guard case .running(let ids) = state.decodes[key] else { return ([], false) }
            state.decodes[key] = .done(result)
            let waiting = ids.compactMap { state.remove($0) }
            let allDone = !state.decodes.values.contains { if case .running = $0 { true } else { false } }
            return (waiting, allDone)
        }
        // Forgotten first, so that a caller who asks again from its completion starts a new transfer.
        if allDone { owner?.forget(self) }
        for caller in waiting {
            caller.token.record(body.metrics)
            caller.token.finish(result, onFreeGlobalThread: true, before: caller.lastReport(body.lastProgress))
        }
    }
}
