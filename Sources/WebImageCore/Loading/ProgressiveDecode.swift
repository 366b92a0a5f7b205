import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The partial images of one progressive load: the bytes received so far, as the loader hands them over, and an
/// incremental decoder fed from them on the executor, at most one partial decode at a time, and the starts of two
/// at least `interval` apart. Bytes that arrive while a decode runs, or before the interval has passed, are decoded
/// as soon as it allows, even when no more bytes come (a server that pauses still gets its partial image). Partial
/// decodes stop at ``finish()``, whether the load completed, failed or was cancelled.
///
/// The loader's thread only records the latest bytes and, when no partial decode is running, hands them to the
/// executor; the lock is shared only with that one decode, so it is never held for long. Thread-safe.
final class ProgressiveDecode: Sendable {
    private struct State {
        /// The latest bytes received, the whole body so far.
        var body = Data()
        /// How much of `body` the last partial decode was given.
        var decodedCount = 0
        var isDecoding = false
        /// Whether a later start is scheduled for bytes that came before the interval had passed.
        var isWaitingForInterval = false
        var isFinished = false
        /// Made from the first bytes that a coder can start on; nil until then, or for good when none can.
        var decoder: (any IncrementalImageDecoding)?
        var noDecoder = false
        /// When the last partial decode started.
        var lastStart: ContinuousClock.Instant?
        /// The last partial image delivered: a decode that found nothing new hands back the same object.
        var lastImage: Image?
    }

    private let state = Locked(State())
    private let coder: any ImageCoding
    private let options: ImageDecodeOptions
    private let executor: BoundedExecutor
    private let interval: Duration
    private let deliver: @Sendable (Image) -> Void

    /// - Parameters:
    ///   - interval: The least time between the starts of two partial decodes, in seconds.
    ///   - deliver: Gets each new partial image, on the executor.
    init(
        coder: any ImageCoding,
        options: ImageDecodeOptions,
        executor: BoundedExecutor,
        interval: Double = 0,
        deliver: @escaping @Sendable (Image) -> Void
    ) {
        self.coder = coder
        self.options = options
        self.executor = executor
        self.interval = .milliseconds(Int64((max(interval, 0) * 1000).rounded()))
        self.deliver = deliver
    }

    /// Takes `body`, every byte received so far; when no partial decode is running, starts one over it. Bodies
    /// that are no longer than the last one taken change nothing.
    func received(_ body: Data) {
        let grew = state.withLock { state in
            guard !state.isFinished, body.count > state.body.count else { return false }
            state.body = body
            return true
        }
        if grew { startIfDue() }
    }

    /// Starts a partial decode of the bytes not yet decoded, unless one is running (it calls this again when it
    /// ends) or the interval has not passed (a start is then scheduled for when it has).
    private func startIfDue() {
        enum Next { case nothing, decode(Data), wait(Duration) }
        let next: Next = state.withLock { state in
            guard !state.isFinished, !state.isDecoding, !state.isWaitingForInterval, !state.noDecoder,
                  state.body.count > state.decodedCount
            else { return .nothing }
            let now = ContinuousClock.now
            if let last = state.lastStart, now - last < interval {
                state.isWaitingForInterval = true
                return .wait(interval - (now - last))
            }
            state.lastStart = now
            state.isDecoding = true
            state.decodedCount = state.body.count
            return .decode(state.body)
        }
        switch next {
        case .nothing:
            break
        case .wait(let delay):
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
                guard let self else { return }
                state.withLock { $0.isWaitingForInterval = false }
                startIfDue()
            }
        case .decode(let snapshot):
            executor.submit { [self] in
                decode(snapshot)
                startIfDue()
            }
        }
    }

    /// One partial decode of `snapshot`, on the executor; delivers its image when it shows something new.
    private func decode(_ snapshot: Data) {
        let decoder: (any IncrementalImageDecoding)? = state.withLock { state in
            if state.decoder == nil, !state.noDecoder {
                state.decoder = Self.makeDecoder(coder, for: snapshot, options: options)
                // Too few bytes to tell yet, unless a good part of an image has come.
                if state.decoder == nil, snapshot.count > 64 << 10 { state.noDecoder = true }
            }
            return state.isFinished ? nil : state.decoder
        }
        var image: Image?
        if let decoder {
            decoder.update(snapshot, isFinished: false)
            image = decoder.currentImage()
        }
        let delivers = state.withLock { state in
            state.isDecoding = false
            // A decode that found the whole image is the final one's twin (the final result follows anyway),
            // and one that found nothing new is the last partial again.
            guard let image, image.isIncremental, !state.isFinished, image !== state.lastImage else { return false }
            state.lastImage = image
            return true
        }
        guard delivers, let image else { return }
        // With frames on demand, a partial animation is an animation as the final image will be.
        if options.framesOnDemand, !options.firstFrameOnly {
            deliver(image.partialAnimation(data: snapshot, options: options))
        } else {
            deliver(image)
        }
    }

    /// No partial decode starts after this, and none that is running delivers.
    func finish() {
        state.withLock { state in
            state.isFinished = true
            state.body = Data()
            state.lastImage = nil
        }
    }

    private static func makeDecoder(_ coder: any ImageCoding, for data: Data, options: ImageDecodeOptions) -> (any IncrementalImageDecoding)? {
        if let registry = coder as? ImageCoderRegistry {
            return registry.makeIncrementalDecoder(for: data, options: options)
        }
        if let progressive = coder as? any ProgressiveImageCoding, progressive.canDecodeIncrementally(data) {
            return progressive.makeIncrementalDecoder(options: options)
        }
        return nil
    }
}
