extension ImageTransformers {
    /// Resizes the image onto a canvas of a given size, as SDWebImage's `SDImageResizingTransformer`.
    ///
    /// The canvas is `width` x `height` points (times the image's scale, in pixels, each side rounded).
    /// ``ScaleMode/fill`` stretches the image over it; ``ScaleMode/aspectFit`` fits it inside, centred, with
    /// transparent bands; ``ScaleMode/aspectFill`` covers it, centred, cut at the edges. The aspect-fill cut is
    /// made in the source, in whole source pixels, and only the part that shows is resampled: the work and the
    /// memory are those of the canvas, however far the source is enlarged. Resampling averages areas when
    /// shrinking and uses Catmull-Rom when enlarging, with colour weighted by alpha.
    ///
    /// Gives nil, which keeps the image, for a side that is not finite or rounds to less than one pixel, and for a
    /// canvas larger than the source and than ``ImageTransformers/maxResultPixelCount`` over all frames.
    ///
    /// `transformerKey`: `SDImageResizingTransformer({W,H},M)` with six decimals and the mode's number. A
    /// thread-safe value; works on every frame.
    public struct Resize: ImageTransforming {
        /// How the image meets the canvas; the raw values are SDWebImage's.
        public enum ScaleMode: Int, Sendable {
            case fill = 0
            case aspectFit = 1
            case aspectFill = 2
        }

        public let width: Double
        public let height: Double
        public let scaleMode: ScaleMode

        public init(width: Double, height: Double, scaleMode: ScaleMode = .fill) {
            self.width = width
            self.height = height
            self.scaleMode = scaleMode
        }

        public var transformerKey: String {
            "SDImageResizingTransformer(\(Key.size(width, height)),\(scaleMode.rawValue))"
        }

        public func transform(image: Image, key: String) -> Image? {
            let source = image.pixelSize
            guard !source.isEmpty, let canvas = canvasSize(scale: image.scale, frames: image.frames.count, source: source) else {
                return nil
            }
            let placement = Placement(source: source, canvas: canvas, mode: scaleMode)
            let hasAlpha = image.hasAlpha || placement.target.size != canvas
            return ImageTransformers.map(image, preservingMetadata: preserveImageMetadata, hasAlpha: hasAlpha) { frame in
                if placement.isIdentity { return frame }
                guard let result = try? PixelBuffer(uninitializedWidth: canvas.width, height: canvas.height) else { return nil }
                placement.draw(frame, into: result, hasAlpha: image.hasAlpha)
                return result
            }
        }

        /// The canvas in pixels; nil when a side is not finite or rounds to less than one pixel, or when the
        /// result would be larger than the source and than ``ImageTransformers/maxResultPixelCount``.
        private func canvasSize(scale: Double, frames: Int, source: PixelSize) -> PixelSize? {
            let canvasWidth = (width * scale).rounded()
            let canvasHeight = (height * scale).rounded()
            // False for NaN too.
            guard canvasWidth >= 1, canvasHeight >= 1,
                  ImageTransformers.allowsResult(width: canvasWidth, height: canvasHeight, frames: frames, source: source)
            else { return nil }
            return PixelSize(width: Int(canvasWidth), height: Int(canvasHeight))
        }
    }
}

extension ImageTransformers.Resize {
    /// Which pixels of the source go where on the canvas: `crop` of the source is resampled onto `target` of the
    /// canvas, and the rest of the canvas is transparent.
    ///
    /// Aspect-fill cuts in source space, so that only the part of the source that shows is resampled, straight
    /// to the canvas: an image covering a canvas far longer than it is wide never exists enlarged whole. The cut
    /// is in whole source pixels, centred, at least one pixel wide.
    struct Placement {
        /// A rectangle in whole pixels.
        struct Rect {
            var x: Int
            var y: Int
            var size: PixelSize
        }

        let source: PixelSize
        let canvas: PixelSize
        let crop: Rect
        let target: Rect

        init(source: PixelSize, canvas: PixelSize, mode: ScaleMode) {
            self.source = source
            self.canvas = canvas
            let ratio = (x: Double(canvas.width) / Double(source.width), y: Double(canvas.height) / Double(source.height))
            let whole = (source: Rect(x: 0, y: 0, size: source), canvas: Rect(x: 0, y: 0, size: canvas))
            switch mode {
            case .fill:
                (crop, target) = (whole.source, whole.canvas)
            case .aspectFit:
                // The source scaled to fit, centred with transparent bands.
                let factor = min(ratio.x, ratio.y)
                let drawn = PixelSize(
                    width: Self.side(Double(source.width) * factor, atMost: canvas.width),
                    height: Self.side(Double(source.height) * factor, atMost: canvas.height)
                )
                crop = whole.source
                target = Rect(x: (canvas.width - drawn.width) / 2, y: (canvas.height - drawn.height) / 2, size: drawn)
            case .aspectFill:
                // The part of the source that the canvas shows once the source covers it, centred.
                let factor = max(ratio.x, ratio.y)
                let kept = PixelSize(
                    width: Self.side(Double(canvas.width) / factor, atMost: source.width),
                    height: Self.side(Double(canvas.height) / factor, atMost: source.height)
                )
                crop = Rect(x: (source.width - kept.width) / 2, y: (source.height - kept.height) / 2, size: kept)
                target = whole.canvas
            }
        }

        /// Whether the canvas is the source as it is.
        var isIdentity: Bool { source == canvas && crop.size == source && target.size == canvas }

        /// Writes every pixel of `result` (the canvas) from `pixels` (the source).
        func draw(_ pixels: PixelBuffer, into result: PixelBuffer, hasAlpha: Bool) {
            if target.size != canvas {
                result.mutableBaseAddress.initializeMemory(as: UInt8.self, repeating: 0, count: result.byteCount)
            }
            PixelResampler.resample(
                pixels.baseAddress + crop.y * pixels.bytesPerRow + crop.x * 4,
                size: crop.size,
                bytesPerRow: pixels.bytesPerRow,
                hasAlpha: hasAlpha,
                into: result.mutableBaseAddress + target.y * result.bytesPerRow + target.x * 4,
                size: target.size,
                bytesPerRow: result.bytesPerRow
            )
        }

        /// A side of `value` pixels rounded, at least 1 and at most `limit`.
        private static func side(_ value: Double, atMost limit: Int) -> Int {
            let rounded = value.rounded()
            // Also 1 for NaN, which finite sizes of at least one pixel never give.
            guard rounded >= 1 else { return 1 }
            return rounded < Double(limit) ? Int(rounded) : limit
        }
    }
}
