import Foundation
import Testing
@testable import WebImageCurl

@Suite struct CurlBodyBufferTests {
    private func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
    }

    private func append(_ chunk: some Collection<UInt8>, to buffer: inout CurlBodyBuffer) -> Bool {
        Array(chunk).withUnsafeBytes { buffer.append($0) }
    }

    @Test func chunksWithoutALengthGrowAndKeepTheirOrder() {
        var buffer = CurlBodyBuffer()
        var expected: [UInt8] = []
        // Chunks of uneven sizes, past several doublings of the first block.
        for (index, size) in [1, 700, 16_384, 5, 40_000, 3].enumerated() {
            let chunk = bytes(size, seed: index)
            expected += chunk
            let appended = append(chunk, to: &buffer)
            let count = buffer.count
            #expect(appended)
            #expect(count == expected.count)
        }
        let body = buffer.take()
        let countAfter = buffer.count
        let again = buffer.take()
        #expect(body == Data(expected))
        #expect(countAfter == 0)
        #expect(again.isEmpty, "taking leaves the buffer empty")
    }

    @Test func aReservedLengthIsFilledInPlace() {
        var buffer = CurlBodyBuffer()
        let reserved = buffer.reserve(20_480)
        let smaller = buffer.reserve(10)
        #expect(reserved)
        #expect(smaller, "a smaller reservation keeps what is there")
        let body = bytes(20_480, seed: 9)
        var appended = true
        for start in stride(from: 0, to: body.count, by: 4_096) {
            appended = append(body[start..<(start + 4_096)], to: &buffer) && appended
        }
        #expect(appended)
        let data = buffer.take()
        #expect(data == Data(body))
        // The Data owns the bytes now: a buffer that is used again does not disturb it.
        let reused = append([UInt8](repeating: 1, count: 64), to: &buffer)
        let second = buffer.take()
        #expect(reused)
        #expect(second == Data(repeating: 1, count: 64))
        #expect(data == Data(body))
    }

    @Test func nothingReceivedIsAnEmptyBody() {
        var buffer = CurlBodyBuffer()
        let appended = append([UInt8](), to: &buffer)
        let count = buffer.count
        let body = buffer.take()
        #expect(appended)
        #expect(count == 0)
        #expect(body.isEmpty)
        var roomOnly = CurlBodyBuffer()
        let reserved = roomOnly.reserve(1_000)
        let empty = roomOnly.take()
        #expect(reserved)
        #expect(empty.isEmpty, "room without bytes is no body")
    }
}
