extension ImageTransformers {
    /// Mirrors the image, as SDWebImage's `SDImageFlippingTransformer`.
    ///
    /// `transformerKey`: `SDImageFlippingTransformer(H,V)` with 1 or 0 for each direction. Neither direction keeps
    /// the image (nil). A thread-safe value; works on every frame.
    public struct Flip: ImageTransforming {
        /// Left to right.
        public let horizontal: Bool
        /// Top to bottom.
        public let vertical: Bool

        public init(horizontal: Bool, vertical: Bool = false) {
            self.horizontal = horizontal
            self.vertical = vertical
        }

        public var transformerKey: String {
            "SDImageFlippingTransformer(\(horizontal ? 1 : 0),\(vertical ? 1 : 0))"
        }

        public func transform(image: Image, key: String) -> Image? {
            guard horizontal || vertical else { return nil }
            return ImageTransformers.map(image, preservingMetadata: preserveImageMetadata) { source in
                guard let result = try? PixelBuffer(uninitializedWidth: source.width, height: source.height) else { return nil }
                let width = source.width
                for y in 0..<source.height {
                    let from = source.baseAddress.advanced(by: (vertical ? source.height - 1 - y : y) * source.bytesPerRow)
                        .assumingMemoryBound(to: UInt32.self)
                    let to = result.mutableBaseAddress.advanced(by: y * result.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                    if horizontal {
                        for x in 0..<width { to[x] = from[width - 1 - x] }
                    } else {
                        to.update(from: from, count: width)
                    }
                }
                return result
            }
        }
    }
}
