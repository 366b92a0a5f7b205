import Foundation
import NIOCore
import NIOHTTP1
import WebImage
import WebImageCore

/// Answers the requests of one connection of the demo's server from a ``Catalog``: `GET` and `HEAD` of
/// `<prefix><name>` for a file of the catalog with its bytes, `Content-Type` and `Content-Length`; 404 for any
/// other path and 405 for any other method.
///
/// Lives on its connection's event loop only, behind NIOHTTP1's server pipeline (with pipelining assistance, so
/// that responses leave in the order of the requests). It answers each request when the request's end arrives and
/// ignores request bodies. The connection stays open after a response unless the request asked to close it
/// (`Connection: close`, or HTTP/1.0 without keep-alive).
final class DemoFileHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let catalog: Catalog
    private var head: HTTPRequestHead?

    /// A handler for one connection, answering from `catalog`, which every connection shares.
    init(catalog: Catalog) {
        self.catalog = catalog
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Writes the whole response to `head`, then closes the connection when the request asked for that.
    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let answer = catalog.answer(method: head.method, uri: head.uri)
        var response = HTTPResponseHead(version: head.version, status: answer.status)
        response.headers.add(name: "Content-Type", value: answer.contentType)
        response.headers.add(name: "Content-Length", value: String(answer.body.readableBytes))
        if answer.status == .methodNotAllowed { response.headers.add(name: "Allow", value: "GET, HEAD") }
        let keepAlive = head.isKeepAlive
        response.headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")

        context.write(wrapOutboundOut(.head(response)), promise: nil)
        if head.method != .HEAD, answer.body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
        }
        guard !keepAlive else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

extension DemoFileHandler {
    /// The files the demo's server answers with, read once, and the traffic they have made.
    ///
    /// The regular files directly in one directory whose names are plain (ASCII letters, digits, `-`, `_` and `.`,
    /// not starting with `.`) are read into memory when the catalog is made, so that no request reads a file on an
    /// event loop and a later change to the directory is not seen. Other entries (subdirectories, symbolic links,
    /// hidden files) are not served.
    ///
    /// Thread-safe: every connection answers from the same catalog, and ``traffic`` may be read from any thread.
    final class Catalog: Sendable {
        /// The path prefix the files are served under, starting and ending with `/`.
        let prefix: String
        /// The names of the served files, sorted.
        let names: [String]

        /// One served file: its bytes, shared by every response (a `ByteBuffer` is copied on write only).
        private struct File: Sendable {
            let body: ByteBuffer
            let contentType: String
        }

        private let files: [String: File]
        private let counts = Locked(DemoTraffic())

        /// What to send for one request.
        struct Answer: Sendable {
            let status: HTTPResponseStatus
            let contentType: String
            let body: ByteBuffer
        }

        /// Reads the files of `directory`, to be served under `prefix` (which must start and end with `/`).
        ///
        /// - Throws: `diskIO` when the directory or one of its files cannot be read.
        init(directory: URL, prefix: String) throws(WebImageError) {
            precondition(prefix.hasPrefix("/") && prefix.hasSuffix("/"), "a prefix starts and ends with /")
            self.prefix = prefix
            let manager = FileManager.default
            var files: [String: File] = [:]
            do {
                for name in try manager.contentsOfDirectory(atPath: directory.path) where Self.isPlain(name[...]) {
                    let url = directory.appendingPathComponent(name)
                    // Not following symbolic links: only the directory's own files are served.
                    guard try manager.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType == .typeRegular
                    else { continue }
                    let bytes = try Data(contentsOf: url)
                    files[name] = File(body: ByteBuffer(bytes: bytes), contentType: Self.contentType(forName: name))
                }
            } catch {
                throw WebImageError(.diskIO, "cannot read the files in \(directory.path): \(error.localizedDescription)")
            }
            self.files = files
            self.names = files.keys.sorted()
        }

        /// The size of the file `name` in bytes; nil when it is not served.
        func size(of name: String) -> Int? {
            files[name]?.body.readableBytes
        }

        /// The requests answered and the body bytes sent so far.
        var traffic: DemoTraffic {
            counts.withLock { $0 }
        }

        /// The answer to `method` on `uri` (a path with an optional query, which is ignored), counted in
        /// ``traffic``: every request, and the body bytes unless `method` is `HEAD`.
        func answer(method: HTTPMethod, uri: String) -> Answer {
            let answer: Answer
            if let name = Self.name(in: uri, under: prefix), let file = files[name] {
                answer = method == .GET || method == .HEAD
                    ? Answer(status: .ok, contentType: file.contentType, body: file.body)
                    : Self.text(.methodNotAllowed, "only GET and HEAD\n")
            } else {
                answer = Self.text(.notFound, "not found\n")
            }
            let sent = method == .HEAD ? 0 : answer.body.readableBytes
            counts.withLock {
                $0.requests += 1
                $0.bytes += sent
            }
            return answer
        }

        /// The file name `uri` asks for under `prefix`: nil unless what follows the prefix is one plain name,
        /// which rules out `..`, further slashes, percent-escapes and hidden files.
        static func name(in uri: String, under prefix: String) -> String? {
            let path = uri.prefix { $0 != "?" && $0 != "#" }
            guard path.hasPrefix(prefix) else { return nil }
            let name = path.dropFirst(prefix.count)
            return isPlain(name) ? String(name) : nil
        }

        /// Whether `name` is a plain file name: not empty, ASCII letters, digits, `-`, `_` and `.` only, and not
        /// starting with `.` (so neither `.`, `..` nor a hidden file).
        static func isPlain(_ name: Substring) -> Bool {
            guard let first = name.first, first != "." else { return false }
            return name.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
                default: false
                }
            }
        }

        /// The media type for a file name's extension; `application/octet-stream` when unknown.
        static func contentType(forName name: String) -> String {
            switch name.split(separator: ".").last?.lowercased() ?? "" {
            case "jpg", "jpeg": "image/jpeg"
            case "png": "image/png"
            case "gif": "image/gif"
            case "webp": "image/webp"
            case "jxl": "image/jxl"
            default: "application/octet-stream"
            }
        }

        /// A short plain-text answer.
        private static func text(_ status: HTTPResponseStatus, _ message: String) -> Answer {
            Answer(status: status, contentType: "text/plain; charset=utf-8", body: ByteBuffer(string: message))
        }
    }
}
