import Testing
@testable import WebImageCore
import WebImageTestSupport

/// The player's exact frame sequences under a manual clock, with decodes that run at once unless a test holds them.
@Suite struct AnimatedImagePlayerTests {
    /// A player over `provider` with a manual clock and immediate decodes, and what it shows.
    private func makePlayer(
        _ provider: SyntheticAnimation,
        scheduler: AnimatedFramePool.Scheduler = .immediate,
        mode: AnimationPlaybackMode = .normal
    ) throws -> (AnimatedImagePlayer, ManualAnimationClock, PlayerRecorder) {
        let clock = ManualAnimationClock()
        let animation = AnimatedImage(provider: provider, fetchScheduler: scheduler)
        let player = try #require(AnimatedImagePlayer(animation: animation, clock: clock))
        player.playbackMode = mode
        let recorder = PlayerRecorder()
        recorder.attach(to: player)
        return (player, clock, recorder)
    }

    /// Ticks `count` times by `step` and returns, for each frame shown, the tick (from 1) it was shown on.
    private func timeline(_ clock: ManualAnimationClock, _ recorder: PlayerRecorder, step: Double, ticks count: Int) -> [[Int]] {
        var result: [[Int]] = []
        for tick in 1...count {
            let before = recorder.frames.count
            clock.advance(by: step)
            for frame in recorder.frames.dropFirst(before) { result.append([tick, frame]) }
        }
        return result
    }

