import CCurl
import Synchronization
import WebImageCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs HTTP transfers on libcurl's multi interface, on one dedicated thread.
///
/// ```swift
/// let engine = try CurlEngine()
/// let id = engine.start(CurlRequest(url: "https://example.com/a.png"), sink: sink)
/// engine.cancel(id)          // the sink completes once, with `cancelled`
/// engine.invalidate()        // every transfer completes, the thread is joined, every handle freed
/// ```
///
/// Threading: every method may be called from any thread. The engine's own thread (a real thread, not one of Swift's
/// cooperative pool) alone touches curl's handles; the methods post commands to a locked inbox and wake it. Sinks are
/// called on that thread. One long-lived multi handle keeps connections open for reuse and multiplexes HTTP/2.
///
/// Cancellation: ``cancel(_:)`` completes the transfer's sink once with `cancelled`, unless it already completed.
/// ``invalidate()``, also run by `deinit`, cancels every transfer.
package final class CurlEngine: Sendable {
    private struct ThreadState {
        var thread: pthread_t?
    }

    private let inbox: CurlEngineInbox
    private let threadState: Locked<ThreadState>
    private let nextID = Atomic<UInt64>(1)
    /// The proxy settings that decide connection keys; nil when the engine counts no connections.
    private let proxy: CurlProxyEnvironment?

    /// What this engine holds alive; all zero after ``invalidate()`` returns.
    package let liveCounters: CurlLiveCounters
    /// The configuration the engine was made with.
    package let configuration: Configuration

    /// Makes an engine and starts its thread.
    ///
    /// - Throws: `invalidDownloadOperation` when curl cannot be initialised, the multi handle cannot be made or the
    ///   thread cannot be started.
    package init(configuration: Configuration = Configuration()) throws(WebImageError) {
        guard CurlRuntime.initialize() else {
            throw WebImageError(.invalidDownloadOperation, "libcurl could not be initialised")
        }
        let counters = CurlLiveCounters()
        // Made here so that other threads can wake it from the start; handed to the curl thread below, which
        // alone uses it from then on.
        guard let multi = curl_multi_init() else {
            throw WebImageError(.invalidDownloadOperation, "libcurl could not make a multi handle")
        }
        counters.handleOpened()
        _ = wi_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        _ = wi_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(0, configuration.maxConnectionsPerHost))
        _ = wi_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, max(0, configuration.maxTotalConnections))
        var adjusted = configuration
        adjusted.maxConcurrentTransfers = max(1, configuration.maxConcurrentTransfers)
        let inbox = CurlEngineInbox(multi: multi)
        let loop = CurlEngineLoop(multi: multi, inbox: inbox, counters: counters, configuration: adjusted)
        counters.threadStarted()
        var thread = pthread_t()
        let argument = Unmanaged.passRetained(loop).toOpaque()
        let created = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let loop = Unmanaged<CurlEngineLoop>.fromOpaque(argument).takeRetainedValue()
            loop.run()
            return nil
        }, argument)
        guard created == 0 else {
            Unmanaged<CurlEngineLoop>.fromOpaque(argument).release()
            counters.threadEnded()
            curl_multi_cleanup(multi)
            counters.handleClosed()
            throw WebImageError(.invalidDownloadOperation, "could not start the curl thread (error \(created))")
        }
        self.inbox = inbox
        self.liveCounters = counters
        self.configuration = adjusted
        proxy = adjusted.countsConnections ? CurlProxyEnvironment.current() : nil
        threadState = Locked(ThreadState(thread: thread))
    }

    deinit {
        invalidate()
    }

    /// Starts a transfer, or queues it when ``Configuration/maxConcurrentTransfers`` are running, or when its host
    /// (or all hosts) has as many transfers running as it may have connections (see
    /// ``Configuration/maxConnectionsPerHost``).
    ///
    /// The sink is called on the curl thread and completes exactly once. After ``invalidate()`` the sink completes
    /// at once, on the calling thread, with `cancelled`.
    ///
    /// - Returns: The transfer's identifier, for ``cancel(_:)`` and ``setPriority(_:_:)``.
    @discardableResult
    package func start(_ request: CurlRequest, sink: some CurlTransferSink) -> CurlTransferID {
        let id = CurlTransferID(rawValue: nextID.wrappingAdd(1, ordering: .relaxed).oldValue)
        let key = proxy.map { CurlConnectionKey(url: request.url, proxy: $0) } ?? .uncounted
        if !inbox.post(.add(CurlSubmission(id: id, request: request, sink: sink, connectionKey: key))) {
            sink.didComplete(.failure(CurlError.map(CURLE_OK, abort: .cancelled, url: request.url)), deliveries: nil)
        }
        return id
    }

    /// Cancels a transfer, waiting or running: its sink completes with `cancelled` unless it has already completed.
    /// Returns at once; the cancellation happens on the curl thread. Unknown or finished identifiers are ignored.
    package func cancel(_ id: CurlTransferID) {
        _ = inbox.post(.cancel(id))
    }

    /// Moves a waiting transfer to another priority (to the back of that priority's line). A running transfer keeps
    /// running; unknown or finished identifiers are ignored.
    package func setPriority(_ id: CurlTransferID, _ priority: CurlRequest.Priority) {
        _ = inbox.post(.setPriority(id, priority))
    }

    /// Cancels every transfer (each sink completes with `cancelled`), stops and joins the curl thread and frees every
    /// handle. Idempotent; later calls return at once. When called on the curl thread itself (from a sink), the
    /// thread is detached instead of joined and finishes the shutdown as soon as the sink returns.
    package func invalidate() {
        inbox.shutDown()
        let thread: pthread_t? = threadState.withLock { state in
            defer { state.thread = nil }
            return state.thread
        }
        guard let thread else { return }
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }
}
