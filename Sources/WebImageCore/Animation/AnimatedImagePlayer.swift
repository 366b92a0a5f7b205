/// Plays an ``AnimatedImage`` without a display: a state machine driven by an ``AnimationClock`` that hands each
/// frame to ``frameHandler`` when it is due, as SDWebImage's `SDAnimatedImagePlayer`.
///
/// On each tick the player shows the frame it moved to on the previous tick, if that frame is decoded; if it is
/// not (a buffer miss), time stands still until it is: the player waits rather than jumps. Then it adds the
/// elapsed time, and once the current frame's duration (divided by ``playbackRate``) has passed it moves on by
/// exactly one frame, whatever the elapsed time: frames are never skipped. Each tick also asks the image's
/// ``AnimatedFramePool`` to decode the next frame ahead of time.
///
/// ```swift
/// let player = AnimatedImagePlayer(image: loaded)!            // nil for a still image
/// player.frameHandler = { index, frame in render(frame) }
/// player.loopHandler = { loop in print("loop \(loop) done") }
/// player.startPlaying()
/// ```
///
/// A loop ends when playback comes back to the frame it starts on (frame 0, or the last frame in the reverse
/// modes); after ``totalLoopCount`` loops (0: forever) the player stops on the last frame it showed.
///
/// Thread-safe: every property and method may be used from any thread. The handlers run on the clock's thread
/// (or on the thread calling ``seek(toFrameAt:loopCount:)``), never under the player's lock, and may call the
/// player. Releasing the player stops its clock.
public final class AnimatedImagePlayer: Sendable {
    private struct State {
        var mode: AnimationPlaybackMode = .normal
        var rate: Double = 1
        var totalFrameCount: Int
        var totalLoopCount: Int
        var index = 0
        var direction = 1
        var loop = 0
        var time: Double = 0
        var needsDisplay = true
        var bufferMiss = false
        var isPlaying = false
        var hasStarted = false
        var finished = false
        var currentFrame: PixelBuffer?
        var frameHandler: (@Sendable (Int, PixelBuffer) -> Void)?
        var loopHandler: (@Sendable (Int) -> Void)?
    }

    /// The image played.
    public let animation: AnimatedImage
    private let clock: any AnimationClock
    private let state: Locked<State>

    /// A player of `animation`, or nil when it has fewer than two frames.
    ///
    /// - Parameter clock: What drives the player; a 60 Hz ``TimerAnimationClock`` by default. One clock per player.
    public init?(animation: AnimatedImage, clock: any AnimationClock = TimerAnimationClock()) {
        guard animation.frameCount > 1 else { return nil }
        self.animation = animation
        self.clock = clock
        self.state = Locked(State(totalFrameCount: animation.frameCount, totalLoopCount: animation.loopCount))
    }

    /// A player of `image`'s ``Image/animation``, or nil when the image has none with two frames or more.
    public convenience init?(image: Image, clock: any AnimationClock = TimerAnimationClock()) {
        guard let animation = image.animation else { return nil }
        self.init(animation: animation, clock: clock)
    }

    deinit {
        clock.stop()
    }

    // MARK: Settings

    /// The order frames are shown in; `.normal` by default. Changing it applies from the next frame.
    public var playbackMode: AnimationPlaybackMode {
        get { state.withLock { $0.mode } }
        set {
            state.withLock { state in
                state.mode = newValue
                if !state.hasStarted { state.direction = newValue.startDirection }
            }
        }
    }

    /// How fast the animation plays: 2 shows each frame half as long. 1 by default; 0 or less stops playback.
    public var playbackRate: Double {
        get { state.withLock { $0.rate } }
        set { state.withLock { $0.rate = newValue } }
    }

    /// The number of frames played: the image's by default; a progressive load may set fewer (at least 2 are
    /// played, at most the image's count).
    public var totalFrameCount: Int {
        get { state.withLock { $0.totalFrameCount } }
        set { state.withLock { $0.totalFrameCount = min(max(newValue, 2), animation.frameCount) } }
    }

    /// How many loops to play; 0 means forever. The image's loop count by default.
    public var totalLoopCount: Int {
        get { state.withLock { $0.totalLoopCount } }
        set { state.withLock { $0.totalLoopCount = max(newValue, 0) } }
    }

    /// The frame pool's byte budget, shared by every player of the image (setting it sets the pool's).
    public var maxBufferSize: Int {
        get { animation.framePool.maxByteCount }
        set { animation.framePool.maxByteCount = newValue }
    }

    /// Called with each frame shown and its index.
    public var frameHandler: (@Sendable (Int, PixelBuffer) -> Void)? {
        get { state.withLock { $0.frameHandler } }
        set { state.withLock { $0.frameHandler = newValue } }
    }

    /// Called with the number of loops completed, each time one completes.
    public var loopHandler: (@Sendable (Int) -> Void)? {
        get { state.withLock { $0.loopHandler } }
        set { state.withLock { $0.loopHandler = newValue } }
    }

    // MARK: State

    /// The index of the frame shown, or about to be shown.
    public var currentFrameIndex: Int { state.withLock { $0.index } }
    /// The loops completed.
    public var currentLoopCount: Int { state.withLock { $0.loop } }
    /// The last frame shown, nil before the first.
    public var currentFrame: PixelBuffer? { state.withLock { $0.currentFrame } }
    /// Whether the clock is driving the player.
    public var isPlaying: Bool { state.withLock { $0.isPlaying } }
    /// Whether the player is waiting for a frame that is not decoded yet.
    public var isWaitingForFrame: Bool { state.withLock { $0.bufferMiss } }

