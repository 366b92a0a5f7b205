/// The loads of a manager that have not completed, whether it still takes new ones, and who waits for there to be
/// none: one value behind one lock, so that a load cannot register after a waiter saw none, once new loads are
/// refused.
struct RunningLoads {
    /// The running loads, by their run.
    private(set) var operations: [ObjectIdentifier: ImageLoadOperation] = [:]
    /// Whether ``ImageManager/beginShutdown()`` was called: no load registers any more.
    private(set) var refusesNewLoads = false
    private var idleWaiters: [UInt64: @Sendable () -> Void] = [:]
    private var nextWaiterID: UInt64 = 0

    /// Registers `operation`; false, registering nothing, once new loads are refused.
    mutating func insert(_ operation: ImageLoadOperation, for id: ObjectIdentifier) -> Bool {
        guard !refusesNewLoads else { return false }
        operations[id] = operation
        return true
    }

    /// Forgets the load `id`; returns the idle waiters to call (after the lock is released) when none is left.
    mutating func remove(_ id: ObjectIdentifier) -> [@Sendable () -> Void] {
        guard operations.removeValue(forKey: id) != nil, operations.isEmpty, !idleWaiters.isEmpty else { return [] }
        defer { idleWaiters.removeAll() }
        return Array(idleWaiters.values)
    }

    /// Refuses new loads from now on.
    mutating func refuseNewLoads() {
        refusesNewLoads = true
    }

    /// Keeps `waiter` until no load runs; nil, keeping nothing, when none runs now.
    mutating func addIdleWaiter(_ waiter: @escaping @Sendable () -> Void) -> UInt64? {
        guard !operations.isEmpty else { return nil }
        let id = nextWaiterID
        nextWaiterID += 1
        idleWaiters[id] = waiter
        return id
    }

    /// Forgets the waiter `id`, which stopped waiting (a timeout, a cancellation).
    mutating func removeIdleWaiter(_ id: UInt64) {
        idleWaiters.removeValue(forKey: id)
    }
}
