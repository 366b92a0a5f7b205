import CHiredis
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Redis reply, copied out of hiredis's reply object. An error reply is not a case: it becomes a
/// ``RedisError`` of kind ``RedisError/Kind/server``.
package enum RedisReply: Sendable, Equatable {
    /// A bulk string: bytes, which may hold any value, zero bytes included.
    case bulk(Data)
    /// A status line, such as `OK` or `PONG`.
    case status(String)
    /// An integer.
    case integer(Int64)
    /// No value: a missing key, or a SET whose condition did not hold.
    case null
    /// An array of replies.
    case array([RedisReply])

    /// Copies `reply`, which stays hiredis's to free. An error reply, or a type this library does not know,
    /// throws.
    init(copying reply: UnsafePointer<redisReply>) throws(RedisError) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            if let bytes = value.str, value.len > 0 {
                self = .bulk(Data(bytes: bytes, count: value.len))
            } else {
                self = .bulk(Data())
            }
        case REDIS_REPLY_STATUS:
            self = .status(RedisReply.text(value.str, count: value.len))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int64(value.integer))
        case REDIS_REPLY_NIL:
            self = .null
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(value.elements)
            for index in 0..<value.elements {
                guard let element = value.element?[index] else {
                    throw RedisError(.protocolError, "an array reply has a missing element")
                }
                elements.append(try RedisReply(copying: element))
            }
            self = .array(elements)
        case REDIS_REPLY_ERROR:
            throw RedisError(.server, RedisReply.text(value.str, count: value.len))
        default:
            throw RedisError(.protocolError, "a reply of unknown type \(value.type)")
        }
    }

    /// The UTF-8 text of `count` bytes at `bytes`.
    private static func text(_ bytes: UnsafeMutablePointer<CChar>?, count: Int) -> String {
        guard let bytes, count > 0 else { return "" }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: count) { start in
            String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        }
    }
}
