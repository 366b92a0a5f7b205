import Testing
import WebImageCore

@Suite struct ScratchBufferPoolTests {
    @Test func buffersAreReused() throws {
        let pool = ScratchBufferPool(maximumRetainedBytes: 1 << 20, maximumRetainedCount: 2)
        let first = try pool.withBuffer(byteCount: 100_000) { UInt(bitPattern: $0.baseAddress) }
        #expect(pool.retainedBytes >= 100_000)
        let second = try pool.withBuffer(byteCount: 90_000) { UInt(bitPattern: $0.baseAddress) }
        #expect(first == second)
        let count = try pool.withBuffer(byteCount: 5) { $0.count }
        #expect(count == 5)
    }

    @Test func concurrentBorrowersGetDistinctBuffers() throws {
        let pool = ScratchBufferPool()
        let (a, b) = try pool.withBuffer(byteCount: 4096) { outer throws(WebImageError) in
            try pool.withBuffer(byteCount: 4096) { inner in
                (UInt(bitPattern: outer.baseAddress), UInt(bitPattern: inner.baseAddress))
            }
        }
        #expect(a != b)
    }

    @Test func limitsAreEnforced() throws {
        let pool = ScratchBufferPool(maximumRetainedBytes: 1 << 20, maximumRetainedCount: 4)
        try pool.withBuffer(byteCount: 4 << 20) { _ in }
        #expect(pool.retainedBytes == 0, "a buffer over the byte limit is freed when returned")
        try pool.withBuffer(byteCount: 1000) { _ in }
        #expect(pool.retainedBytes > 0)
        pool.maximumRetainedCount = 0
        #expect(pool.retainedBytes == 0)
        pool.maximumRetainedCount = 4
        try pool.withBuffer(byteCount: 1000) { _ in }
        pool.removeAll()
        #expect(pool.retainedBytes == 0)
    }

    @Test func errorsFromTheBodyPassThrough() {
        let pool = ScratchBufferPool()
        #expect(throws: WebImageError.self) {
            try pool.withBuffer(byteCount: 16) { _ throws(WebImageError) in
                throw WebImageError.badImageData(.png, "test")
            }
        }
        #expect(pool.retainedBytes > 0, "the buffer came back after the throw")
    }
}