    @Test func normalPlaybackShowsEveryFrameInOrderAndCountsLoops() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(frames: 4, duration: 0.125))
        player.startPlaying()
        clock.advance(by: 0.125, times: 10)
        #expect(recorder.frames == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1])
        #expect(recorder.loops == [1, 2])
        #expect(player.currentLoopCount == 2)
        // The tick that showed frame 1 moved on to frame 2, to be shown on the next tick.
        #expect(player.currentFrameIndex == 2)
    }

    @Test func eachFrameStaysForItsOwnDuration() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(durations: [0.25, 0.125, 0.0625]))
        player.startPlaying()
        let shown = timeline(clock, recorder, step: 0.0625, ticks: 12)
        #expect(shown == [[1, 0], [5, 1], [7, 2], [8, 0], [12, 1]])
    }

    @Test func longTicksNeverSkipAFrame() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(frames: 4, duration: 0.125))
        player.startPlaying()
        clock.advance(by: 1.0, times: 6)
        #expect(recorder.frames == [0, 1, 2, 3, 0, 1])
    }

    @Test func playbackRateDividesTheDurations() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(frames: 4, duration: 0.125))
        player.playbackRate = 2
        player.startPlaying()
        #expect(timeline(clock, recorder, step: 0.0625, ticks: 4) == [[1, 0], [2, 1], [3, 2], [4, 3]])

        let (slow, slowClock, slowRecorder) = try makePlayer(SyntheticAnimation(frames: 4, duration: 0.125))
        slow.startPlaying()
        #expect(timeline(slowClock, slowRecorder, step: 0.0625, ticks: 4) == [[1, 0], [3, 1]])
    }

    @Test(arguments: [
        (AnimationPlaybackMode.normal, [0, 1, 2, 3, 0, 1, 2, 3, 0], 4),
        (.reverse, [3, 2, 1, 0, 3, 2, 1, 0, 3], 4),
        (.bounce, [0, 1, 2, 3, 2, 1, 0, 1, 2], 6),
        (.reversedBounce, [3, 2, 1, 0, 1, 2, 3, 2, 1], 6),
    ])
    func playbackModesGiveTheirSequences(mode: AnimationPlaybackMode, expected: [Int], loopTick: Int) throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(frames: 4, duration: 0.125), mode: mode)
        player.startPlaying()
        var loopTicks: [Int] = []
        for tick in 1...expected.count {
            let loops = recorder.loops.count
            clock.advance(by: 0.125)
            if recorder.loops.count > loops { loopTicks.append(tick) }
        }
        #expect(recorder.frames == expected)
        // The loop ends on the tick that leaves the last frame of the cycle.
        #expect(loopTicks.first == loopTick)
    }

    @Test func stopsAfterTheLoopCountOnTheLastFrame() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(frames: 3, duration: 0.125, loopCount: 2))
        #expect(player.totalLoopCount == 2)
        player.startPlaying()
        clock.advance(by: 0.125, times: 20)
        #expect(recorder.frames == [0, 1, 2, 0, 1, 2])
        #expect(recorder.loops == [1, 2])
        #expect(!player.isPlaying)
        #expect(!clock.isRunning)
        #expect(player.currentFrameIndex == 2)
        #expect(player.currentFrame.map(SyntheticAnimation.index(of:)) == 2)

        // Starting again after the end plays from the beginning.
        player.startPlaying()
        clock.advance(by: 0.125, times: 2)
        #expect(recorder.frames.suffix(2) == [0, 1])
    }

    @Test func aCustomLoopCountOverridesTheImages() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(frames: 2, duration: 0.125, loopCount: 0))
        player.totalLoopCount = 3
        player.startPlaying()
        clock.advance(by: 0.125, times: 50)
        #expect(recorder.frames == [0, 1, 0, 1, 0, 1])
        #expect(recorder.loops == [1, 2, 3])
    }

    @Test func aBufferMissWaitsForTheFrameInsteadOfJumping() throws {
        let held = HeldScheduler()
        let provider = SyntheticAnimation(frames: 4, duration: 0.125)
        let (player, clock, recorder) = try makePlayer(provider, scheduler: held.scheduler)
        player.startPlaying()
        #expect(held.pendingCount == 1)  // frame 0, asked for by the start

        // However long the ticks, nothing is shown and time stands still while frame 0 is not decoded.
        clock.advance(by: 10, times: 3)
        #expect(recorder.frames.isEmpty)
        #expect(player.isWaitingForFrame)
        #expect(held.pendingCount == 1)  // at most one decode in flight

        held.runAll()
        clock.advance(by: 0.125)          // shows 0 and moves on to 1, whose decode is asked for
        #expect(recorder.frames == [0])
        clock.advance(by: 10, times: 2)   // 1 is not decoded: waits
        #expect(recorder.frames == [0])
        #expect(player.currentFrameIndex == 1)
        held.runAll()
        clock.advance(by: 10)             // shows 1, and one long tick moves on by one frame only
        #expect(recorder.frames == [0, 1])
        #expect(player.currentFrameIndex == 2)
        for _ in 0..<6 {
            held.runAll()
            clock.advance(by: 10)
        }
        #expect(recorder.frames == [0, 1, 2, 3, 0, 1, 2, 3])
    }

    @Test func theFramePoolStaysWithinItsBudget() throws {
        let provider = SyntheticAnimation(frames: 8, duration: 0.125)
        let (player, clock, recorder) = try makePlayer(provider)
        let frameBytes = 4 * 4 * 2
        player.maxBufferSize = 2 * frameBytes
        #expect(player.animation.framePool.maxFrameCount == 2)
        player.startPlaying()
        for _ in 0..<20 {
            clock.advance(by: 0.125)
            #expect(player.animation.framePool.frameCount <= 2)
            #expect(player.animation.framePool.byteCount <= 2 * frameBytes)
        }
        #expect(recorder.frames == Array(0..<8) + Array(0..<8) + Array(0..<4))
        // Frames evicted after they were shown are decoded again on the next loop.
        #expect(provider.decoded.count > 8)

        // A budget under one frame still keeps one.
        player.maxBufferSize = 1
        #expect(player.animation.framePool.maxFrameCount == 1)
        #expect(player.animation.framePool.frameCount == 1)
    }

    @Test func playersOfOneImageShareItsFrames() throws {
        let provider = SyntheticAnimation(frames: 5, duration: 0.125)
        let animation = AnimatedImage(provider: provider, fetchScheduler: .immediate)
        let clocks = [ManualAnimationClock(), ManualAnimationClock()]
        let players = try clocks.map { try #require(AnimatedImagePlayer(animation: animation, clock: $0)) }
        let recorders = players.map { player in
            let recorder = PlayerRecorder()
            recorder.attach(to: player)
            return recorder
        }
        for player in players { player.startPlaying() }
        for _ in 0..<12 {
            for clock in clocks { clock.advance(by: 0.125) }
        }
        #expect(recorders[0].frames == recorders[1].frames)
        #expect(recorders[0].frames.count == 12)
        // Every frame decoded once for both players: the pool's default budget holds the whole animation.
        #expect(provider.decoded.sorted() == [0, 1, 2, 3, 4])
        #expect(animation.isAllFramesLoaded)
    }

    @Test func seekShowsTheFrameAndPlaysOnFromIt() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(frames: 4, duration: 0.125))
        player.startPlaying()
        try player.seek(toFrameAt: 2, loopCount: 1)
        #expect(recorder.frames == [2])
        #expect(player.currentLoopCount == 1)
        clock.advance(by: 0.125, times: 3)
        #expect(recorder.frames == [2, 3, 0])
        #expect(player.currentLoopCount == 2)
        #expect(throws: WebImageError.self) { try player.seek(toFrameAt: 4) }
    }

    @Test func pauseKeepsThePlaceAndStopRewinds() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(frames: 4, duration: 0.125))
        player.startPlaying()
        clock.advance(by: 0.125, times: 2)
        player.pausePlaying()
        #expect(!clock.isRunning)
        clock.advance(by: 0.125, times: 5)
        #expect(recorder.frames == [0, 1])
        player.startPlaying()
        clock.advance(by: 0.125, times: 2)
        #expect(recorder.frames == [0, 1, 2, 3])

        player.stopPlaying()
        #expect(player.currentFrameIndex == 0)
        #expect(player.currentLoopCount == 0)
        #expect(recorder.frames == [0, 1, 2, 3])  // stopping calls no handler
        player.startPlaying()
        clock.advance(by: 0.125, times: 2)
        #expect(recorder.frames == [0, 1, 2, 3, 0, 1])
    }

    @Test func aFrameThatCannotBeDecodedStopsPlayback() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(durations: [0.125, 0.125, 0.125], size: PixelSize(width: 2, height: 2), failing: [2]))
        player.startPlaying()
        clock.advance(by: 0.125, times: 6)
        #expect(recorder.frames == [0, 1])
        #expect(!player.isPlaying)
        #expect(player.animation.framePool.hasFailed(frameAt: 2))
    }

    @Test func aZeroRateStopsAndAStillImageHasNoPlayer() throws {
        let (player, clock, recorder) = try makePlayer(SyntheticAnimation(frames: 3))
        player.playbackRate = 0
        player.startPlaying()
        clock.advance(by: 0.1)
        #expect(!player.isPlaying)
        #expect(recorder.frames.isEmpty)
        #expect(AnimatedImagePlayer(animation: AnimatedImage(provider: SyntheticAnimation(frames: 1)), clock: ManualAnimationClock()) == nil)
    }

    @Test func releasingThePlayerStopsItsClock() throws {
        let clock = ManualAnimationClock()
        weak var weakPlayer: AnimatedImagePlayer?
        do {
            let player = try #require(AnimatedImagePlayer(animation: AnimatedImage(provider: SyntheticAnimation(frames: 3)), clock: clock))
            weakPlayer = player
            player.startPlaying()
            #expect(clock.isRunning)
        }
        #expect(weakPlayer == nil)
        #expect(!clock.isRunning)
    }

    @Test func theTimerClockPlaysInRealTime() async throws {
        let provider = SyntheticAnimation(frames: 3, duration: 0.02)
        let player = try #require(AnimatedImagePlayer(animation: AnimatedImage(provider: provider), clock: TimerAnimationClock(framesPerSecond: 100)))
        let recorder = PlayerRecorder()
        recorder.attach(to: player)
        player.startPlaying()
        let played = await waitUntil(timeout: .seconds(10)) { recorder.frames.count >= 7 }
        player.stopPlaying()
        #expect(played)
        let frames = recorder.frames
        // In order, none skipped, whatever the timer's jitter.
        for (position, frame) in frames.enumerated() { #expect(frame == position % 3) }
    }
}
