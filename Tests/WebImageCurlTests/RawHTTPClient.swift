import Foundation
#if canImport(Glibc)
import Glibc

private func systemClose(_ fd: Int32) { _ = Glibc.close(fd) }
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
}
#elseif canImport(Darwin)
import Darwin

private func systemClose(_ fd: Int32) { _ = Darwin.close(fd) }
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    Darwin.send(fd, bytes.baseAddress, bytes.count, 0)
}
#endif

/// A response read by ``RawHTTPConnection``.
struct RawHTTPResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]
    /// Whether the body ended as its framing said (length reached, last chunk, or close for unframed bodies).
    var complete: Bool

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// An HTTP/1.1 client over one TCP connection to 127.0.0.1, independent of the downloader, with a receive timeout
/// on every read so that a server bug fails a test instead of hanging it.
///
/// Its reads block, so they run on a thread of their own (``onOwnThread(_:)``) while the test awaits them: a read
/// blocking a thread of Swift's cooperative pool, which has one thread per core, stops every other test's tasks for as
/// long as it waits. Under ThreadSanitizer that is seconds, long enough for the transfers those tests start, which run
/// on the downloader's own thread, to time out before the tests get to cancel them.
///
/// `@unchecked Sendable`: one test uses a connection, one call at a time, and awaits each read, so no two threads
/// touch `buffer` at once.
final class RawHTTPConnection: @unchecked Sendable {
    enum Failure: Error { case socket(String), closedBeforeHead, timedOut }

    /// How long a read waits for a response's head: as long as the server may take under a sanitizer's slowdown.
    /// `timeoutMilliseconds` bounds the reads after it, for bodies that stall on purpose.
    static let headTimeoutMilliseconds = 20_000

    private let fd: Int32
    private let timeoutMilliseconds: Int
    private var buffer: [UInt8] = []
    private(set) var isClosedByPeer = false

    init(port: Int, timeoutMilliseconds: Int = 5000) throws {
        self.timeoutMilliseconds = timeoutMilliseconds
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure.socket("socket") }
        var timeout = timeval(tv_sec: .init(timeoutMilliseconds / 1000), tv_usec: .init(timeoutMilliseconds % 1000 * 1000))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            // Not closed here: an initializer that throws once every property is set still runs `deinit`, which
            // closes it. Closing it twice could close a descriptor another thread has opened since, under the
            // same number.
            throw Failure.socket("connect: errno \(errno)")
        }
    }

    deinit {
        if fd >= 0 { systemClose(fd) }
    }

    /// Sends a request for `target` with `headers`; `Host` is added.
    func send(_ method: String = "GET", _ target: String, headers: [(String, String)] = []) throws {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { systemSend(fd, $0) }
            guard sent > 0 else { throw Failure.socket("send: errno \(errno)") }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Sends a request and reads its response.
    func get(_ target: String, headers: [(String, String)] = []) async throws -> RawHTTPResponse {
        try send("GET", target, headers: headers)
        return try await readResponse()
    }

    /// Reads one response, on a thread of its own. A body cut short comes back with `complete` false; a timeout in
    /// the body too.
    func readResponse(isHead: Bool = false) async throws -> RawHTTPResponse {
        try await onOwnThread { try self.readResponseOnThisThread(isHead: isHead) }
    }

    /// ``readResponse(isHead:)`` on the calling thread, which it blocks: for a test that reads many responses in one
    /// ``onOwnThread(_:)`` call.
    func readResponseOnThisThread(isHead: Bool = false) throws -> RawHTTPResponse {
        setReceiveTimeout(milliseconds: max(timeoutMilliseconds, Self.headTimeoutMilliseconds))
        guard let end = try readUntil([13, 10, 13, 10]) else { throw Failure.closedBeforeHead }
        setReceiveTimeout(milliseconds: timeoutMilliseconds)
        let headText = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        var response = RawHTTPResponse(status: status, headers: headers, body: [], complete: true)
        if isHead || status == 204 || status == 304 || (100..<200).contains(status) { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            try readChunked(into: &response)
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            let available = try fill(upTo: length)
            response.body = Array(buffer.prefix(available))
            buffer.removeFirst(available)
            response.complete = available == length
        } else {
            _ = try fill(upTo: Int.max)
            response.body = buffer
            buffer = []
        }
        return response
    }

    private func readChunked(into response: inout RawHTTPResponse) throws {
        while true {
            guard let lineEnd = try readUntil([13, 10]) else {
                response.complete = false
                return
            }
            let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            buffer.removeFirst(lineEnd + 2)
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                response.complete = false
                return
            }
            if size == 0 {
                _ = try readUntil([13, 10]).map { buffer.removeFirst($0 + 2) }
                return
            }
            let available = try fill(upTo: size + 2)
            response.body += buffer.prefix(min(size, available))
            buffer.removeFirst(available)
            guard available == size + 2 else {
                response.complete = false
                return
            }
        }
    }

    /// Reads until `buffer` holds `count` bytes or the peer closes or a read times out; returns what is there.
    private func fill(upTo count: Int) throws -> Int {
        while buffer.count < count, receive() {}
        return min(buffer.count, count)
    }

    /// Reads until `marker` appears; returns its offset, or nil when the stream ended first.
    private func readUntil(_ marker: [UInt8]) throws -> Int? {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for i in searchFrom...(buffer.count - marker.count) where buffer[i..<i + marker.count].elementsEqual(marker) {
                    return i
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard receive() else { return nil }
        }
    }

    /// One `recv`; false at end of stream, on a reset and on a timeout.
    private func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            if count == 0 || errno == ECONNRESET { isClosedByPeer = true }
            return false
        }
        buffer += chunk[0..<count]
        return true
    }

    private func setReceiveTimeout(milliseconds: Int) {
        var timeout = timeval(tv_sec: .init(milliseconds / 1000), tv_usec: .init(milliseconds % 1000 * 1000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Whether the peer has closed: a read that returns end of stream or a reset within `timeoutMilliseconds`.
    func waitForClose(timeoutMilliseconds: Int) async -> Bool {
        let fd = fd
        return (try? await onOwnThread {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(timeoutMilliseconds)) > 0 else { return false }
            var byte: UInt8 = 0
            let count = recv(fd, &byte, 1, Int32(MSG_PEEK))
            return count == 0 || (count < 0 && errno == ECONNRESET)
        }) ?? false
    }
}
