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

/// curl's header callback: one header line of any response, redirects included.
let curlTransferHeader: wi_curl_data_callback = { buffer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: size * count))
    return size * count
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
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        activity &+= 1
        switch CurlHeaderLine(bytes) {
        case .status:
            responseHeaders.removeAll(keepingCapacity: true)
        case .field(let name, let value):
            // Room for a typical response's fields at once, rather than growing one field at a time.
            if responseHeaders.capacity == 0 { responseHeaders.reserveCapacity(12) }
            responseHeaders.append(HTTPHeader(name: name, value: value))
        case .continuation(let more):
            guard let previous = responseHeaders.popLast() else { return }
            responseHeaders.append(HTTPHeader(name: previous.name, value: more.isEmpty ? previous.value : previous.value + " " + more))
        case .other:
            break
        }
    }
}
