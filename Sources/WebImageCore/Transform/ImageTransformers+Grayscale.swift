extension ImageTransformers {
    /// Turns the image grey, keeping its alpha: luma with the Rec. 601 weights SDWebImage's grayscale filter uses
    /// (0.299 R + 0.587 G + 0.114 B).
    ///
    /// `transformerKey`: `SDImageGrayscaleTransformer`. A thread-safe value; works on every frame.
    public struct Grayscale: ImageTransforming {
        public init() {}

        public var transformerKey: String { "SDImageGrayscaleTransformer" }

        public func transform(image: Image, key: String) -> Image? {
            ImageTransformers.map(image, preservingMetadata: preserveImageMetadata) { source in
                guard let result = try? PixelBuffer(uninitializedWidth: source.width, height: source.height) else { return nil }
                for y in 0..<source.height {
                    let from = source.baseAddress.advanced(by: y * source.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    let to = result.mutableBaseAddress.advanced(by: y * result.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<source.width {
                        let p = x * 4
                        // Fixed point: the weights times 2^16, rounded (19595 + 38470 + 7471 = 65536).
                        let luma = (19_595 * Int(from[p]) + 38_470 * Int(from[p + 1]) + 7_471 * Int(from[p + 2]) + 32_768) >> 16
                        let grey = UInt8(truncatingIfNeeded: luma)
                        to[p] = grey
                        to[p + 1] = grey
                        to[p + 2] = grey
                        to[p + 3] = from[p + 3]
                    }
                }
                return result
            }
        }
    }
}
