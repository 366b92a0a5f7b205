/// The validators of a cached copy, for a conditional request: the loader sends `If-None-Match` with the ETag
/// and `If-Modified-Since` with the date, and a `304 Not Modified` answer fails the load with
/// `cacheNotModified`, telling the caller its copy is still good.
public struct ImageRevalidation: Sendable, Hashable, Codable {
    /// The `ETag` the cached copy came with.
    public var entityTag: String?
    /// The `Last-Modified` date the cached copy came with, as the server wrote it.
    public var lastModified: String?

    public init(entityTag: String? = nil, lastModified: String? = nil) {
        self.entityTag = entityTag
        self.lastModified = lastModified
    }

    /// The conditional header fields to send; empty when there is nothing to validate with.
    public var headers: [HTTPHeader] {
        var fields: [HTTPHeader] = []
        if let entityTag, !entityTag.isEmpty { fields.append(HTTPHeader(name: "If-None-Match", value: entityTag)) }
        if let lastModified, !lastModified.isEmpty { fields.append(HTTPHeader(name: "If-Modified-Since", value: lastModified)) }
        return fields
    }

    /// The validators `response` carries (`ETag`, `Last-Modified`); empty when it has none.
    public init(response: ImageResponse) {
        self.init(entityTag: response.value(forHeader: "ETag"), lastModified: response.value(forHeader: "Last-Modified"))
    }

    /// Whether there is nothing to validate with.
    public var isEmpty: Bool {
        (entityTag ?? "").isEmpty && (lastModified ?? "").isEmpty
    }
}
