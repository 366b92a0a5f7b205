import Foundation

/// Runs `body` on a new thread and returns its result, without holding a thread of Swift's cooperative pool while
/// it blocks: the pool has one thread per core, and every test's tasks share it.
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
