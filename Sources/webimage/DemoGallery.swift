import Foundation
import WebImage

/// The loads of every demo pass: each bundled sample, at full size and as a thumbnail, each asked for several
/// times at once, as a screen of images would ask for the same avatar in several places.
///
/// Every load of one sample goes to the same URL, full size or thumbnail, so the server should see exactly one
/// request per sample however many loads there are: the manager and the downloader coalesce them into one
/// transfer, decoded once per size.
struct DemoGallery: Sendable {
    /// What a load asks for.
    enum Variant: String, Sendable, CaseIterable {
        /// The whole image.
        case full
        /// A thumbnail that fits ``DemoGallery/thumbnailSize`` pixels, decoded reduced.
        case thumbnail
    }

    /// One load of a pass.
    struct Load: Sendable {
        /// The sample's file name.
        var name: String
        /// Where the server serves it.
        var url: URL
        /// Full size or thumbnail.
        var variant: Variant
    }

    /// Every load of a pass, in the order they start: the copies of each (sample, variant) pair together.
    let loads: [Load]
    /// The distinct URLs the loads ask for: one per sample.
    let urls: [URL]
    /// How many loads of each (sample, variant) pair start at once.
    let copies: Int
    /// The side of the square the thumbnails fit in, in pixels.
    let thumbnailSize: PixelSizeArgument
    /// The total size of the samples in bytes: what one request per URL transfers.
    let sampleBytes: Int

    /// Waits for the disk store before completing, so that each pass finds what the one before it stored.
    static let options: ImageOptions = [.waitStoreCache]

    /// The gallery of every sample `server` serves.
    init(server: DemoServer, copies: Int, thumbnailSize: PixelSizeArgument) {
        self.copies = copies
        self.thumbnailSize = thumbnailSize
        urls = server.names.map(server.url(for:))
        sampleBytes = server.names.reduce(0) { $0 + server.size(of: $1) }
        var loads: [Load] = []
        // The copies of one image start one after the other, so that they are in flight together even when a
        // pass is quick enough for an image to come back before the loop is done.
        for name in server.names {
            for variant in Variant.allCases {
                for _ in 0..<copies {
                    loads.append(Load(name: name, url: server.url(for: name), variant: variant))
                }
            }
        }
        self.loads = loads
    }

    /// The context of a load of `variant`: nothing for full size, the thumbnail size for a thumbnail.
    func context(for variant: Variant) -> ImageContext {
        var context = ImageContext()
        if variant == .thumbnail { context.thumbnailPixelSize = thumbnailSize.size }
        return context
    }

    /// `5 samples x 2 sizes x 3 copies = 30 loads of 5 URLs`, for the text output.
    var summary: String {
        "\(urls.count) samples x \(Variant.allCases.count) sizes (full, \(thumbnailSize.name) px thumbnail) x \(copies) copies "
            + "= \(loads.count) loads of \(urls.count) URLs"
    }
}
