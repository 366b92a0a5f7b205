import Foundation
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
import WebImageCore
#endif

/// A tiny TCP server on 127.0.0.1 for the engine's tests before a real HTTP server is at hand: it accepts connections
/// on a thread and, for each, answers a fixed response, says nothing, or closes at once.
final class RawTCPListener: Sendable {
    enum Behaviour: Sendable {
        /// Reads the request head, writes these bytes, closes.
        case respond(Data)
        /// Reads the request and never answers (until stopped).
        case silent
        /// Closes the connection as soon as it is accepted.
        case close
    }

    private struct State {
        var stopped = false
        var openConnections: [Int32] = []
        var accepted = 0
    }

    let port: UInt16
    private let socket: Int32
    private let behaviour: Behaviour
    private let state = Locked(State())
    private let done = Locked(false)

    init(_ behaviour: Behaviour) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        socket = fd
        port = UInt16(bigEndian: address.sin_port)
        self.behaviour = behaviour
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var url: String { "http://127.0.0.1:\(port)/" }
    var acceptedCount: Int { state.withLock { $0.accepted } }

    /// Stops accepting, closes every connection and waits (at most 2 s) for the accept thread to end.
    func stop() async {
        state.withLock { $0.stopped = true }
        _ = await waitUntil(timeout: .seconds(2)) { self.done.withLock { $0 } }
    }

    private func acceptLoop() {
        defer {
            let open = state.withLock { state in
                let open = state.openConnections
                state.openConnections.removeAll()
                return open
            }
            for fd in open { Glibc.close(fd) }
            Glibc.close(socket)
            done.withLock { $0 = true }
        }
        while !state.withLock({ $0.stopped }) {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { continue }
            state.withLock { $0.accepted += 1 }
            switch behaviour {
            case .close:
                Glibc.close(connection)
            case .silent:
                state.withLock { $0.openConnections.append(connection) }
            case .respond(let data):
                readHead(connection)
                data.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress else { return }
                    var offset = 0
                    while offset < bytes.count {
                        let written = send(connection, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                        if written <= 0 { break }
                        offset += written
                    }
                }
                Glibc.close(connection)
            }
        }
    }

    /// Reads until the end of the request head, for at most a second.
    private func readHead(_ connection: Int32) {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<50 {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return }
            received.append(contentsOf: buffer[0..<count])
            if received.count >= 4, received.suffix(4).elementsEqual([13, 10, 13, 10]) { return }
        }
    }

    /// An HTTP/1.1 response with a body and its length.
    static func response(status: String = "200 OK", headers: [String] = [], body: Data) -> Data {
        var head = "HTTP/1.1 \(status)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        head += "\r\n"
        return Data(head.utf8) + body
    }

    /// A port on 127.0.0.1 nothing listens on: bound, read and closed.
    static func closedPort() throws -> UInt16 {
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        defer { Glibc.close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        return UInt16(bigEndian: address.sin_port)
    }
}