    // MARK: Control

    /// Starts or resumes playback. After the last loop finished, starts again from the beginning.
    public func startPlaying() {
        let starts = state.withLock { state -> Bool in
            guard !state.isPlaying else { return false }
            if state.finished { Self.reset(&state, frameCount: animation.frameCount) }
            if !state.hasStarted {
                state.hasStarted = true
                state.index = state.mode.startIndex(frameCount: state.totalFrameCount)
                state.direction = state.mode.startDirection
                state.needsDisplay = true
            }
            state.isPlaying = true
            return true
        }
        guard starts else { return }
        // The frame to show first is decoded ahead of the first tick.
        let first = currentFrameIndex
        if !animation.framePool.contains(frameAt: first) { animation.framePool.prefetch(frameAt: first) }
        clock.start { [weak self] elapsed in self?.tick(elapsed) }
    }

    /// Pauses, keeping the frame index, loop count and time within the frame.
    public func pausePlaying() {
        state.withLock { $0.isPlaying = false }
        clock.stop()
    }

    /// Stops and rewinds: frame index, loop count, time and buffer-miss state back to the start. No handler runs.
    public func stopPlaying() {
        state.withLock { state in
            state.isPlaying = false
            Self.reset(&state, frameCount: animation.frameCount)
        }
        clock.stop()
    }

    /// Shows frame `index` now, decoding it on the calling thread when the pool does not hold it, and continues
    /// from there with `loopCount` loops done. Calls the frame handler. Throws `badImageData` when the frame is out
    /// of range or cannot be decoded.
    public func seek(toFrameAt index: Int, loopCount: Int = 0) throws(WebImageError) {
        guard index >= 0, index < animation.frameCount else {
            throw .badImageData(animation.format, "frame \(index) is out of range: the animation has \(animation.frameCount) frames")
        }
        let frame = try animation.framePool.loadFrame(at: index)
        let handler = state.withLock { state in
            state.hasStarted = true
            state.finished = false
            state.index = index
            state.loop = max(loopCount, 0)
            state.time = 0
            state.needsDisplay = false
            state.bufferMiss = false
            state.currentFrame = frame
            return state.frameHandler
        }
        handler?(index, frame)
    }

    /// Drops the frames the pool holds (every player of the image loses them).
    public func clearFrameBuffer() {
        animation.framePool.removeAll()
    }

    // MARK: Ticks

    private static func reset(_ state: inout State, frameCount: Int) {
        state.hasStarted = false
        state.finished = false
        state.index = state.mode.startIndex(frameCount: state.totalFrameCount)
        state.direction = state.mode.startDirection
        state.loop = 0
        state.time = 0
        state.needsDisplay = true
        state.bufferMiss = false
    }

    /// One clock tick with `elapsed` seconds since the previous one.
    func tick(_ elapsed: Double) {
        var shown: (Int, PixelBuffer, @Sendable (Int, PixelBuffer) -> Void)?
        var looped: (Int, @Sendable (Int) -> Void)?
        var prefetch: Int?
        var stopsClock = false
        let pool = animation.framePool
        state.withLock { state in
            guard state.isPlaying else { return }
            let count = state.totalFrameCount
            guard count > 1, state.rate > 0 else {
                state.isPlaying = false
                stopsClock = true
                return
            }
            let next = state.mode.step(from: state.index, direction: state.direction, frameCount: count)
            if state.needsDisplay {
                if let frame = pool.frame(at: state.index) {
                    state.currentFrame = frame
                    state.needsDisplay = false
                    state.bufferMiss = false
                    if let handler = state.frameHandler { shown = (state.index, frame, handler) }
                } else {
                    state.bufferMiss = true
                    if pool.hasFailed(frameAt: state.index) {
                        // A frame that cannot be decoded would be waited for forever.
                        state.isPlaying = false
                        stopsClock = true
                        return
                    }
                }
            }
            if state.bufferMiss {
                prefetch = state.index
                return
            }
            state.time += max(elapsed, 0)
            let duration = animation.duration(ofFrameAt: state.index) / state.rate
            if state.time < duration {
                prefetch = next.index
                return
            }
            let start = state.mode.startIndex(frameCount: count)
            if next.index == start, state.totalLoopCount > 0, state.loop + 1 >= state.totalLoopCount {
                // The last loop ends on the frame shown now.
                state.loop += 1
                if let handler = state.loopHandler { looped = (state.loop, handler) }
                state.isPlaying = false
                state.finished = true
                state.time = 0
                stopsClock = true
                return
            }
            state.time -= duration
            state.index = next.index
            state.direction = next.direction
            state.needsDisplay = true
            // Never skip a frame: what is left over is at most the next frame's whole duration.
            state.time = min(state.time, animation.duration(ofFrameAt: next.index) / state.rate)
            if next.index == start {
                state.loop += 1
                if let handler = state.loopHandler { looped = (state.loop, handler) }
            }
            prefetch = next.index
        }
        if stopsClock { clock.stop() }
        if let shown { shown.2(shown.0, shown.1) }
        if let looped { looped.1(looped.0) }
        if let prefetch, !pool.contains(frameAt: prefetch) { pool.prefetch(frameAt: prefetch) }
    }
}
