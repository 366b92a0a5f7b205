/// A number that every process opening the same file sees and changes, with an exclusive lock over it: a disk
/// cache's ledger of the bytes its directory holds (``DiskFileSystem/openSharedCounter(atPath:)``).
///
/// Adding and reading are atomic and cost no system call, so that a write can keep the ledger current without
/// taking a lock; the lock serialises the rare recounts that set the ledger to what the directory really holds.
/// Not thread-safe: a disk cache touches its ledger only on its IO queue.
package protocol DiskSharedCounter: AnyObject {
    /// The current value.
    var value: Int { get }
    /// Adds `delta` (negative to subtract), atomically with respect to every process sharing the counter.
    func add(_ delta: Int)
    /// Takes the exclusive lock, waiting while another process (or another cache in this one) holds it. The
    /// kernel releases the lock of a process that dies. Best effort: where the file system refuses locks, it
    /// returns without one.
    func lock()
    /// Releases the lock taken by ``lock()``.
    func unlock()
}

/// A counter this process alone sees: the ledger of a cache whose directory cannot hold the shared one (it does
/// not exist yet, or it is read-only). Its lock is no lock.
package final class ProcessLocalCounter: DiskSharedCounter {
    package private(set) var value = 0

    package init() {}

    package func add(_ delta: Int) {
        value += delta
    }

    package func lock() {}

    package func unlock() {}
}
