import Foundation
import Hummingbird
import WebImage

/// `GET /thumb`: checks the query and the source's host, asks the manager for the variant's bytes, and answers with
/// them, with 304 to a matching `If-None-Match`, or with the status an error stands for.
struct ThumbnailRoute: Sendable {
    let manager: ImageManager
    /// The only hosts whose images are fetched, lowercased.
    let allowedHosts: Set<String>
    /// The most pixels a width or a height may ask for.
    let maxSide: Int
    /// Whether the server can encode a format.
    let canEncode: @Sendable (ImageFormat) -> Bool
    /// Whether each source's bytes are kept on disk beside its thumbnails, so that another size of it is made
    /// without fetching it again.
    var storesOriginals = true
    /// Whether AVIF is sent to the clients that take it, before WebP (see `ImageFormat.preferred`).
    var prefersAVIF = false
    /// The loads recent queries asked for.
    let queries = ParsedQueries()

    /// How the thumbnail fills its box.
    enum Fit: String {
        /// Inside the box, the aspect ratio kept.
        case fit
        /// The whole box, stretched.
        case fill
        /// The whole box, the aspect ratio kept, the overflow cropped.
        case cover
    }

    func respond(to request: Request) async -> Response {
        let context: ImageContext
        let url: URL
        let accept = Self.accept(of: request)
        let key = ParsedQueries.key(query: request.uri.query ?? "", accept: accept)
        if let load = queries.load(forKey: key) {
            (url, context) = (load.url, load.context)
        } else {
            do {
                (url, context) = try parse(request, accept: accept)
            } catch {
                return Self.text(.badRequest, error.message)
            }
            queries.keep(ParsedQueries.Load(url: url, context: context), forKey: key)
        }
        do {
            let variant = try await manager.loadImageData(url: url, context: context)
            return Self.response(variant, ifNoneMatch: request.headers[values: .ifNoneMatch])
        } catch {
            return Self.text(Self.status(of: error), "\(error.code): \(error.message)")
        }
    }

    /// The request's `Accept` field, its lines joined.
    private static func accept(of request: Request) -> String {
        let values = request.headers[values: .accept]
        return values.count <= 1 ? values.first ?? "" : values.joined(separator: ",")
    }

    /// The source's URL and the load's context, from the query and the `Accept` field.
    private func parse(_ request: Request, accept: String) throws(BadRequest) -> (URL, ImageContext) {
        let query = request.uri.queryParameters
        guard let text = query["url"].map(String.init), let url = URL(string: text),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host?.lowercased()
        else { throw BadRequest("url must be an http or https URL") }
        guard allowedHosts.contains(host) else { throw BadRequest("the host \(host) is not allowed") }
        guard let width = query["w"].flatMap({ Int($0) }), let height = query["h"].flatMap({ Int($0) }),
              (1...maxSide).contains(width), (1...maxSide).contains(height)
        else { throw BadRequest("w and h must be whole numbers from 1 to \(maxSide)") }
        guard let fit = Fit(rawValue: query["fit"].map(String.init) ?? "fit") else {
            throw BadRequest("fit must be fit, fill or cover")
        }
        var context = ImageContext()
        if !storesOriginals { context.originalStoreCacheType = ImageCacheType.none }
        switch fit {
        case .fit:
            context.thumbnailPixelSize = PixelSize(width: width, height: height)
        case .fill:
            context.thumbnailPixelSize = PixelSize(width: width, height: height)
            context.preserveAspectRatio = false
        case .cover:
            // Decoded reduced to fit twice the box, which covers it for aspect ratios up to 2:1, then cropped.
            context.thumbnailPixelSize = PixelSize(width: min(width * 2, maxSide * 2), height: min(height * 2, maxSide * 2))
            context.imageTransformer = ImageTransformers.Resize(width: Double(width), height: Double(height), scaleMode: .aspectFill)
        }
        if let name = query["format"] {
            guard let format = ImageFormat(name: String(name)), [.jpeg, .png, .webp, .avif].contains(format), canEncode(format) else {
                throw BadRequest(canEncode(.avif) ? "format must be jpeg, png, webp or avif" : "format must be jpeg, png or webp")
            }
            context.encodedFormat = format
        } else {
            // WebP (or AVIF, when preferred) to the clients that take it; the image's own format to the others, so
            // that alpha is kept.
            let preferred = ImageFormat.preferred(
                forAccept: accept, hasAlpha: false, isAnimated: false, prefersAVIF: prefersAVIF, canEncode: canEncode
            )
            context.encodedFormat = preferred == .webp || preferred == .avif ? preferred : nil
        }
        return (url, context)
    }

    private static func response(_ variant: ImageDataResult, ifNoneMatch: [String]) -> Response {
        let tag = etag(of: variant)
        var headers = HTTPFields()
        headers[.eTag] = tag
        headers[.cacheControl] = "public, max-age=86400"
        if ifNoneMatch.contains(where: { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == tag || $0 == "*" } }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = variant.format.mimeType ?? "application/octet-stream"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: variant.data)))
    }

    /// A validator for the variant: an FNV-1a hash of its key, its length and its first and last 64 bytes. The
    /// key names the source, the size, the format and the quality, so the bytes of one key are the same wherever
    /// they come from (the memory tier, the disk, a new encoding); the bytes hashed tell a source that changed.
    /// Hashing all of them would cost more than the rest of a warm request.
    private static func etag(of variant: ImageDataResult) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        for byte in variant.key.utf8 { mix(byte) }
        variant.data.withUnsafeBytes { bytes in
            for byte in bytes.prefix(64) { mix(byte) }
            for byte in bytes.suffix(64) { mix(byte) }
        }
        return "\"\(String(hash, radix: 16))-\(variant.data.count)\""
    }

    /// The status a library error stands for: the source's own 404, 502 for what else went wrong at the source
    /// (a URL on the failed list included), 413 for sizes over a limit, 415 for what is not an image the server
    /// reads, 504 for a timeout.
    static func status(of error: WebImageError) -> HTTPResponse.Status {
        switch error.code {
        case .invalidURL:
            .badRequest
        case .invalidDownloadStatusCode where error.statusCode == 404 || error.statusCode == 410:
            .notFound
        case .responseTooLarge, .imageTooLarge:
            .contentTooLarge
        case .badImageData, .unsupportedFormat, .invalidDownloadContentType:
            .unsupportedMediaType
        case .timedOut:
            .gatewayTimeout
        case .cancelled:
            .serviceUnavailable
        default:
            .badGateway
        }
    }

    private static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}

/// A query the route refuses, with what is wrong with it.
struct BadRequest: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
