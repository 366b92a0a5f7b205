#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The routes for revalidation, authentication and cookies.
///
/// - `/etag/<name>`: the fixture with `ETag` (``TestHTTPFixtureCatalog/Entry/etag``) and `Last-Modified`
///   (``TestHTTPRoutes/lastModified``); 304 with no body when If-None-Match matches (`*` or a listed tag, weak or
///   strong), or, without If-None-Match, when If-Modified-Since is not older than Last-Modified.
/// - `/auth/<name>?user=U&password=P`: 401 with `WWW-Authenticate: Basic realm="test"` unless the request's
///   Authorization is Basic with U:P (defaults `user` and `password`); then the fixture.
/// - `/cookie/set?name=N&value=V`: 200 with `Set-Cookie: N=V; Path=/` and a short body.
/// - `/cookie/echo`: 200 whose body is the request's Cookie header (empty when none).
extension TestHTTPRoutes {
    /// The Last-Modified of every `/etag/` response.
    public static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    func registerValidationRoutes(_ fixtures: TestHTTPFixtureCatalog) {
        registerPrefix("/etag/") { request, responder in
            guard let entry = fixtures.entry(request.remainder) else {
                return responder.respond(status: 404, text: "no fixture \(request.remainder)\n")
            }
            let validators = [("ETag", entry.etag), ("Last-Modified", Self.lastModified)]
            if Self.isNotModified(request, etag: entry.etag) {
                responder.respond(status: 304, headers: validators)
            } else {
                responder.respond(status: 200, headers: [("Content-Type", entry.contentType)] + validators, body: entry.bytes)
            }
        }
        registerPrefix("/auth/") { request, responder in
            let user = request.query["user"] ?? "user"
            let password = request.query["password"] ?? "password"
            let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            guard request.header("Authorization") == expected else {
                return responder.respond(
                    status: 401, headers: [("WWW-Authenticate", "Basic realm=\"test\"")], text: "unauthorized\n")
            }
            guard let entry = fixtures.entry(request.remainder) else {
                return responder.respond(status: 404, text: "no fixture \(request.remainder)\n")
            }
            responder.respond(status: 200, headers: [("Content-Type", entry.contentType)], body: entry.bytes)
        }
        register("/cookie/set") { request, responder in
            let name = request.query["name"] ?? "session"
            let value = request.query["value"] ?? "1"
            responder.respond(status: 200, headers: [("Set-Cookie", "\(name)=\(value); Path=/")], text: "set \(name)\n")
        }
        register("/cookie/echo") { request, responder in
            let cookies = request.headers.filter { $0.0.lowercased() == "cookie" }.map(\.1).joined(separator: "; ")
            responder.respond(status: 200, text: cookies)
        }
    }

    static func isNotModified(_ request: TestHTTPRequest, etag: String) -> Bool {
        if let match = request.header("If-None-Match") {
            let tags = match.split(separator: ",").map { tag -> Substring in
                var text = tag.drop { $0 == " " }
                while text.last == " " { text = text.dropLast() }
                return text.hasPrefix("W/") ? text.dropFirst(2) : text
            }
            return tags.contains { $0 == "*" || $0 == etag }
        }
        if let since = request.header("If-Modified-Since").flatMap(TestHTTPDate.parse),
            let modified = TestHTTPDate.parse(lastModified)
        {
            return since >= modified
        }
        return false
    }
}
