import CCurl
import WebImageCore

/// What the curl thread owns: the multi and share handles, the waiting queue and the running transfers, and the
/// loop around `curl_multi_poll`.
///
/// `@unchecked Sendable`: made on the thread that creates the engine and handed to the curl thread when that thread
/// starts (`pthread_create` orders the two); from then on only the curl thread touches it.
final class CurlEngineLoop: @unchecked Sendable {
    private let inbox: CurlEngineInbox
    private let counters: CurlLiveCounters
    private let configuration: CurlEngine.Configuration
    private let multi: UnsafeMutableRawPointer
    private var share: UnsafeMutableRawPointer?
    private var waiting: CurlWaitingQueue<CurlSubmission>
    /// The running transfers, in no order; each knows its place here (``CurlTransfer/runningIndex``), so adding
    /// and removing one hashes nothing. A cancel finds its transfer by a scan: there are at most
    /// ``CurlEngine/Configuration/maxConcurrentTransfers``.
    private var running: [CurlTransfer] = []
    private let handles: CurlEasyPool
    /// When the running transfers are next checked for stalls.
    private var nextStallCheck = CurlInstant.now
    /// How often running transfers are checked for stalls; a stall is reported this much late at most. curl's own
    /// low-speed check averages over several seconds, so on its own it fires late.
    private static let stallCheckInterval: Duration = .milliseconds(250)
    /// ``stallCheckInterval`` in nanoseconds.
    private static let stallCheckNanoseconds = CurlInstant.nanoseconds(stallCheckInterval)
    /// Completions gathered on this thread for the global queue; sent by ``sendDeliveries()``.
    private let deliveries = DeliveryBatch()
    /// When gathered completions may be sent.
    private var deliveryWindow: CurlDeliveryWindow
    /// The header lines made last, for the next transfer that sends the same headers.
    private var lastHeaderList: CurlHeaderList?

    init(multi: UnsafeMutableRawPointer, inbox: CurlEngineInbox, counters: CurlLiveCounters, configuration: CurlEngine.Configuration) {
        self.multi = multi
        self.inbox = inbox
        self.counters = counters
        self.configuration = configuration
        waiting = CurlWaitingQueue(order: configuration.executionOrder, limits: configuration.admissionLimits)
        handles = CurlEasyPool(capacity: configuration.maxConcurrentTransfers, counters: counters)
        deliveryWindow = CurlDeliveryWindow(length: configuration.deliveryWindow)
    }

    /// The curl thread's body: runs until shutdown, then cancels everything, frees every handle and counts the thread
    /// as ended (its last step).
    func run() {
        makeShare()
        let idleTimeout = Self.milliseconds(configuration.pollTimeout)
        let busyTimeout = min(idleTimeout, Self.milliseconds(Self.stallCheckInterval))
        while true {
            let (commands, shuttingDown) = inbox.take()
            if shuttingDown {
                for command in commands { discard(command) }
                break
            }
            for command in commands { apply(command) }
            startWaiting()
            var stillRunning: Int32 = 0
            _ = curl_multi_perform(multi, &stillRunning)
            finishDone()
            // One clock reading per round, for the stall check and the delivery window.
            let now = CurlInstant.now
            checkStalls(at: now)
            let holding = sendDeliveries(at: now)
            if running.count < configuration.maxConcurrentTransfers, waiting.hasAdmissible() {
                continue
            }
            var timeout = running.isEmpty ? idleTimeout : busyTimeout
            if let holding { timeout = min(timeout, Self.milliseconds(nanoseconds: holding)) }
            _ = curl_multi_poll(multi, nil, 0, timeout, nil)
        }
        tearDown()
        deliveries.send()
        counters.threadEnded()
    }

    private func apply(_ command: CurlEngineInbox.Command) {
        switch command {
        case .add(let submission):
            waiting.enqueue(submission, id: submission.id, priority: submission.request.priority, key: submission.connectionKey)
            // Started at once while a slot is free, as an operation queue starts an operation when it is added:
            // transfers added in one batch are not ordered as a batch, so with last in, first out the first of
            // them still starts first, and only the ones that find every slot taken wait.
            startWaiting()
        case .cancel(let id):
            if let entry = waiting.remove(id) {
                entry.sink.didComplete(.failure(CurlError.map(CURLE_OK, abort: .cancelled, url: entry.request.url)), deliveries: deliveries)
            } else if let transfer = running.first(where: { $0.id == id }) {
                remove(transfer)
                transfer.sink.didComplete(.failure(CurlError.map(CURLE_OK, abort: .cancelled, url: transfer.request.url)), deliveries: deliveries)
            }
        case .setPriority(let id, let priority):
            waiting.setPriority(id, priority)
        }
    }

    /// A command that arrived with shutdown: an added transfer completes cancelled; the rest mean nothing now.
    private func discard(_ command: CurlEngineInbox.Command) {
        if case .add(let submission) = command {
            submission.sink.didComplete(
                .failure(CurlError.map(CURLE_OK, abort: .cancelled, url: submission.request.url)), deliveries: deliveries
            )
        }
    }

    /// Starts waiting transfers while slots are free and their connection keys admit them.
    private func startWaiting() {
        while running.count < configuration.maxConcurrentTransfers, let next = waiting.dequeue() {
            start(next.element)
        }
    }

