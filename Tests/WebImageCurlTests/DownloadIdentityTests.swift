import Foundation
import Testing
@testable import WebImageCurl
import WebImageCore

@Suite struct DownloadIdentityTests {
    let url = URL(string: "https://x.org/a.png")!

    func identity(_ headers: [(String, String)], options: ImageOptions = [], credentials: ImageDownloaderCredentials? = nil) -> DownloadIdentity {
        DownloadIdentity(
            request: ImageRequest(url: url, headers: headers.map { HTTPHeader(name: $0.0, value: $0.1) }),
            credentials: credentials,
            options: options
        )
    }

    @Test func headerOrderAndCaseDoNotMatter() {
        #expect(identity([("Accept", "image/*"), ("X-A", "1")]) == identity([("x-a", "1"), ("ACCEPT", "image/*")]))
    }

    @Test func everythingThatShapesTheResponseSeparatesCallers() {
        let plain = identity([("Accept", "image/*")])
        #expect(identity([("Accept", "image/*"), ("Authorization", "Bearer a")]) != identity([("Accept", "image/*"), ("Authorization", "Bearer b")]))
        #expect(plain != identity([("Accept", "image/png")]))
        #expect(plain != identity([("Accept", "image/*")], options: .handleCookies))
        #expect(plain != identity([("Accept", "image/*")], options: .allowInvalidSSLCertificates))
        #expect(plain != identity([("Accept", "image/*")], credentials: ImageDownloaderCredentials(user: "u", password: "p")))
        #expect(plain == identity([("Accept", "image/*")], options: [.highPriority, .progressiveLoad]), "priority and decoding options do not")
        // Repeated fields keep their order: a different order is a different request.
        #expect(identity([("X", "1"), ("X", "2")]) != identity([("X", "2"), ("X", "1")]))
    }
}
