extension ImageTransformers {
    /// Several transformers applied in order, as SDWebImage's `SDImagePipelineTransformer`.
    ///
    /// `transformerKey`: the children's keys joined with `-` (empty for no children). A child that returns nil
    /// leaves the image as it was for the next one. Each child's result keeps the metadata of its input when that
    /// child preserves metadata. A thread-safe value.
    public struct Pipeline: ImageTransforming {
        /// The transformers, in the order they run.
        public let transformers: [any ImageTransforming]

        public init(_ transformers: [any ImageTransforming]) {
            self.transformers = transformers
        }

        public var transformerKey: String {
            transformers.map(\.transformerKey).joined(separator: "-")
        }

        /// Each child in turn; nil when none changed the image.
        public func transform(image: Image, key: String) -> Image? {
            var current = image
            var changed = false
            for transformer in transformers {
                guard let next = transformer.transform(image: current, key: key) else { continue }
                current = transformer.preserveImageMetadata ? next.keepingMetadata(of: current) : next
                changed = true
            }
            return changed ? current : nil
        }

        /// False: each child decides for its own step.
        public var preserveImageMetadata: Bool { false }
    }
}

extension Image {
    /// This image with `source`'s format, loop count and scale, when they differ.
    func keepingMetadata(of source: Image) -> Image {
        guard format != source.format || loopCount != source.loopCount || scale != source.scale else { return self }
        return Image(
            frames: frames,
            loopCount: source.loopCount,
            scale: source.scale,
            format: source.format,
            hasAlpha: hasAlpha,
            orientation: orientation,
            isIncremental: isIncremental,
            decodeOptions: decodeOptions
        )
    }
}
