extension ImageTransformers {
    /// Cuts a rectangle out of the image, as SDWebImage's `SDImageCroppingTransformer`.
    ///
    /// The rectangle is in points: multiplied by the image's scale to get pixels, then clipped to the image.
    /// `transformerKey`: `SDImageCroppingTransformer({x,y,w,h})` with six decimals each. An empty rectangle, or one
    /// outside the image, gives nil (the image is kept). A thread-safe value; works on every frame.
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
            let scale = image.scale
            let left = max(0, Int((x * scale).rounded(.down)))
            let top = max(0, Int((y * scale).rounded(.down)))
            let right = min(image.width, Int(((x + width) * scale).rounded(.up)))
            let bottom = min(image.height, Int(((y + height) * scale).rounded(.up)))
            guard width > 0, height > 0, right > left, bottom > top else { return nil }
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
    }
}
