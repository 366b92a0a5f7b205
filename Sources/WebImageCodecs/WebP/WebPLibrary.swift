internal import CWebP
import WebImageCore

/// The one place where libwebp's results become ``WebImageError``s.
///
/// libwebp reports failures in four ways: the decoder's `VP8StatusCode`, the encoder's `WebPEncodingError`
/// (left in `WebPPicture.error_code`), the muxer's `WebPMuxError`, and functions that only return false or NULL
/// (the demuxer, the animation decoder and encoder, initialisers). Each is described by an ``Outcome`` and
/// checked by ``check(_:while:)``.
enum WebPLibrary {
    /// What a libwebp call reported.
    enum Outcome {
        /// A decoder status.
        case decoding(VP8StatusCode)
        /// An encoder status, from `WebPPicture.error_code`.
        case encoding(WebPEncodingError)
        /// A muxer status.
        case muxing(WebPMuxError)
        /// An encoder call that returned false or NULL, with what went wrong (the animation encoder's own text
        /// from `WebPAnimEncoderGetError` where it has one).
        case encoderFailed(String)
        /// A decoder call that returned false or NULL on the data; the text says what was malformed.
        case malformed(String)
        /// A call that returned NULL because libwebp could not allocate what it needed.
        case outOfMemory
    }

    /// Returns when `outcome` is a success; throws the matching ``WebImageError`` otherwise.
    ///
    /// Decoder failures are `badImageData` ("WEBP: <what libwebp said> while <action>"); running out of memory is
    /// `imageTooLarge`; encoder and muxer failures are `encodingFailed`.
    ///
    /// - Parameters:
    ///   - outcome: The status a call returned.
    ///   - action: What was being done, for the message ("decoding the image", "adding frame 3"); built only
    ///     on failure.
    static func check(_ outcome: Outcome, while action: @autoclosure () -> String) throws(WebImageError) {
        switch outcome {
        case .decoding(let status) where status == VP8_STATUS_OK: return
        case .encoding(let error) where error == VP8_ENC_OK: return
        case .muxing(let error) where error == WEBP_MUX_OK: return
        default: break
        }
        if let error = error(for: outcome, while: action()) { throw error }
    }

    /// The error for a call that failed without a status (it returned false or NULL), for `guard ... else`.
    static func failure(_ outcome: Outcome, while action: String) -> WebImageError {
        error(for: outcome, while: action)
            ?? WebImageError(.badImageData, "WEBP: libwebp failed without saying why while \(action)")
    }

    private static func error(for outcome: Outcome, while action: String) -> WebImageError? {
        switch outcome {
        case .decoding(let status):
            if status == VP8_STATUS_OK { return nil }
            if status == VP8_STATUS_OUT_OF_MEMORY {
                return WebImageError(.imageTooLarge, "WEBP: libwebp ran out of memory while \(action)")
            }
            return .badImageData(.webp, "\(describe(status)) while \(action)")
        case .encoding(let error):
            if error == VP8_ENC_OK { return nil }
            return WebImageError(.encodingFailed, "WEBP: \(describe(error)) while \(action)")
        case .muxing(let error):
            if error == WEBP_MUX_OK { return nil }
            return WebImageError(.encodingFailed, "WEBP: \(describe(error)) while \(action)")
        case .encoderFailed(let text):
            let detail = text.isEmpty ? "the encoder failed" : text
            return WebImageError(.encodingFailed, "WEBP: \(detail) while \(action)")
        case .malformed(let what):
            return .badImageData(.webp, "\(what) while \(action)")
        case .outOfMemory:
            return WebImageError(.imageTooLarge, "WEBP: libwebp could not allocate memory while \(action)")
        }
    }

    /// A readable account of a decoder status.
    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_INVALID_PARAM: "libwebp was given an invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "the bitstream is malformed"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "the data uses a feature libwebp does not support"
        case VP8_STATUS_SUSPENDED, VP8_STATUS_NOT_ENOUGH_DATA: "the data is truncated"
        case VP8_STATUS_USER_ABORT: "decoding was aborted"
        default: "libwebp failed with status \(status.rawValue)"
        }
    }

    /// A readable account of an encoder status.
    private static func describe(_ error: WebPEncodingError) -> String {
        switch error {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "libwebp ran out of memory"
        case VP8_ENC_ERROR_NULL_PARAMETER: "libwebp was given a null parameter"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: "the encoder configuration is invalid"
        case VP8_ENC_ERROR_BAD_DIMENSION: "the picture's width or height is invalid (at most 16383)"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW: "the first partition is larger than 512 KiB"
        case VP8_ENC_ERROR_PARTITION_OVERFLOW: "a partition is larger than 16 MiB"
        case VP8_ENC_ERROR_BAD_WRITE: "the encoded bytes could not be written"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "the file would be larger than 4 GiB"
        case VP8_ENC_ERROR_USER_ABORT: "encoding was aborted"
        default: "libwebp's encoder failed with status \(error.rawValue)"
        }
    }

    /// A readable account of a muxer status.
    private static func describe(_ error: WebPMuxError) -> String {
        switch error {
        case WEBP_MUX_INVALID_ARGUMENT: "libwebp's muxer was given an invalid argument"
        case WEBP_MUX_BAD_DATA: "libwebp's muxer was given malformed data"
        case WEBP_MUX_MEMORY_ERROR: "libwebp ran out of memory"
        default: "libwebp's muxer failed with status \(error.rawValue)"
        }
    }
}
