import Foundation
@testable import WebImageCurl
import WebImage

/// Fuzzes what the downloader makes of a response's header block, without a connection: each line goes through
/// the header parser curl's header callback uses (`CurlHeaderLine`), the fields are collected as a transfer
/// collects them (a status line starts a new response, a folded line continues the last field), and the
/// response is read as the downloader and its callers read it: media type, `Content-Length`, the validators
/// (`ETag`, `Last-Modified`) and the checks before decoding (`DownloadResponseCheck`).
///
/// The input's first two bytes are the status code (0 to 999), the third chooses a conditional request and an
/// accepted media type list; the rest is the header block, one line per `\n`.
enum ResponseHeaderHarness {
    static var target: FuzzTarget {
        FuzzTarget(
            name: "http-headers",
            summary: "Response header lines, fields and checks, without a connection",
            maxLength: 4 << 10,
            run: run
        )
    }

    private static let url = URL(string: "http://127.0.0.1/image.png")!

    static func run(_ data: Data) {
        var input = FuzzInput(data)
        let statusCode = input.int(in: 0...999)
        let flags = input.byte()
        let isConditional = flags & 1 != 0
        var config = ImageDownloaderConfig()
        if flags & 2 != 0 {
            config.acceptableContentTypes = ["image/png", "image/jpeg", "image/*"]
        }

        var headers: [HTTPHeader] = []
        let block = Array(input.rest())
        var start = 0
        while start < block.count {
            let end = block[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? block.count
            let line = block[start..<end]
            start = end
            let parsed = line.withUnsafeBytes { CurlHeaderLine($0) }
            check(parsed, of: line)
            switch parsed {
            case .status:
                headers.removeAll()
            case .field(let name, let value):
                headers.append(HTTPHeader(name: name, value: value))
            case .continuation(let more):
                guard let previous = headers.popLast() else { break }
                headers.append(HTTPHeader(name: previous.name, value: more.isEmpty ? previous.value : previous.value + " " + more))
            case .other:
                break
            }
        }

        let response = ImageResponse(url: url, statusCode: statusCode, headers: headers)
        check(response)
        let failure = DownloadResponseCheck.failure(for: response, config: config, isConditional: isConditional)
        check(failure, for: response, config: config, isConditional: isConditional)
    }

    /// The line's kind follows from its first bytes, and what the parser keeps is trimmed as documented.
    private static func check(_ parsed: CurlHeaderLine, of line: ArraySlice<UInt8>) {
        var content = line
        while let last = content.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { content.removeLast() }
        let text = String(decoding: line, as: UTF8.self)
        let isStatus = content.starts(with: Array("HTTP/".utf8))
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let startsBlank = content.first.map(blank) ?? false
        let isTrimmed: (String) -> Bool = { value in
            guard let first = value.utf8.first, let last = value.utf8.last else { return true }
            return !blank(first) && !blank(last)
        }
        switch parsed {
        case .status:
            fuzzCheck(isStatus, "'\(text)' parsed as a status line")
        case .field(let name, let value):
            fuzzCheck(!isStatus && !startsBlank, "'\(text)' parsed as a field")
            let colon = content.firstIndex(of: UInt8(ascii: ":"))
            fuzzCheck(
                colon.map { name == String(decoding: content[..<$0], as: UTF8.self) } ?? false,
                "the field name '\(name)' is not what comes before the first colon of '\(text)'"
            )
            fuzzCheck(isTrimmed(value), "the field value '\(value)' is not trimmed")
        case .continuation(let more):
            fuzzCheck(!isStatus && startsBlank, "'\(text)' parsed as a continuation")
            fuzzCheck(isTrimmed(more), "the continuation '\(more)' is not trimmed")
        case .other:
            fuzzCheck(!isStatus && !startsBlank && !content.contains(UInt8(ascii: ":")), "'\(text)' parsed as nothing")
        }
    }

    /// What a caller reads from the response.
    private static func check(_ response: ImageResponse) {
        if let type = response.mediaType {
            fuzzCheck(!type.isEmpty && type == type.lowercased(), "the media type '\(type)' is empty or not lowercased")
            fuzzCheck(!type.contains(";"), "the media type '\(type)' keeps its parameters")
            fuzzCheck(type == type.trimmingCharacters(in: .whitespaces), "the media type '\(type)' is not trimmed")
            let parts = type.split(separator: "/", omittingEmptySubsequences: false)
            fuzzCheck(
                parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && !$0.isWhitespace } },
                "the media type '\(type)' is not a type and a subtype"
            )
            fuzzCheck(!response.hasMalformedContentType, "the media type '\(type)' comes from a malformed Content-Type")
        } else {
            fuzzCheck(
                response.hasMalformedContentType == (response.value(forHeader: "content-type") != nil),
                "a response without a media type has a Content-Type that is not called malformed, or none that is"
            )
        }
        if let length = response.expectedContentLength {
            fuzzCheck(length >= 0, "the announced length \(length) is negative")
        }
        let validators = ImageRevalidation(response: response)
        fuzzCheck(validators.entityTag == response.value(forHeader: "etag"), "the ETag validator is not the response's")
        fuzzCheck(
            validators.lastModified == response.value(forHeader: "last-modified"),
            "the Last-Modified validator is not the response's"
        )
        for field in validators.headers {
            fuzzCheck(!field.value.isEmpty, "the conditional field \(field.name) is empty")
        }
    }

    /// The checks run in SDWebImage's order: a `304` to a conditional request, the status (which only a `file:`
    /// URL may lack), the media type (a malformed `Content-Type` is refused where types are checked).
    private static func check(_ failure: WebImageError?, for response: ImageResponse, config: ImageDownloaderConfig, isConditional: Bool) {
        let status = response.statusCode
        if status == 304, isConditional {
            fuzzCheck(
                failure?.code == .cacheNotModified,
                "a 304 to a conditional request gave \(failure.map(String.init(describing:)) ?? "no failure")"
            )
        } else if !(status == 0 && response.url.isFileURL), !config.acceptableStatusCodes.contains(status) {
            fuzzCheck(
                failure?.code == .invalidDownloadStatusCode && failure?.statusCode == status,
                "status \(status) gave \(failure.map(String.init(describing:)) ?? "no failure")"
            )
        } else if let accepted = config.acceptableContentTypes,
                  response.mediaType.map({ !accepted.contains($0) }) ?? response.hasMalformedContentType {
            fuzzCheck(
                failure?.code == .invalidDownloadContentType,
                "\(response.value(forHeader: "content-type") ?? "") outside \(accepted) gave \(failure.map(String.init(describing:)) ?? "no failure")"
            )
        } else {
            fuzzCheck(
                failure == nil,
                "an acceptable response (\(status), \(response.mediaType ?? "no type")) failed with \(failure.map(String.init(describing:)) ?? "")"
            )
        }
    }
}
