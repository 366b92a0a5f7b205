extension ImageTransformers {
    /// Cuts a rectangle out of the image, as SDWebImage's `SDImageCroppingTransformer`.
    ///
    /// The rectangle is in points: multiplied by the image's scale to get pixels, widened to whole pixels, then
    /// clipped to the image, so a rectangle far larger than the image keeps all of it. A width or height of zero
    /// or less, a rectangle outside the image, or a number that is not finite (NaN, an infinity) gives nil: the
    /// image is kept.
    ///
    /// `transformerKey`: `SDImageCroppingTransformer({x,y,w,h})` with six decimals each. A thread-safe value;
    /// works on every frame.
    public struct Crop: ImageTransforming {
        public let x: Double
        public let y: Double
        public let width: Double
        public let height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public var transformerKey: String {
            "SDImageCroppingTransformer({\(Key.float(x)),\(Key.float(y)),\(Key.float(width)),\(Key.float(height))})"
        }

        public func transform(image: Image, key: String) -> Image? {
            guard [x, y, width, height].allSatisfy(\.isFinite), width > 0, height > 0,
                  let (left, right) = Self.span(from: x, length: width, scale: image.scale, limit: image.width),
                  let (top, bottom) = Self.span(from: y, length: height, scale: image.scale, limit: image.height)
            else { return nil }
            return ImageTransformers.map(image, preservingMetadata: preserveImageMetadata) { source in
                guard let result = try? PixelBuffer(uninitializedWidth: right - left, height: bottom - top) else { return nil }
                for row in 0..<(bottom - top) {
                    let from = source.baseAddress.advanced(by: (top + row) * source.bytesPerRow + left * 4)
                    let to = result.mutableBaseAddress.advanced(by: row * result.bytesPerRow)
                    to.copyMemory(from: from, byteCount: (right - left) * 4)
                }
                return result
            }
        }

        /// The pixels `start..<start + length` points cover at `scale`, clipped to `0..<limit`: nil when none.
        /// Worked out in floating point, where a product too large for `Int` (or infinite) is simply clipped.
        private static func span(from start: Double, length: Double, scale: Double, limit: Int) -> (Int, Int)? {
            let lower = (start * scale).rounded(.down)
            let upper = ((start + length) * scale).rounded(.up)
            let bound = Double(limit)
            // Comparisons false for NaN (zero times an infinite scale) refuse the span too.
            guard upper > 0, lower < bound, upper > lower else { return nil }
            return (Int(max(lower, 0)), Int(min(upper, bound)))
        }
    }
}
