import CCurl
import Foundation
import WebImageCore

/// curl's write callback: appends a body chunk, enforces the size limit while streaming and reports the chunk.
/// Runs on the curl thread during `curl_multi_perform`; `context` is the transfer's unretained reference.
let curlTransferWrite: wi_curl_data_callback = { buffer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receive(UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: size * count))
}

/// curl's header callback: one header line of any response, redirects included; 0 makes curl stop (a line the
/// transfer refuses).
let curlTransferHeader: wi_curl_data_callback = { buffer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let accepted = transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: size * count))
    return accepted ? size * count : 0
}

extension CurlTransfer {
    /// Appends a body chunk; returns the count consumed, or 0 to make curl stop (size limit).
    func receive(_ chunk: UnsafeRawBufferPointer) -> Int {
        deliverResponseIfNeeded()
        guard Int64(body.count) + Int64(chunk.count) <= request.maxResponseSize else {
            abort = .responseTooLarge(limit: request.maxResponseSize)
            return 0
        }
        // Out of memory: curl stops the transfer with a write error.
        guard body.append(chunk) else { return 0 }
        activity &+= 1
        sink.didReceive(
            bytesSoFar: Int64(body.count), expected: response?.expectedContentLength ?? -1, chunk: chunk
        )
        return chunk.count
    }

    /// Records a header line; a status line starts a new response, so only the last response's headers remain.
    ///
    /// Returns false, with the reason in ``abort``, for a folded line right after a status line: it continues no
    /// field, and RFC 9112 has a client either ignore it or refuse the reply. The transfer refuses it, as libcurl
    /// before 8.1.0 does before this callback sees the line; later versions pass it on as a field of its own.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        activity &+= 1
        switch CurlHeaderLine(bytes) {
        case .status:
            responseHeaders.removeAll(keepingCapacity: true)
        case .field(let name, let value):
            // Room for a typical response's fields at once, rather than growing one field at a time.
            if responseHeaders.capacity == 0 { responseHeaders.reserveCapacity(12) }
            responseHeaders.append(HTTPHeader(name: name, value: value))
        case .continuation(let more):
            guard let previous = responseHeaders.popLast() else {
                abort = .malformedHeader("a folded header line follows the status line")
                return false
            }
            responseHeaders.append(HTTPHeader(name: previous.name, value: more.isEmpty ? previous.value : previous.value + " " + more))
        case .other:
            break
        }
        return true
    }
}
