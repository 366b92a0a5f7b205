#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// The frames of one GIF animation, decoded on demand.
///
/// The canvas is kept between calls: asking for the next frame decodes that frame only, asking for a later
/// one decodes the frames between without taking snapshots of them, and asking for an earlier one starts again
/// from the first frame. Decoding resumes at the frame's records, found by the scan, without reading the image
/// data before them.
///
/// Thread-safe: every call may come from any thread; decoding is serialised by a lock held while a frame is
/// decoded (no user code runs under it).
final class GIFAnimatedImageProvider: AnimatedImageProviding {
    let animatedImageData: Data
    let frameSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    let hasAlpha: Bool

    private let structure: GIFStructure

    private struct State {
        /// The canvas after the disposal of frame `nextIndex - 1`; nil before the first frame.
        var canvas: AnimationCanvas?
        /// The frame the canvas is ready to draw.
        var nextIndex = 0
        /// The last frame handed out, for a repeated request.
        var last: (index: Int, pixels: PixelBuffer)?
    }

    private let state = Locked(State())

    init(data: Data, structure: GIFStructure, frameSize: PixelSize) {
        self.animatedImageData = data
        self.structure = structure
        self.frameSize = frameSize
        self.frameCount = structure.frameCount
        self.loopCount = structure.frameCount > 1 ? structure.loopCount : 0
        self.hasAlpha = structure.hasAlpha
    }

    var format: ImageFormat { .gif }

    func duration(ofFrameAt index: Int) -> Double {
        guard structure.frames.indices.contains(index) else { return 0 }
        return structure.frames[index].duration
    }

    func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        guard structure.frames.indices.contains(index) else {
            throw .badImageData(.gif, "frame \(index) is out of range: the animation has \(frameCount) frames")
        }
        return try state.withLock { state throws(WebImageError) -> PixelBuffer in
            if let last = state.last, last.index == index { return last.pixels }
            if index < state.nextIndex || state.canvas == nil {
                state.canvas = try AnimationCanvas(size: structure.canvasSize)
                state.nextIndex = 0
                state.last = nil
            }
            let canvas = state.canvas!
            let start = state.nextIndex
            // A failure leaves the canvas half drawn: start again from the first frame next time.
            state.canvas = nil
            let pixels = try decode(frames: start...index, onto: canvas)
            state.canvas = canvas
            state.nextIndex = index + 1
            state.last = (index, pixels)
            return pixels
        }
    }

    /// Draws `range` onto `canvas`, disposing each frame after it, and returns the snapshot of the last one.
    private func decode(frames range: ClosedRange<Int>, onto canvas: AnimationCanvas) throws(WebImageError) -> PixelBuffer {
        let resume = structure.resumePoint(ofFrame: range.lowerBound)
        return try animatedImageData.withBytes { bytes throws(WebImageError) in
            try GIFFrameRenderer.withRenderer(canvasWidth: structure.canvasSize.width) { renderer throws(WebImageError) in
                try GIFRecordReader.read(bytes, resumingAt: resume) { reader throws(WebImageError) in
                    var snapshot: PixelBuffer?
                    for index in range {
                        guard let frame = try reader.nextFrame() else {
                            throw .badImageData(.gif, "frame \(index) is missing")
                        }
                        try renderer.draw(frame, from: &reader, onto: canvas)
                        if index == range.upperBound {
                            snapshot = try canvas.snapshot(size: frameSize, hasAlpha: hasAlpha)
                        }
                        canvas.dispose(frame.rect, frame.control.disposal)
                    }
                    return snapshot!
                }
            }
        }
    }
}
