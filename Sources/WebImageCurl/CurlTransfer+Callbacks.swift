import CCurl
import Foundation

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

/// curl's progress callback, called at least once a second: stops a transfer that received nothing for its stall
/// timeout. curl's own low-speed check averages over a window of several seconds, so on its own it fires late.
let curlTransferProgress: wi_curl_progress_callback = { context, _, _, _, _ in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.checkStall() ? 0 : 1
}

extension CurlTransfer {
    /// Whether the transfer may go on; false (recording why) when it received nothing for the stall timeout.
    func checkStall() -> Bool {
        guard ContinuousClock.now - lastActivity >= request.stallTimeout else { return true }
        abort = .stalled(request.stallTimeout)
        return false
    }

    /// Appends a body chunk; returns the count consumed, or 0 to make curl stop (size limit).
    func receive(_ chunk: UnsafeRawBufferPointer) -> Int {
        deliverResponseIfNeeded()
        guard Int64(body.count) + Int64(chunk.count) <= request.maxResponseSize else {
            abort = .responseTooLarge(limit: request.maxResponseSize)
            return 0
        }
        body.append(contentsOf: chunk)
        lastActivity = .now
        sink.didReceive(
            bytesSoFar: Int64(body.count), expected: response?.expectedContentLength ?? -1, chunk: chunk
        )
        return chunk.count
    }

    /// Records a header line; a status line starts a new response, so only the last response's headers remain.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        lastActivity = .now
        switch CurlHeaderLine(bytes) {
        case .status:
            responseHeaders.removeAll(keepingCapacity: true)
        case .field(let name, let value):
            responseHeaders.append((name, value))
        case .continuation(let more):
            guard let previous = responseHeaders.popLast() else { return }
            responseHeaders.append((previous.name, more.isEmpty ? previous.value : previous.value + " " + more))
        case .other:
            break
        }
    }
}
