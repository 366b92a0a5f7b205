#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of a progressive transfer as it arrives, handed out after each chunk as `Data` holding every byte so
/// far, without a copy: the bytes live in blocks that only grow at their end, and a block that is outgrown stays
/// alive as long as a snapshot of it does.
///
/// A snapshot never changes: later chunks are written past its end, or into a new block. So a decoder may keep the
/// latest snapshot while the transfer goes on, and the transfer still copies each byte about twice at most, where a
/// `Data` appended to while a snapshot of it is held would be copied whole on every chunk.
///
/// `@unchecked Sendable`: `block` and `count` are written only by ``append(_:)``, which the transfer's one thread
/// calls; a snapshot reads only bytes written before it was made, which the hand-over of the snapshot to another
/// thread orders before the read.
final class ProgressiveBody: @unchecked Sendable {
    /// One `malloc` block, freed when the body and every snapshot of it have let it go.
    private final class Block: @unchecked Sendable {
        let bytes: UnsafeMutableRawPointer
        let capacity: Int

        init?(capacity: Int) {
            guard let bytes = malloc(capacity) else { return nil }
            self.bytes = bytes
            self.capacity = capacity
        }

        deinit {
            free(bytes)
        }
    }

    private var block: Block?
    private var count = 0

    init() {}

    /// Appends `chunk` and returns every byte so far; nil when memory could not be had, which ends the snapshots.
    func append(_ chunk: UnsafeRawBufferPointer) -> Data? {
        let needed = count + chunk.count
        if needed > (block?.capacity ?? 0) {
            guard let grown = Block(capacity: max(needed, (block?.capacity ?? 0) * 2, 16_384)) else {
                block = nil
                count = 0
                return nil
            }
            if let block, count > 0 { grown.bytes.copyMemory(from: block.bytes, byteCount: count) }
            block = grown
        }
        guard let block else { return nil }
        if let source = chunk.baseAddress, !chunk.isEmpty {
            (block.bytes + count).copyMemory(from: source, byteCount: chunk.count)
        }
        count = needed
        guard count > 0 else { return Data() }
        return Data(bytesNoCopy: block.bytes, count: count, deallocator: .custom { _, _ in withExtendedLifetime(block) {} })
    }
}
