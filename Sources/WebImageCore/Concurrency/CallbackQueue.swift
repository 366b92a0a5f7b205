import Dispatch
import Foundation

/// Where completion handlers run, as SDWebImage's `SDCallbackQueue`.
///
/// The library never runs a completion on one of its own work queues (the disk cache's IO queue, the decode
/// executor, the downloader's thread): a result that is ready there is handed to the callback queue.
///
/// - ``default``: a result that is ready while the caller is still in the call (a memory hit) is delivered at
///   once, on the caller's thread, without a thread switch; a result that comes later is delivered on a global
///   concurrent queue: on the global-queue thread that produced it when that thread has finished its part and
///   holds nothing (a decode executor's thread after releasing its slot), else by dispatching. This works in a
///   process whose main queue is never serviced, such as a server.
/// - ``main``: on the main queue; inline when the result is ready on the main thread. For user interfaces.
/// - ``init(_:policy:)``: any dispatch queue, with one of the three policies.
public struct CallbackQueue: Sendable {
    /// How a completion reaches its queue.
    public enum Policy: Sendable, Hashable {
        /// Inline when already on the target (for ``default``: when the caller is still in the call), else
        /// asynchronously on it.
        case safeExecute
        /// Always asynchronously on the target.
        case dispatch
        /// Always inline, on whichever thread produced the result. Only for completions that do very little.
        case invoke
    }

    private enum Target: Sendable {
        case callerThenGlobal
        case main
        case queue(DispatchQueue, Marker)
    }

    /// Identifies a queue from inside it, for ``Policy/safeExecute``.
    private final class Marker: Sendable {}
    private static let markerKey = DispatchSpecificKey<Marker>()

    private let target: Target
    /// The policy.
    public let policy: Policy

    private init(target: Target, policy: Policy) {
        self.target = target
        self.policy = policy
    }

    /// A callback queue over `queue`.
    ///
    /// For ``Policy/safeExecute`` the queue is marked (with a dispatch-specific value) so that it can be
    /// recognised from inside.
    public init(_ queue: DispatchQueue, policy: Policy = .safeExecute) {
        let marker = Marker()
        queue.setSpecific(key: CallbackQueue.markerKey, value: marker)
        self.init(target: .queue(queue, marker), policy: policy)
    }

    /// The caller's thread for results ready during the call, else a global concurrent queue.
    public static let `default` = CallbackQueue(target: .callerThenGlobal, policy: .safeExecute)
    /// The main queue; inline when already on the main thread.
    public static let main = CallbackQueue(target: .main, policy: .safeExecute)
    /// A global concurrent queue, always asynchronously.
    public static let global = CallbackQueue(target: .callerThenGlobal, policy: .dispatch)
    /// Inline wherever the result is produced.
    public static let inline = CallbackQueue(target: .callerThenGlobal, policy: .invoke)

    /// Runs `block` as the policy says.
    ///
    /// - Parameters:
    ///   - duringCall: Whether the caller of the operation is still in its call (the result was ready
    ///     synchronously).
    ///   - onFreeGlobalThread: Whether this thread is a thread of the global concurrent queue that holds no lock,
    ///     slot or queue of the library's, so that a completion for a global queue may run on it at once.
    ///   - batch: Where a block bound for the global concurrent queue is gathered instead of dispatched on its own,
    ///     by a thread that sends many results at once (see ``DeliveryBatch``). Blocks for the main queue or a
    ///     queue of the caller's are dispatched as usual.
    package func execute(
        duringCall: Bool, onFreeGlobalThread: Bool = false, batch: DeliveryBatch? = nil, _ block: @escaping @Sendable () -> Void
    ) {
        switch policy {
        case .invoke:
            block()
        case .dispatch:
            dispatch(block, batch: batch)
        case .safeExecute:
            if isCurrent(duringCall: duringCall || onFreeGlobalThread) {
                block()
            } else {
                dispatch(block, batch: batch)
            }
        }
    }

    /// Whether ``execute(duringCall:onFreeGlobalThread:_:)`` would run its block at once, on this thread, so that
    /// a caller can run it directly without making a closure.
    package func runsInline(duringCall: Bool, onFreeGlobalThread: Bool = false) -> Bool {
        switch policy {
        case .invoke: true
        case .dispatch: false
        case .safeExecute: isCurrent(duringCall: duringCall || onFreeGlobalThread)
        }
    }

    private func isCurrent(duringCall: Bool) -> Bool {
        switch target {
        case .callerThenGlobal:
            return duringCall
        case .main:
            return Thread.isMainThread
        case .queue(_, let marker):
            return DispatchQueue.getSpecific(key: CallbackQueue.markerKey) === marker
        }
    }

    private func dispatch(_ block: @escaping @Sendable () -> Void, batch: DeliveryBatch?) {
        switch target {
        case .callerThenGlobal:
            if let batch {
                batch.add(block)
            } else {
                DispatchQueue.global().async(execute: block)
            }
        case .main:
            DispatchQueue.main.async(execute: block)
        case .queue(let queue, _):
            queue.async(execute: block)
        }
    }
}
