/// The redirect routes.
///
/// - `/redirect/<n>?to=PATH`: a 302 chain of n hops, each to `/redirect/<n-1>`, the last to PATH (default
///   `/image/photo.jpg`). Locations are relative paths.
/// - `/redirect-loop`: a 302 to itself, forever.
/// - `/redirect-file`: a 302 to `file:///etc/passwd`.
extension TestHTTPRoutes {
    /// Where `/redirect/<n>` ends when the request names no `to`.
    public static let defaultRedirectTarget = "/image/photo.jpg"

    func registerRedirectRoutes() {
        registerPrefix("/redirect/") { request, responder in
            guard let hops = Int(request.remainder), hops >= 0 else {
                return responder.respond(status: 400, text: "bad hop count \(request.remainder)\n")
            }
            let target = request.query["to"] ?? Self.defaultRedirectTarget
            let location =
                hops <= 1 ? target : "/redirect/\(hops - 1)?to=\(TestHTTPRequest.percentEncoded(target))"
            responder.respond(status: 302, headers: [("Location", location)], text: "redirect to \(location)\n")
        }
        register("/redirect-loop") { _, responder in
            responder.respond(status: 302, headers: [("Location", "/redirect-loop")], text: "loop\n")
        }
        register("/redirect-file") { _, responder in
            responder.respond(status: 302, headers: [("Location", "file:///etc/passwd")], text: "to a file\n")
        }
    }
}
