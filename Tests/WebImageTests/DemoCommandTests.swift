#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import WebImage
@testable import webimage

/// `webimage demo`, run as a user runs it: the three passes over its loopback server, the files it writes, the
/// temporary cache it removes, and its text output when standard output is not a terminal.
@Suite final class DemoCommandTests {
    let temporary: URL

    init() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-demo-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: temporary)
    }

    /// The JSON lines of one kind (`start`, `pass`, `done`), in order.
    private static func lines(_ objects: [[String: Any]], kind: String) -> [[String: Any]] {
        objects.filter { $0["demo"] as? String == kind }
    }

    /// One run serves both checks below: each run takes a few seconds in a debug build.
    @Test func jsonRunShowsThePassesAndWritesFilesThatDecode() throws {
        let result = try WebImageToolTests.run(["demo", "--json", "--thumbnail", "96x64", "--out", temporary.path])
        #expect(result.status == 0, "\(result.stderr)")
        try checkPasses(result.objects)
        try checkOutputs(result.objects, thumbnailBox: PixelSize(width: 96, height: 64))
    }

    /// The network pass: one request per distinct URL; memory: every load; disk, after the memory tier is
    /// cleared: no request. The temporary cache is gone.
    private func checkPasses(_ objects: [[String: Any]]) throws {
        let start = try #require(Self.lines(objects, kind: "start").first)
        let urls = try #require(start["urls"] as? Int)
        let loads = try #require(start["loads"] as? Int)
        #expect(urls == 5)
        #expect(loads > urls, "several loads per URL, so that coalescing shows")

        let passes = Self.lines(objects, kind: "pass")
        try #require(passes.count == 3)
        #expect(passes.map { $0["pass"] as? String } == ["network", "memory", "disk"])
        #expect(passes.allSatisfy { $0["ok"] as? Bool == true && $0["failed"] as? Int == 0 && $0["loads"] as? Int == loads })
        let tiers = passes.map { $0["tiers"] as? [String: Int] ?? [:] }

        // The network: one request per distinct URL however many loads; copies that start after their image is
        // back may find it in the cache, but every URL is loaded from the network at least once.
        // A load at the other size may miss the shared transfer by a hair (after it ended, before the image is
        // stored) and fetch again: never more than one request per URL and size, against 30 loads.
        let requests = passes[0]["requests"] as? Int ?? -1
        #expect((urls...(2 * urls)).contains(requests), "\(requests) requests for \(urls) URLs")
        #expect(tiers[0].values.reduce(0, +) == loads)
        #expect((tiers[0]["none"] ?? 0) >= urls)
        #expect(Set(tiers[0].keys).isSubset(of: ["none", "memory", "disk"]))
        #expect((passes[0]["bytes"] as? Int ?? 0) > 0)
        // Memory: every load, no request.
        #expect(tiers[1] == ["memory": loads])
        #expect(passes[1]["requests"] as? Int == 0 && passes[1]["bytes"] as? Int == 0)
        // Disk after the memory tier is cleared: no request, every URL read from disk.
        #expect(passes[2]["requests"] as? Int == 0)
        #expect(tiers[2].values.reduce(0, +) == loads)
        #expect((tiers[2]["disk"] ?? 0) >= urls)
        #expect(Set(tiers[2].keys).isSubset(of: ["disk", "memory"]))

        let done = try #require(Self.lines(objects, kind: "done").first)
        #expect(done["ok"] as? Bool == true)
        #expect(done["problems"] as? [String] == [])
        #expect(done["requests"] as? Int == requests)

        // The shared cache lived in a temporary directory (`<root>/swift-web-image/default`), now removed.
        let cache = try #require(start["cache"] as? String)
        let root = URL(fileURLWithPath: cache).deletingLastPathComponent().deletingLastPathComponent()
        #expect(root.path.hasPrefix(FileManager.default.temporaryDirectory.path))
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }

    /// A thumbnail of the size asked for and a transform, both in the output directory, both decoding as reported.
    private func checkOutputs(_ objects: [[String: Any]], thumbnailBox: PixelSize) throws {
        let reports = objects.filter { $0["demo"] == nil }
        try #require(reports.count == 2)
        for report in reports {
            #expect(report["ok"] as? Bool == true)
            let path = try #require(report["output"] as? String)
            #expect(path.hasPrefix(temporary.path))
            let image = try ImageCoderRegistry.shared.decode(Data(contentsOf: URL(fileURLWithPath: path)), options: ImageDecodeOptions())
            #expect(image.width == report["width"] as? Int && image.height == report["height"] as? Int)
            #expect(image.format.name == report["format"] as? String)
        }
        // The thumbnail fits the box asked for, touching it on one side; the transform covers 256 px with
        // transparent round corners.
        let width = reports[0]["width"] as? Int ?? 0, height = reports[0]["height"] as? Int ?? 0
        #expect(width <= thumbnailBox.width && height <= thumbnailBox.height, "\(width) x \(height)")
        #expect(width == thumbnailBox.width || height == thumbnailBox.height, "\(width) x \(height)")
        #expect(reports[1]["width"] as? Int == 256 && reports[1]["height"] as? Int == 256)
        #expect(reports[1]["hasAlpha"] as? Bool == true)
        let written = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        #expect(written.count == 2)
    }

    @Test func textOutputWithoutATerminalHasNoProgressBar() throws {
        let result = try WebImageToolTests.run(["demo", "--out", temporary.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\r"))
        for heading in ["1. network", "2. memory", "3. disk", "where next:", "every claim held"] {
            #expect(result.stdout.contains(heading), "missing \(heading)")
        }
        #expect((5...10).contains { result.stdout.contains("server: \($0) requests for 30 loads") })
        #expect(result.stderr.isEmpty)
    }
}

/// The demo's own file server: which names it serves, what it answers on one kept-alive connection, what it counts,
/// and that it stops.
@Suite final class DemoServerTests {
    let directory: URL
    /// The one servable file's bytes: text, so that responses can be read as text.
    let contents = "not really a PNG\n"

    /// A directory with one servable file, and entries that must not be served: a hidden file, a file in a
    /// subdirectory, a symbolic link and a name with a space.
    init() throws {
        let manager = FileManager.default
        directory = manager.temporaryDirectory.appendingPathComponent("webimage-demo-server-\(UUID().uuidString)")
        try manager.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: directory.appendingPathComponent("a.png"))
        for name in [".hidden.png", "sub/b.png", "with space.png"] {
            try Data("secret".utf8).write(to: directory.appendingPathComponent(name))
        }
        try manager.createSymbolicLink(
            at: directory.appendingPathComponent("link.png"), withDestinationURL: directory.appendingPathComponent("sub/b.png"))
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func onlyPlainNamesUnderThePrefixResolve() {
        typealias Catalog = DemoFileHandler.Catalog
        #expect(Catalog.name(in: "/samples/a.png", under: "/samples/") == "a.png")
        #expect(Catalog.name(in: "/samples/a.png?v=2", under: "/samples/") == "a.png")
        let refused = [
            "/samples/", "/samples/..", "/samples/../Package.swift", "/samples/%2e%2e/x", "/samples/%2E%2E",
            "/samples/sub/b.png", "/samples/.hidden.png", "/samples//a.png", "/samples/a.png/", "/samples\\a.png",
            "/other/a.png", "/a.png", "a.png", "*", "http://127.0.0.1/samples/a.png", "/samples/a%00.png",
        ]
        for uri in refused {
            #expect(Catalog.name(in: uri, under: "/samples/") == nil, "\(uri)")
        }
        #expect(Catalog.contentType(forName: "x.JPG") == "image/jpeg")
        #expect(Catalog.contentType(forName: "x.webp") == "image/webp")
        #expect(Catalog.contentType(forName: "x") == "application/octet-stream")
    }

    /// Three requests on one connection: GET, HEAD and a traversal that asks to close. All three are answered in
    /// order, the connection stays open between them and closes after the last, and the counts match.
    @Test func servesGetAndHeadOnAKeptAliveConnection() async throws {
        let server = try await DemoServer.start(serving: directory)
        do {
            #expect(server.names == ["a.png"])
            #expect(server.size(of: "a.png") == contents.utf8.count)
            #expect(server.url(for: "a.png") == server.baseURL.appendingPathComponent("a.png"))
            let port = try #require(server.baseURL.port)
            let reply = try Self.exchange(
                port: port,
                "GET /samples/a.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "HEAD /samples/a.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /samples/../a.png HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let responses = reply.components(separatedBy: "HTTP/1.1 ").dropFirst().map { "HTTP/1.1 " + $0 }
            try #require(responses.count == 3, "\(reply)")
            let length = "content-length: \(contents.utf8.count)\r\n"
            #expect(responses[0].hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(responses[0].lowercased().contains("content-type: image/png\r\n"))
            #expect(responses[0].lowercased().contains(length))
            #expect(responses[0].hasSuffix("\r\n\r\n" + contents))
            #expect(responses[1].hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(responses[1].lowercased().contains(length))
            #expect(responses[1].hasSuffix("\r\n\r\n"), "no body for HEAD")
            #expect(responses[2].hasPrefix("HTTP/1.1 404 Not Found\r\n"))
            #expect(responses[2].lowercased().contains("connection: close\r\n"))
            #expect(!reply.contains("secret"))
            let notFound = responses[2].components(separatedBy: "\r\n\r\n").last ?? ""
            #expect(server.traffic == DemoTraffic(requests: 3, bytes: contents.utf8.count + notFound.utf8.count))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        await server.stop()
        #expect(throws: (any Error).self) { try Self.exchange(port: server.baseURL.port ?? 0, "GET / HTTP/1.1\r\n\r\n") }
    }

    @Test func anEmptyDirectoryIsAnError() async throws {
        let empty = directory.appendingPathComponent("sub/empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        await #expect(throws: WebImageError.self) { try await DemoServer.start(serving: empty) }
    }

    private struct SocketError: Error {
        let call: String
        let code: Int32
    }

    /// Connects to 127.0.0.1:`port`, sends `request` whole and returns everything read until the server closes
    /// the connection (at most five seconds).
    private static func exchange(port: Int, _ request: String) throws -> String {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SocketError(call: "connect", code: errno) }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw SocketError(call: "send", code: errno) }
            sent += count
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { throw SocketError(call: "recv", code: errno) }
            if count == 0 { break }
            reply += buffer[..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }
}
