#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The request a loader is about to send, as a request modifier sees it.
public struct ImageRequest: Sendable, Hashable {
    /// Where the request goes.
    public var url: URL
    /// The HTTP method; `GET` for image loads.
    public var method: String
    /// Header fields in order; names compare without regard to case (see ``value(forHeader:)``).
    public var headers: [HTTPHeader]

    public init(url: URL, method: String = "GET", headers: [HTTPHeader] = []) {
        self.url = url
        self.method = method
        self.headers = headers
    }

    /// The value of the first field named `name`, compared without regard to case.
    public func value(forHeader name: String) -> String? {
        headers.value(named: name)
    }

    /// Sets the field named `name`, replacing every field of that name (any case); nil removes them.
    public mutating func setValue(_ value: String?, forHeader name: String) {
        headers.removeAll { $0.hasName(name) }
        if let value { headers.append(HTTPHeader(name: name, value: value)) }
    }
}

/// Rewrites a request before it is sent (method, headers, URL), or refuses it with nil, which fails the load
/// with `invalidDownloadOperation`. Runs on the loader's own thread before the request starts; keep it quick.
public typealias ImageRequestModifier = @Sendable (ImageRequest) -> ImageRequest?
