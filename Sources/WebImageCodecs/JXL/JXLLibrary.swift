internal import CJXL
import WebImageCore

/// The one place where libjxl's results become ``WebImageError``s.
///
/// libjxl reports a decoder status (`JxlDecoderStatus`, whose error carries no message in 0.7) and an encoder
/// status (`JxlEncoderStatus`, with a reason from `JxlEncoderGetError`). Each is described by an ``Outcome`` and
/// checked by ``check(_:while:)``.
enum JXLLibrary {
    /// What a libjxl call reported.
    enum Outcome {
        /// A decoder status.
        case decoding(JxlDecoderStatus)
        /// An encoder status, with the encoder to ask for the reason of a failure.
        case encoding(JxlEncoderStatus, OpaquePointer)
        /// A decoder result that is not an error for libjxl but is for the caller; the text says what.
        case malformed(String)
        /// A call that returned NULL because libjxl could not allocate what it needed.
        case outOfMemory
    }

    /// Returns when `outcome` is a success; throws the matching ``WebImageError`` otherwise.
    ///
    /// Decoder failures are `badImageData` ("JXL: <what went wrong> while <action>"); running out of memory is
    /// `imageTooLarge`; encoder failures are `encodingFailed`.
    ///
    /// - Parameters:
    ///   - outcome: The status a call returned.
    ///   - action: What was being done, for the message; built only on failure.
    static func check(_ outcome: Outcome, while action: @autoclosure () -> String) throws(WebImageError) {
        switch outcome {
        case .decoding(let status) where status == JXL_DEC_SUCCESS: return
        case .encoding(let status, _) where status == JXL_ENC_SUCCESS: return
        default: throw failure(outcome, while: action())
        }
    }

    /// The error for `outcome`, for a call that failed (`guard ... else { throw failure(...) }`).
    static func failure(_ outcome: Outcome, while action: String) -> WebImageError {
        switch outcome {
        case .decoding(let status):
            return .badImageData(.jpegxl, "\(describe(status)) while \(action)")
        case .encoding(let status, let encoder):
            let reason = status == JXL_ENC_SUCCESS ? "the encoder failed" : describe(JxlEncoderGetError(encoder))
            return WebImageError(.encodingFailed, "JXL: \(reason) while \(action)")
        case .malformed(let what):
            return .badImageData(.jpegxl, "\(what) while \(action)")
        case .outOfMemory:
            return WebImageError(.imageTooLarge, "JXL: libjxl could not allocate memory while \(action)")
        }
    }

    /// A readable account of a decoder status that is not the one the caller waited for.
    private static func describe(_ status: JxlDecoderStatus) -> String {
        switch status {
        case JXL_DEC_ERROR: "the codestream is malformed or uses a feature libjxl does not support"
        case JXL_DEC_NEED_MORE_INPUT: "the data is truncated"
        case JXL_DEC_SUCCESS: "the data ends before the frame"
        default: "libjxl returned the unexpected status \(status.rawValue)"
        }
    }

    /// A readable account of an encoder error.
    private static func describe(_ error: JxlEncoderError) -> String {
        switch error {
        case JXL_ENC_ERR_OK: "the encoder failed without saying why"
        case JXL_ENC_ERR_OOM: "libjxl ran out of memory"
        case JXL_ENC_ERR_BAD_INPUT: "the input is invalid"
        case JXL_ENC_ERR_NOT_SUPPORTED: "the encoder does not support this"
        case JXL_ENC_ERR_API_USAGE: "libjxl's encoder was used in a way it refuses"
        default: "libjxl's encoder failed with error \(error.rawValue)"
        }
    }
}
