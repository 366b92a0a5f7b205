extension ImageTransformers {
    /// Resizes the image onto a canvas of a given size, as SDWebImage's `SDImageResizingTransformer`.
    ///
    /// The canvas is `width` x `height` points (times the image's scale, in pixels, each side rounded).
    /// ``ScaleMode/fill`` stretches the image over it; ``ScaleMode/aspectFit`` fits it inside, centred, with
    /// transparent bands; ``ScaleMode/aspectFill`` covers it, centred, cut at the edges. Resampling averages areas
    /// when shrinking and uses Catmull-Rom when enlarging, with colour weighted by alpha.
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
            let ratio = (x: Double(canvas.width) / Double(source.width), y: Double(canvas.height) / Double(source.height))
            let drawn: PixelSize
            switch scaleMode {
            case .fill:
                drawn = canvas
            case .aspectFit, .aspectFill:
                let factor = scaleMode == .aspectFit ? min(ratio.x, ratio.y) : max(ratio.x, ratio.y)
                drawn = PixelSize(
                    width: max(1, Int((Double(source.width) * factor).rounded())),
                    height: max(1, Int((Double(source.height) * factor).rounded()))
                )
            }
            let hasAlpha = image.hasAlpha || (scaleMode == .aspectFit && drawn != canvas)
            return ImageTransformers.map(image, preservingMetadata: preserveImageMetadata, hasAlpha: hasAlpha) { frame in
                guard let scaled = drawn == frame.size ? frame : try? frame.resampled(to: drawn, hasAlpha: image.hasAlpha) else {
                    return nil
                }
                guard drawn != canvas else { return scaled }
                return Self.place(scaled, centredOn: canvas)
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

        /// `pixels` centred on a transparent canvas of `size`, cut where it overflows.
        private static func place(_ pixels: PixelBuffer, centredOn size: PixelSize) -> PixelBuffer? {
            guard let canvas = try? PixelBuffer(width: size.width, height: size.height, color: .clear) else { return nil }
            let offsetX = (size.width - pixels.width) / 2
            let offsetY = (size.height - pixels.height) / 2
            let fromX = max(0, -offsetX)
            let toX = max(0, offsetX)
            let columns = min(pixels.width - fromX, size.width - toX)
            for row in 0..<size.height {
                let sourceRow = row - offsetY
                guard sourceRow >= 0, sourceRow < pixels.height, columns > 0 else { continue }
                canvas.mutableBaseAddress.advanced(by: row * canvas.bytesPerRow + toX * 4)
                    .copyMemory(from: pixels.baseAddress.advanced(by: sourceRow * pixels.bytesPerRow + fromX * 4), byteCount: columns * 4)
            }
            return canvas
        }
    }
}
