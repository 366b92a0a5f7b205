import Testing
@testable import WebImageCurl

@Suite struct CurlHeaderLineTests {
    private func parse(_ line: String) -> CurlHeaderLine {
        Array(line.utf8).withUnsafeBytes { CurlHeaderLine($0) }
    }

    @Test func statusLinesStartAResponse() {
        #expect(parse("HTTP/1.1 200 OK\r\n") == .status)
        #expect(parse("HTTP/2 302\r\n") == .status)
        #expect(parse("HTTP/") == .status)
        #expect(parse("HTTPS: x\r\n") == .field(name: "HTTPS", value: "x"), "only HTTP/ starts a status line")
    }

    @Test func fieldsAreSplitAtTheFirstColonAndTrimmed() {
        #expect(parse("Content-Type: image/png\r\n") == .field(name: "Content-Type", value: "image/png"))
        #expect(parse("ETag:\t \"abc\" \t\r\n") == .field(name: "ETag", value: "\"abc\""))
        #expect(parse("Location: http://a/b?c=d:e\n") == .field(name: "Location", value: "http://a/b?c=d:e"))
        #expect(parse("X-Empty:\r\n") == .field(name: "X-Empty", value: ""))
        #expect(parse("X-No-End: value") == .field(name: "X-No-End", value: "value"))
    }

    @Test func foldedLinesContinueTheField() {
        #expect(parse("   more text  \r\n") == .continuation("more text"))
        #expect(parse("\tmore\r\n") == .continuation("more"))
    }

    @Test func blankAndMalformedLinesAreIgnored() {
        #expect(parse("\r\n") == .other)
        #expect(parse("") == .other)
        #expect(parse("no colon here\r\n") == .other)
    }

    @Test func invalidUTF8IsRepairedNotDropped() {
        let bytes: [UInt8] = Array("X-Bytes: a".utf8) + [0xFF] + Array("b\r\n".utf8)
        let line = bytes.withUnsafeBytes { CurlHeaderLine($0) }
        #expect(line == .field(name: "X-Bytes", value: "a\u{FFFD}b"))
    }
}
