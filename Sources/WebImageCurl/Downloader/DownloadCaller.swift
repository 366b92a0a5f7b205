import WebImageCore

/// One caller of a shared transfer: how to reach it, and what it runs on the body of its own. As a member of the
/// transfer's flight it hears the progress and receives the transfer's end.
struct DownloadCaller: Sendable {
    let token: ImageDownloadToken
    let latch: CompletionLatch<DownloadedImageData>
    let progress: ImageLoadProgressHandler?
    let callbackQueue: CallbackQueue
    let responseModifier: ImageResponseModifier?
    let decryptor: ImageDataDecryptor?
    /// Whether the caller asked for a progressive load and listens: it then gets every byte so far with each report.
    let wantsBody: Bool
    /// Where the body is held while Core decodes it, for a caller that Core's decoding made; nil for others.
    let heldBodies: HeldBodies?

    /// Whether the caller runs something of its own on the body, which the shared checks do not cover.
    var hasOwnProcessing: Bool { responseModifier != nil || decryptor != nil }

    /// The caller as the transfer's flight keeps it. A caller with nothing of its own to run completes with the
    /// shared checked body as soon as the transfer ends, on the thread that ends it; one with a response modifier
    /// or a decryptor has them run on `executor`, as they are user code.
    func member(executor: BoundedExecutor) -> SharedDownload.Flights.Member {
        let caller = self
        var listen: SharedDownload.Flights.Listener?
        if progress != nil {
            listen = { update in
                if caller.wantsBody {
                    caller.report(update.progress)
                } else if !update.isThrottled {
                    var report = update.progress
                    report.receivedData = nil
                    caller.report(report)
                }
            }
        }
        return SharedDownload.Flights.Member(listen: listen) { end in
            guard case .success(let body) = end.body else {
                caller.latch.finish(end.checked, batch: end.deliveries.batch)
                return
            }
            caller.token.record(body.metrics)
            if let heldBodies = caller.heldBodies {
                heldBodies.hold(end)
                let identity = end.download.identity
                caller.token.holdBody { heldBodies.release(identity) }
            }
            let last = caller.lastReport(body.lastProgress)
            guard caller.hasOwnProcessing else {
                caller.latch.finish(end.checked, batch: end.deliveries.batch, before: last)
                return
            }
            executor.submitWithFollowUp {
                guard !caller.latch.isDone else { return nil }
                let result = end.download.processed(body, responseModifier: caller.responseModifier, decryptor: caller.decryptor)
                return { caller.latch.finish(result, onFreeGlobalThread: true, before: last) }
            }
        }
    }

    /// The last progress report, to run with the completion in one block so that it comes before it; nil
    /// without a progress handler.
    func lastReport(_ progress: ImageLoadProgress?) -> (@Sendable () -> Void)? {
        guard let handler = self.progress, let progress else { return nil }
        return { handler(progress) }
    }

    /// Hands `progress` to the caller on its callback queue, unless it has already finished or cancelled.
    func report(_ progress: ImageLoadProgress) {
        guard let handler = self.progress else { return }
        let latch = latch
        callbackQueue.execute(duringCall: false) {
            guard !latch.isDone else { return }
            handler(progress)
        }
    }
}
