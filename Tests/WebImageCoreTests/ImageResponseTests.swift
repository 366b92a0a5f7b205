import Foundation
import Testing
import WebImageCore

/// What a response's header fields announce: the media type and the body length, as RFC 9110 spells them.
@Suite struct ImageResponseTests {
    private func response(_ fields: [(String, String)]) -> ImageResponse {
        ImageResponse(
            url: URL(string: "https://x.org/a.png")!, statusCode: 200,
            headers: fields.map { HTTPHeader(name: $0.0, value: $0.1) }
        )
    }

    private func contentType(_ value: String) -> ImageResponse {
        response([("Content-Type", value)])
    }

    @Test(arguments: [
        ("image/png", "image/png"),
        (" Image/PNG ; charset=x", "image/png"),
        ("image/svg+xml;q=1", "image/svg+xml"),
        ("\timage/x-icon\t", "image/x-icon"),
        ("application/vnd.ms-photo; a=\"b;c\"", "application/vnd.ms-photo"),
        ("image/png;", "image/png"),
    ])
    func theMediaTypeIsTheTypeAndSubtypeLowercased(value: String, type: String) {
        #expect(contentType(value).mediaType == type)
        #expect(!contentType(value).hasMalformedContentType)
    }

    @Test(arguments: [
        "", " ", ";", " ; ", "; image/png", ";image/png", "image", "image/", "/png", "image/png/x", "image /png",
        "image/ png", "image/png x", "image/p\u{e9}ng", "image/png\u{0}", "ima(ge)/png", "\"image/png\"", "image/png,image/gif",
    ])
    func aContentTypeThatNamesNoMediaTypeIsMalformed(value: String) {
        #expect(contentType(value).mediaType == nil, "'\(value)'")
        #expect(contentType(value).hasMalformedContentType, "'\(value)'")
    }

    @Test func noContentTypeIsNeitherATypeNorMalformed() {
        let plain = response([("Content-Length", "3")])
        #expect(plain.mediaType == nil)
        #expect(!plain.hasMalformedContentType)
    }

    @Test func repeatedContentTypesMustAgree() {
        let agreeing = response([("Content-Type", "image/png"), ("content-type", "IMAGE/PNG; q=1")])
        #expect(agreeing.mediaType == "image/png")
        let disagreeing = response([("Content-Type", "image/png"), ("Content-Type", "text/html")])
        #expect(disagreeing.mediaType == nil)
        #expect(disagreeing.hasMalformedContentType)
        let oneMalformed = response([("Content-Type", "image/png"), ("Content-Type", ";")])
        #expect(oneMalformed.mediaType == nil)
        #expect(oneMalformed.hasMalformedContentType)
    }

    @Test(arguments: [
        ("0", 0), ("12", 12), (" 12\t", 12), ("007", 7), ("42, 42", 42), ("42,42", 42),
        ("9223372036854775807", Int64.max),
    ] as [(String, Int64)])
    func theContentLengthIsADecimalNumber(value: String, length: Int64) {
        #expect(response([("Content-Length", value)]).expectedContentLength == length)
    }

    @Test(arguments: [
        "", " ", "-1", "+1", "1.0", "1e3", "0x10", "1 2", "12a", "9223372036854775808", "99999999999999999999",
        "42, 43", "42,", ",42", "\u{661}",
    ])
    func anInvalidContentLengthAnnouncesNothing(value: String) {
        #expect(response([("Content-Length", value)]).expectedContentLength == nil, "'\(value)'")
    }

    @Test func repeatedContentLengthsMustAgree() {
        #expect(response([("Content-Length", "5"), ("content-length", "5")]).expectedContentLength == 5)
        #expect(response([("Content-Length", "5"), ("Content-Length", "6")]).expectedContentLength == nil)
        #expect(response([("Content-Length", "5"), ("Content-Length", "x")]).expectedContentLength == nil)
    }

    @Test func aTransferEncodingOverridesTheContentLength() {
        #expect(response([("Content-Length", "5"), ("Transfer-Encoding", "chunked")]).expectedContentLength == nil)
        #expect(response([("Transfer-Encoding", "chunked"), ("Content-Length", "5")]).expectedContentLength == nil)
        #expect(response([("Content-Type", "image/png")]).expectedContentLength == nil)
    }
}
