import Foundation
import WebImage

/// The files the demo leaves behind: a thumbnail and a transformed image of one sample, each loaded through the
/// manager (so served by the cache after the passes), encoded with the shared coder registry and written to the
/// output directory; each file is read back and decoded to prove it.
struct DemoOutputs: Sendable {
    /// One file to write: how to load the image and how to store it.
    struct Item: Sendable {
        /// `thumbnail` or `transform`, for the text output.
        var kind: String
        /// What the load asks for, for the text output.
        var detail: String
        /// The load's context.
        var context: ImageContext
        /// The file name, without directory.
        var fileName: String
        /// The format written.
        var format: ImageFormat
        /// How it is encoded.
        var encodeOptions: ImageEncodeOptions
    }

    /// The sample the files are made from.
    let sample: String
    /// Its URL on the demo's server.
    let url: URL
    /// The files, in the order they are written.
    let items: [Item]

    /// The transform applied: cover a 256 px square, then round the corners with a 32 px radius.
    static let transformer = ImageTransformers.Pipeline([
        ImageTransformers.Resize(width: 256, height: 256, scaleMode: .aspectFill),
        ImageTransformers.RoundCorner(radius: 32),
    ])

    /// A thumbnail of `thumbnailSize` pixels as WebP and the transform as PNG (it has transparent corners), of
    /// `photo.jpg` when the server has it, else of its first sample.
    init(server: DemoServer, thumbnailSize: PixelSizeArgument) {
        let sample = server.names.contains("photo.jpg") ? "photo.jpg" : server.names[0]
        let base = (sample as NSString).deletingPathExtension
        self.sample = sample
        url = server.url(for: sample)
        var thumbnail = ImageContext()
        thumbnail.thumbnailPixelSize = thumbnailSize.size
        var transform = ImageContext()
        transform.imageTransformer = Self.transformer
        items = [
            Item(
                kind: "thumbnail", detail: "\(thumbnailSize.name) px, decoded reduced", context: thumbnail,
                fileName: "\(base)-thumbnail-\(thumbnailSize.name).webp", format: .webp,
                encodeOptions: ImageEncodeOptions(quality: 0.85)),
            Item(
                kind: "transform", detail: "resize=256x256:cover,round=32", context: transform,
                fileName: "\(base)-rounded-256.png", format: .png, encodeOptions: ImageEncodeOptions()),
        ]
    }

    /// Loads, encodes, writes and reads back each item in `directory`; one report per item (`file` the URL,
    /// `output` the path, `source` the tier that served the load).
    func write(into directory: String, manager: ImageManager) async -> [Report] {
        var reports: [Report] = []
        for item in items {
            reports.append(await write(item, into: directory, manager: manager))
        }
        return reports
    }

    private func write(_ item: Item, into directory: String, manager: ImageManager) async -> Report {
        var report = Report(file: url.absoluteString)
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let loaded = try await manager.loadImage(url: url, options: DemoGallery.options, context: item.context)
            let registry = ImageCoderRegistry.shared
            let encoded = try registry.encode(loaded.image, as: item.format, options: item.encodeOptions)
            let path = (directory as NSString).appendingPathComponent(item.fileName)
            try writeFile(encoded, to: path)
            let reread = try registry.decode(try readFile(path), options: ImageDecodeOptions())
            guard reread.pixelSize == loaded.image.pixelSize else {
                throw WebImageError(
                    .badImageData, "\(path) decodes as \(reread.pixelSize), not \(loaded.image.pixelSize) as written")
            }
            report.ms = DemoFormat.milliseconds(clock.now - started)
            report.ok = true
            report.describe(loaded.image)
            report.format = item.format.name
            report.source = loaded.cacheType.description
            report.output = path
            report.bytes = encoded.count
        } catch {
            report.fail(error)
        }
        return report
    }

    /// `thumbnail  photo.jpg, 128 px...` and below it `-> DIR/photo-thumbnail-128.webp: webp 128x86, 1,952 bytes
    /// (2 KiB), the image from memory`.
    func line(_ report: Report, item: Item) -> String {
        "   \(item.kind.padding(toLength: 10, withPad: " ", startingAt: 0)) \(sample), \(item.detail)\n"
            + "              -> \(report.output ?? "?"): \(report.format ?? "?") \(report.width ?? 0)x\(report.height ?? 0), "
            + "\(DemoFormat.bytes(report.bytes ?? 0)), the image from \(report.source.map(Self.tierName) ?? "?")"
    }

    /// `memory`, `disk`, or `the network` for `none`, from a report's `source`.
    private static func tierName(_ source: String) -> String {
        source == ImageCacheType.none.description ? "the network" : source
    }
}
