import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on 127.0.0.1 that answers every connection with the same bytes, whatever they are: it reads the
/// request's head, writes the response it holds, and closes. For feeding hostile HTTP responses to a real
/// client, byte for byte (a well-behaved HTTP server cannot send a malformed one).
///
/// Connections are served one at a time, on the server's own thread, for the life of the process.
final class RawHTTPServer: Sendable {
    /// The port it listens on.
    let port: UInt16
    /// The bytes every connection gets. An array rather than `Data`, whose storage reference sits in an enum
    /// with tag bits that LeakSanitizer cannot see through: the last input's bytes, held until the process
    /// exits, would be reported as leaked.
    private let response = Mutex([UInt8]())
    /// Connections served so far.
    private let served = Atomic<Int>(0)

    /// Listens on an ephemeral port of 127.0.0.1 and starts serving.
    init() {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { fatalError("socket: \(String(cString: strerror(errno)))") }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound, listen(listener, 64) == 0 else { fatalError("bind or listen: \(String(cString: strerror(errno)))") }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { continue }
                serve(connection)
                close(connection)
            }
        }
        thread.name = "raw-http-server"
        thread.start()
    }

    /// Makes `bytes` the answer to every connection from now on.
    func respond(with bytes: [UInt8]) {
        response.withLock { $0 = bytes }
    }

    /// The number of connections served so far.
    var connectionCount: Int { served.load(ordering: .relaxed) }

    /// Reads the request head (up to a blank line, 64 KiB or a second without bytes), writes the response, and
    /// shuts the sending side so that a client reading to the end sees it.
    private func serve(_ connection: Int32) {
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while head.count < 64 << 10, !head.containsSubsequence(end) {
            var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 1000) > 0 else { break }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            head.append(contentsOf: buffer[0..<count])
        }
        let bytes = response.withLock { $0 }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { break }
                offset += sent
            }
        }
        shutdown(connection, Int32(SHUT_WR))
        served.add(1, ordering: .relaxed)
    }
}

extension Collection where Element: Equatable {
    /// Whether `other` occurs in this collection as consecutive elements.
    fileprivate func containsSubsequence(_ other: [Element]) -> Bool {
        guard !other.isEmpty else { return true }
        var start = startIndex
        while start != endIndex {
            if self[start...].starts(with: other) { return true }
            start = index(after: start)
        }
        return false
    }
}
