#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// An animation of solid frames, one colour per frame (red channel = index), that counts its decodes.
final class SyntheticAnimation: AnimatedImageProviding {
    let animatedImageData: Data
    let format = ImageFormat.gif
    let frameSize: PixelSize
    let loopCount: Int
    let hasAlpha = false
    let durations: [Double]
    /// Frames whose decode fails.
    let failing: Set<Int>
    private let decodes = Locked<[Int]>([])

    init(
        durations: [Double], loopCount: Int = 0, size: PixelSize = PixelSize(width: 4, height: 2), failing: Set<Int> = [],
        data: Data = Data()
    ) {
        self.durations = durations
        animatedImageData = data
        self.loopCount = loopCount
        self.frameSize = size
        self.failing = failing
    }

    convenience init(frames: Int, duration: Double = 0.1, loopCount: Int = 0) {
        self.init(durations: Array(repeating: duration, count: frames), loopCount: loopCount)
    }

    var frameCount: Int { durations.count }

    /// The indices decoded so far, in order.
    var decoded: [Int] { decodes.withLock { $0 } }

    func duration(ofFrameAt index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        decodes.withLock { $0.append(index) }
        guard durations.indices.contains(index), !failing.contains(index) else {
            throw WebImageError.badImageData(.gif, "frame \(index) cannot be decoded")
        }
        return try PixelBuffer(width: frameSize.width, height: frameSize.height, color: RGBAColor(red: UInt8(index), green: 0, blue: 0, alpha: 255))
    }

    /// The index a frame of this animation stands for.
    static func index(of frame: PixelBuffer) -> Int {
        Int(frame[x: 0, y: 0].red)
    }
}

/// A frame-pool scheduler that holds decodes until the test runs them.
final class HeldScheduler: Sendable {
    private let pending = Locked<[@Sendable () -> Void]>([])

    var scheduler: AnimatedFramePool.Scheduler {
        AnimatedFramePool.Scheduler { [self] work in pending.withLock { $0.append(work) } }
    }

    var pendingCount: Int { pending.withLock { $0.count } }

    /// Runs every held decode.
    func runAll() {
        let work = pending.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for item in work { item() }
    }
}

/// What a player showed, in order.
final class PlayerRecorder: Sendable {
    private let state = Locked<(frames: [Int], loops: [Int])>(([], []))

    func attach(to player: AnimatedImagePlayer) {
        player.frameHandler = { [self] index, frame in
            precondition(SyntheticAnimation.index(of: frame) == index, "the frame shown is not the frame named")
            state.withLock { $0.frames.append(index) }
        }
        player.loopHandler = { [self] loop in state.withLock { $0.loops.append(loop) } }
    }

    var frames: [Int] { state.withLock { $0.frames } }
    var loops: [Int] { state.withLock { $0.loops } }
}
