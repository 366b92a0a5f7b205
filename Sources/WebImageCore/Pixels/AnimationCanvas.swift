#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The canvas an animation is composited on (GIF, APNG): frames are drawn into a sub-rectangle with a blend
/// rule, then disposed of as their format says; each displayed state becomes a frame of the image.
///
/// Frames that leave the canvas unchanged (drawn wholly outside it, or fully transparent over no disposal)
/// reuse the previous frame's buffer, so they cost no memory.
///
/// Not thread-safe: one canvas serves one decode.
package final class AnimationCanvas {
    /// How a frame's pixels combine with the canvas.
    package enum Blend: Sendable {
        /// Replace the canvas pixels in the frame's rectangle (APNG `APNG_BLEND_OP_SOURCE`).
        case source
        /// Lay the frame over the canvas by its alpha (APNG `APNG_BLEND_OP_OVER`; GIF transparency).
        case over
    }

    /// What happens to the frame's rectangle after the frame has been shown.
    package enum Disposal: Sendable {
        /// Leave it.
        case none
        /// Clear it to transparent.
        case background
        /// Put back what was there before the frame was drawn.
        case previous
    }

    package let size: PixelSize
    private let pixels: UnsafeMutablePointer<UInt32>
    private var saved: UnsafeMutablePointer<UInt32>?
    private var savedRect: Rect?
    private var changedSinceSnapshot = true
    private var lastFrame: PixelBuffer?
    private var lastTarget: PixelSize?

    /// A rectangle in canvas pixels.
    package struct Rect: Sendable, Hashable {
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int

        package init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        package var isEmpty: Bool { width <= 0 || height <= 0 }
    }

    /// Creates a canvas cleared to transparent.
    ///
    /// - Throws: `imageTooLarge` when the size is empty or its memory cannot be had.
    package init(size: PixelSize) throws(WebImageError) {
        self.size = size
        pixels = try AnimationCanvas.allocateCleared(size)
    }

    deinit {
        free(pixels)
        free(saved)
    }

    /// Zeroed memory for `size` pixels (calloc: pages the kernel hands out zeroed are not written twice).
    private static func allocateCleared(_ size: PixelSize) throws(WebImageError) -> UnsafeMutablePointer<UInt32> {
        let count = size.pixelCount
        guard !size.isEmpty, count < Int.max / 4, let memory = calloc(count, 4) else {
            throw WebImageError(.imageTooLarge, "cannot allocate an animation canvas of \(size) pixels")
        }
        return memory.bindMemory(to: UInt32.self, capacity: count)
    }

    /// `rect` clipped to the canvas.
    package func clip(_ rect: Rect) -> Rect {
        let x0 = max(0, rect.x)
        let y0 = max(0, rect.y)
        let x1 = min(size.width, rect.x + max(0, rect.width))
        let y1 = min(size.height, rect.y + max(0, rect.height))
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Call before drawing a frame whose disposal is `.previous`: keeps what `rect` covers now.
    ///
    /// - Throws: `imageTooLarge` when the memory to keep it cannot be had.
    package func saveForDisposal(_ rect: Rect) throws(WebImageError) {
        let r = clip(rect)
        savedRect = r
        guard !r.isEmpty else { return }
        if saved == nil { saved = try AnimationCanvas.allocateCleared(size) }
        for row in 0..<r.height {
            (saved! + row * r.width).update(from: pixels + (r.y + row) * size.width + r.x, count: r.width)
        }
    }

    /// Draws one row of a frame: `row` holds `frameRect.width` RGBA pixels for frame row `y` (from the frame's top).
    package func drawRow(_ row: UnsafePointer<UInt32>, y: Int, of frameRect: Rect, blend: Blend) {
        let cy = frameRect.y + y
        guard cy >= 0, cy < size.height else { return }
        let x0 = max(0, frameRect.x)
        let x1 = min(size.width, frameRect.x + frameRect.width)
        guard x1 > x0 else { return }
        let dst = pixels + cy * size.width
        let skip = x0 - frameRect.x
        changedSinceSnapshot = true
        switch blend {
        case .source:
            (dst + x0).update(from: row + skip, count: x1 - x0)
        case .over:
            for x in x0..<x1 {
                dst[x] = AnimationCanvas.over(row[skip + x - x0], dst[x])
            }
        }
    }

    /// Applies a frame's disposal after it has been shown.
    package func dispose(_ rect: Rect, _ disposal: Disposal) {
        let r = clip(rect)
        guard !r.isEmpty else { return }
        switch disposal {
        case .none:
            return
        case .background:
            for row in r.y..<(r.y + r.height) {
                (pixels + row * size.width + r.x).update(repeating: 0, count: r.width)
            }
            changedSinceSnapshot = true
        case .previous:
            guard let saved, let savedRect, savedRect == r else {
                // Nothing saved for this rectangle: the first frame, where "previous" means the empty canvas.
                dispose(rect, .background)
                return
            }
            for row in 0..<r.height {
                (pixels + (r.y + row) * size.width + r.x).update(from: saved + row * r.width, count: r.width)
            }
            changedSinceSnapshot = true
        }
    }

    /// The canvas as it is now, in a new buffer of `target` size (resampled when smaller than the canvas).
    /// Returns the previous snapshot's buffer when nothing changed since it was taken.
    package func snapshot(size target: PixelSize, hasAlpha: Bool = true) throws(WebImageError) -> PixelBuffer {
        if !changedSinceSnapshot, let lastFrame, lastTarget == target { return lastFrame }
        let frame = try PixelBuffer(uninitializedWidth: target.width, height: target.height)
        if target == size {
            frame.mutableBaseAddress.copyMemory(from: pixels, byteCount: size.pixelCount * 4)
        } else {
            PixelResampler.resample(
                UnsafeRawPointer(pixels),
                size: size,
                bytesPerRow: size.width * 4,
                hasAlpha: hasAlpha,
                into: frame.mutableBaseAddress,
                size: target,
                bytesPerRow: frame.bytesPerRow
            )
        }
        lastFrame = frame
        lastTarget = target
        changedSinceSnapshot = false
        return frame
    }

    /// Straight-alpha "source over destination" for packed RGBA (R in the low byte on little-endian machines).
    @inline(__always)
    static func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let sa = src >> 24
        if sa == 255 { return src }
        if sa == 0 { return dst }
        let da = dst >> 24
        let outA = sa * 255 + da * (255 - sa)       // alpha x 255
        if outA == 0 { return 0 }
        var result: UInt32 = ((outA + 127) / 255) << 24
        for shift: UInt32 in [0, 8, 16] {
            let s = (src >> shift) & 0xFF
            let d = (dst >> shift) & 0xFF
            let c = (s * sa * 255 + d * da * (255 - sa) + outA / 2) / outA
            result |= min(c, 255) << shift
        }
        return result
    }
}