    /// Starts a transfer for `submission`, reading the request through it: the transfer makes the one copy. A
    /// transfer that cannot start gives its admission back at once; one that starts gives it back in `remove`.
    private func start(_ submission: CurlSubmission) {
        let settings = submission.request.reusableSettings
        guard let (easy, settingsInPlace) = handles.take(for: settings) else {
            waiting.release(submission.connectionKey)
            let message = "curl could not make a handle for \(submission.request.url)"
            submission.sink.didComplete(.failure(WebImageError(.invalidDownloadOperation, message)), deliveries: deliveries)
            return
        }
        let transfer = CurlTransfer(submission: submission, easy: easy, counters: counters)
        transfer.reusableSettings = settings
        let sink = transfer.sink
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        do {
            try transfer.configure(
                context: context, share: share, headers: headerList(for: transfer.request.headers), settingsInPlace: settingsInPlace
            )
        } catch {
            waiting.release(submission.connectionKey)
            sink.didComplete(.failure(error), deliveries: deliveries)
            return
        }
        // The one retain of the context, released in `remove`.
        _ = Unmanaged.passRetained(transfer)
        let code = curl_multi_add_handle(multi, transfer.easy)
        guard code == CURLM_OK else {
            waiting.release(submission.connectionKey)
            Unmanaged.passUnretained(transfer).release()
            let reason = String(cString: curl_multi_strerror(code))
            sink.didComplete(.failure(WebImageError(.invalidDownloadOperation, "\(reason) (\(transfer.request.url))")), deliveries: deliveries)
            return
        }
        transfer.runningIndex = running.count
        running.append(transfer)
    }

    /// The header lines for `headers`: the last ones made when they send the same, else new ones (kept for the next
    /// transfer). Nil when there are none, or when curl could not allocate them.
    private func headerList(for headers: [HTTPHeader]) -> CurlHeaderList? {
        guard !headers.isEmpty else { return nil }
        if let last = lastHeaderList, last.sends(headers) { return last }
        lastHeaderList = CurlHeaderList(headers)
        return lastHeaderList
    }

    /// Completes the transfers curl reports done.
    private func finishDone() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = wi_curl_msg_result(message)
            var pointer: UnsafeMutableRawPointer?
            guard wi_curl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer) == CURLE_OK, let pointer else {
                continue
            }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
            let result = transfer.result(for: code)
            remove(transfer)
            transfer.sink.didComplete(result, deliveries: deliveries)
        }
    }

    /// Sends the gathered completions, unless they came in a burst: then they wait until the delivery window that
    /// began with the last send has passed, and this returns how many nanoseconds longer, so that the poll wakes in
    /// time.
    private func sendDeliveries(at now: CurlInstant) -> Int64? {
        guard !deliveries.isEmpty else { return nil }
        if let wait = deliveryWindow.wait(at: now) { return wait }
        deliveries.send()
        return nil
    }

    /// Stops the running transfers that received nothing for their stall timeout, at most once per
    /// ``stallCheckInterval``: each completes with `timedOut`.
    private func checkStalls(at now: CurlInstant) {
        guard !running.isEmpty, now >= nextStallCheck else { return }
        nextStallCheck = now + Self.stallCheckNanoseconds
        let stalled = running.filter { $0.hasStalled(at: now) }
        for transfer in stalled {
            remove(transfer)
            let stall = transfer.request.stallTimeout
            transfer.sink.didComplete(.failure(CurlError.map(CURLE_OK, abort: .stalled(stall), url: transfer.request.url)), deliveries: deliveries)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        milliseconds(nanoseconds: CurlInstant.nanoseconds(duration))
    }

    private static func milliseconds(nanoseconds: Int64) -> Int32 {
        max(1, Int32(clamping: nanoseconds / 1_000_000))
    }

    /// Takes a running transfer out of the multi handle, gives back its admission and releases the context's one
    /// retain.
    private func remove(_ transfer: CurlTransfer) {
        _ = curl_multi_remove_handle(multi, transfer.easy)
        waiting.release(transfer.connectionKey)
        transfer.handleReturned = true
        // `curl_easy_reset` keeps a handle's share, cookies and TLS session cache: a handle that used cookies or
        // skipped certificate checks is freed, never handed to another request. A plain request's handle keeps its
        // options for the next request with the same settings, once nothing on it points into this transfer.
        if transfer.request.usesCookies || !transfer.request.verifiesTLS {
            CurlEasyPool.free(transfer.easy, counters)
        } else if let settings = transfer.reusableSettings {
            transfer.detachFromHandle()
            handles.give(transfer.easy, settings: settings)
        } else {
            handles.give(transfer.easy, settings: nil)
        }
        let index = transfer.runningIndex
        if index < running.count, running[index] === transfer {
            let last = running.removeLast()
            if last !== transfer {
                running[index] = last
                last.runningIndex = index
            }
        }
        Unmanaged.passUnretained(transfer).release()
    }

    /// Cancels every transfer, running or waiting, and frees every handle.
    private func tearDown() {
        // From the back (over a copy of the array), so that each removal takes the last slot and moves nothing.
        for transfer in running.reversed() {
            remove(transfer)
            transfer.sink.didComplete(.failure(CurlError.map(CURLE_OK, abort: .cancelled, url: transfer.request.url)), deliveries: deliveries)
        }
        for entry in waiting.removeAll() {
            entry.sink.didComplete(.failure(CurlError.map(CURLE_OK, abort: .cancelled, url: entry.request.url)), deliveries: deliveries)
        }
        inbox.waitForWakers()
        for command in inbox.take().commands { discard(command) }
        handles.drain()
        lastHeaderList = nil
        if let share {
            curl_share_cleanup(share)
            counters.handleClosed()
            self.share = nil
        }
        curl_multi_cleanup(multi)
        counters.handleClosed()
    }

    /// The cookie store shared by the transfers that use cookies; touched only on this thread, so it needs no locks.
    private func makeShare() {
        guard let share = curl_share_init() else { return }
        _ = wi_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
        counters.handleOpened()
        self.share = share
    }
}
