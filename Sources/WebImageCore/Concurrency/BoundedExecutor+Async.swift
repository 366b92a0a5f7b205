extension BoundedExecutor {
    /// Runs `work` on the executor and returns its result, suspending the caller meanwhile: the work never runs on
    /// a thread of Swift's cooperative pool, and no thread waits for it.
    ///
    /// Cancellation: a task already cancelled throws `cancelled` without submitting anything. Cancelling the task
    /// while the work waits for a slot throws `cancelled` at once, and the work never runs; work that has started
    /// runs to its end on the executor, its result dropped, and the call throws `cancelled` at once.
    ///
    /// - Parameter cancellationMessage: The message of the `cancelled` error.
    package func run<Success: Sendable>(
        cancellationMessage: @autoclosure () -> String,
        _ work: @escaping @Sendable () throws(WebImageError) -> Success
    ) async throws(WebImageError) -> Success {
        guard !Task.isCancelled else { throw WebImageError(.cancelled, cancellationMessage()) }
        let cancellationError = WebImageError(.cancelled, cancellationMessage())
        let pending = PendingCancellation<CompletionLatch<Success>> { $0.cancel() }
        let result: Result<Success, WebImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let latch = CompletionLatch<Success>(callbackQueue: .inline, cancellationError: cancellationError) {
                    continuation.resume(returning: $0)
                }
                pending.set(latch)
                submit {
                    guard !latch.isDone else { return }
                    let result: Result<Success, WebImageError>
                    do throws(WebImageError) {
                        result = .success(try work())
                    } catch {
                        result = .failure(error)
                    }
                    latch.finish(result)
                }
            }
        } onCancel: {
            pending.cancel()
        }
        return try result.get()
    }
}
