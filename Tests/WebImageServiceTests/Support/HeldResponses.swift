import Foundation
import WebImageCore
import WebImageTestSupport

/// Requests to `/held/<name>` that the server answers only when the test says so: loads that stay in flight for
/// exactly as long as a test needs, whatever the machine's load.
final class HeldResponses: Sendable {
    private let waiting = Locked<[String: TestHTTPResponder]>([:])

    /// Adds the `/held/` route to `routes`.
    func register(on routes: TestHTTPRoutes) {
        routes.registerPrefix("/held/") { [self] request, responder in
            waiting.withLock { $0[String(request.remainder)] = responder }
        }
    }

    /// Waits (at most 30 s) until the server holds a request for every one of `names`.
    func waitForRequests(_ names: [String]) async -> Bool {
        await waitUntil(timeout: .seconds(30)) { [self] in
            waiting.withLock { held in names.allSatisfy { held[$0] != nil } }
        }
    }

    /// Answers the request for `name` with the fixture at `fixture` as a PNG.
    func release(_ name: String, with fixture: String = "png/gray8.png") {
        guard let responder = waiting.withLock({ $0.removeValue(forKey: name) }) else { return }
        responder.respond(status: 200, headers: [("Content-Type", "image/png")], body: Array(Fixtures.data(fixture)))
    }
}
