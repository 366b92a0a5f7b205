#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Plays an APNG frame by frame onto an ``AnimationCanvas``: each frame is rebuilt as a standalone PNG, read by
/// libpng row by row and drawn with its blend operation (an interlaced file's frames are decoded whole into a
/// scratch buffer first), captured at the target size, then disposed of as its frame control says.
///
/// Not thread-safe: one compositor serves one decode, or one provider behind its lock.
final class APNGCompositor {
    let animation: APNGAnimation
    /// The size every captured frame has.
    let targetSize: PixelSize
    /// Whether captured frames are resampled with alpha.
    let resamplesWithAlpha: Bool

    private(set) var canvas: AnimationCanvas
    /// The index of the frame ``renderNext(bytes:)`` draws next.
    private(set) var nextIndex = 0
    private var writer = APNGFrameWriter()

    /// - Parameters:
    ///   - animation: The parsed file; its canvas must be within the caller's pixel limit.
    ///   - targetSize: The size of the captured frames (the canvas size, or smaller for a reduced decode).
    /// - Throws: `imageTooLarge` when the canvas's memory cannot be had (possible only without a pixel limit).
    init(animation: APNGAnimation, targetSize: PixelSize) throws(WebImageError) {
        self.animation = animation
        self.targetSize = targetSize
        self.resamplesWithAlpha = animation.mayBeTransparent
        self.canvas = try AnimationCanvas(size: animation.canvasSize)
    }

    /// Starts again from frame 0 on a cleared canvas.
    func rewind() throws(WebImageError) {
        canvas = try AnimationCanvas(size: animation.canvasSize)
        nextIndex = 0
    }

    /// Whether every frame has been drawn.
    var isFinished: Bool { nextIndex >= animation.frames.count }

    /// Draws the next frame and returns the canvas as it is shown then, at ``targetSize``.
    ///
    /// Frames whose canvas did not change share the previous frame's buffer.
    /// - Parameter bytes: The whole APNG file.
    /// - Throws: `badImageData` with libpng's message when the frame's data is damaged.
    func renderNext(bytes: UnsafeRawBufferPointer) throws(WebImageError) -> PixelBuffer {
        try advance(bytes: bytes, capturing: true)!
    }

    /// Draws the next frame and disposes of it; returns the canvas as shown (at ``targetSize``) only when
    /// `capturing`, so that frames passed over on the way to a later one cost no snapshot.
    func advance(bytes: UnsafeRawBufferPointer, capturing: Bool) throws(WebImageError) -> PixelBuffer? {
        precondition(!isFinished, "every frame has been drawn")
        let index = nextIndex
        let frame = animation.frames[index]
        let rect = frame.rect
        // PREVIOUS on the first frame acts as BACKGROUND: nothing is saved, and the canvas clears.
        let disposal: AnimationCanvas.Disposal = index == 0 && frame.disposal == .previous ? .background : frame.disposal
        if disposal == .previous {
            try canvas.saveForDisposal(rect)
        }
        try draw(frame, bytes: bytes)
        let shown = capturing ? try canvas.snapshot(size: targetSize, hasAlpha: resamplesWithAlpha) : nil
        canvas.dispose(rect, disposal)
        nextIndex += 1
        return shown
    }

    /// Decodes `frame` and draws it row by row: each row straight onto the canvas as libpng reads it, or for an
    /// interlaced file (whose passes need the whole frame) through a scratch buffer of the frame's size.
    ///
    /// A frame whose data is damaged may leave its first rows drawn; the caller then gives up the canvas.
    private func draw(_ frame: APNGFrame, bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        let size = frame.size
        let rowBytes = size.width * 4
        let canvas = self.canvas
        let isInterlaced = animation.header.isInterlaced
        try writer.withStandalonePNG(of: frame, in: animation, bytes: bytes) { png throws(WebImageError) in
            if !isInterlaced {
                try PNGRowStream.forEachRow(of: png, size: size) { row, y in
                    canvas.drawRow(row.assumingMemoryBound(to: UInt32.self), y: y, of: frame.rect, blend: frame.blend)
                }
                return
            }
            try ScratchBufferPool.shared.withBuffer(byteCount: rowBytes * size.height) { scratch throws(WebImageError) in
                guard let base = scratch.baseAddress else { return }
                try LibPNG.decodeRGBA(png, size: size, into: base)
                let pixels = UnsafeRawPointer(base).assumingMemoryBound(to: UInt32.self)
                for y in 0..<size.height {
                    canvas.drawRow(pixels + y * size.width, y: y, of: frame.rect, blend: frame.blend)
                }
            }
        }
    }
}
