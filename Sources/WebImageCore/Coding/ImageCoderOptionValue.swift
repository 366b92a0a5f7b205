#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The value of a custom coder option, for a coder of your own: what SDWebImage's `SDImageCoderOptions` carry
/// under keys that are not its own. Set it in ``ImageDecodeOptions/custom`` and give the options to a load through
/// ``ImageContext/decodeOptions``; the coder reads it from the options it is handed.
public enum ImageCoderOptionValue: Sendable, Hashable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case data(Data)
}
