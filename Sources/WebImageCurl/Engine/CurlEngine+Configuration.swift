extension CurlEngine {
    /// The order among waiting transfers of equal priority.
    package enum ExecutionOrder: Sendable {
        /// First in, first out.
        case fifo
        /// Last in, first out.
        case lifo
    }

    /// How an engine schedules transfers and pools connections.
    package struct Configuration: Sendable {
        /// Transfers running at once; the rest wait in the engine, ordered by priority and ``executionOrder``.
        package var maxConcurrentTransfers = 6
        /// First in, first out (the default), or last in, first out, among waiting transfers of equal priority.
        package var executionOrder: ExecutionOrder = .fifo
        /// Connections to one host at once (`CURLMOPT_MAX_HOST_CONNECTIONS`); 0 for no limit. The engine runs no more
        /// transfers of one ``CurlConnectionKey`` at once than this; the others wait in its queue, where no timeout
        /// runs, rather than in libcurl's, where their whole-transfer timeout would.
        package var maxConnectionsPerHost = 6
        /// Connections at once (`CURLMOPT_MAX_TOTAL_CONNECTIONS`); 0 for no limit. The engine runs no more transfers
        /// that need a connection at once than this. libcurl closes idle connections kept for reuse to make room for
        /// new ones, so only the connections in use count.
        package var maxTotalConnections = 0
        /// The longest the curl thread sleeps in `curl_multi_poll` when nothing happens; posts and curl's own timers
        /// wake it sooner.
        package var pollTimeout: Duration = .seconds(30)
        /// How long completions that follow one another closely may wait to be sent together to the global queue
        /// (see ``DeliveryBatch``). A completion that comes after a quiet spell of this length is sent at once; one
        /// that comes in a burst waits at most this long, so that the burst costs a thread wake-up per this span
        /// rather than one per completion. Zero sends each at once.
        package var deliveryWindow: Duration = .milliseconds(2)

        package init() {}

        /// Whether the connection limits can hold back a transfer: only when one of them is below
        /// ``maxConcurrentTransfers``. Otherwise the engine skips working out connection keys.
        var countsConnections: Bool {
            let limits = [maxConnectionsPerHost, maxTotalConnections]
            return limits.contains { $0 > 0 && $0 < maxConcurrentTransfers }
        }

        /// The limits the waiting queue admits transfers by.
        var admissionLimits: CurlWaitingQueue<CurlSubmission>.Limits {
            guard countsConnections else { return .init() }
            return .init(perKey: max(0, maxConnectionsPerHost), total: max(0, maxTotalConnections))
        }
    }
}
