import CCurl
import Testing
import WebImageCore
@testable import WebImageCurl

/// How a transfer collects the header lines curl hands it, without a connection.
@Suite struct CurlTransferHeaderTests {
    private let counters = CurlLiveCounters()

    private func transfer() throws -> CurlTransfer {
        CurlRuntime.initialize()
        let easy = try #require(curl_easy_init())
        counters.handleOpened()
        let url = "http://127.0.0.1/a.png"
        let submission = CurlSubmission(
            id: CurlTransferID(rawValue: 1), request: CurlRequest(url: url), sink: RecordingSink(),
            connectionKey: CurlConnectionKey(url: url, proxy: CurlProxyEnvironment { _ in nil })
        )
        return CurlTransfer(submission: submission, easy: easy, counters: counters)
    }

    private func receive(_ line: String, _ transfer: CurlTransfer) -> Bool {
        Array(line.utf8).withUnsafeBytes { transfer.receiveHeaderLine($0) }
    }

    @Test func aFoldedLineContinuesTheFieldBeforeIt() throws {
        let transfer = try transfer()
        for line in ["HTTP/1.1 200 OK\r\n", "X-Long: first\r\n", "  second\r\n", "\tthird\r\n", "\r\n"] {
            #expect(receive(line, transfer))
        }
        #expect(transfer.responseHeaders == [HTTPHeader(name: "X-Long", value: "first second third")])
        #expect(transfer.abort == nil)
    }

    /// A folded line right after a status line continues nothing: the transfer refuses the reply, as libcurl
    /// before 8.1.0 does itself; later versions hand the line on.
    @Test(arguments: [["HTTP/1.1 200 OK\r\n"], ["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 200 OK\r\n"], ["HTTP/1.1 301 Moved\r\n", "Location: /b\r\n", "\r\n", "HTTP/1.1 200 OK\r\n"]])
    func aFoldedLineAfterTheStatusLineIsRefused(before: [String]) throws {
        let transfer = try transfer()
        for line in before { #expect(receive(line, transfer)) }
        #expect(!receive(" folded: value\r\n", transfer))
        guard case .malformedHeader? = transfer.abort else {
            Issue.record("no abort: \(String(describing: transfer.abort))")
            return
        }
        let error = CurlError.map(CURLE_WRITE_ERROR, abort: transfer.abort, url: "http://127.0.0.1/a.png")
        #expect(error.code == .badServerResponse)
        #expect(error.message.contains("folded"))
    }
}
