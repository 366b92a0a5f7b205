internal import CAVIF
import WebImageCore

/// The one place where libavif's results become ``WebImageError``s.
///
/// libavif reports every failure as an `avifResult`, and the decoder and encoder add a sentence of their own in
/// their `avifDiagnostics` (which box was malformed, what the AV1 codec said). ``check(_:diagnostics:while:)``
/// turns both into one error.
enum AVIFLibrary {
    /// Which side of libavif a call was on, for the error code: decoding failures are the data's fault,
    /// encoding failures the encoder's.
    enum Side {
        case decoding
        case encoding
    }

    /// Returns when `result` is `AVIF_RESULT_OK`; throws the matching ``WebImageError`` otherwise.
    ///
    /// Decoding failures are `badImageData` ("AVIF: <libavif's text>: <its diagnostics> while <action>");
    /// running out of memory is `imageTooLarge`; encoding failures are `encodingFailed`.
    ///
    /// - Parameters:
    ///   - result: What the call returned.
    ///   - side: Whether the call decoded or encoded.
    ///   - diagnostics: The decoder's or encoder's detailed error text, read only on failure.
    ///   - action: What was being done, for the message; built only on failure.
    static func check(
        _ result: avifResult,
        _ side: Side,
        diagnostics: @autoclosure () -> String = "",
        while action: @autoclosure () -> String
    ) throws(WebImageError) {
        guard result != AVIF_RESULT_OK else { return }
        throw error(for: result, side, diagnostics: diagnostics(), while: action())
    }

    /// The error for a failed `result`.
    static func error(for result: avifResult, _ side: Side, diagnostics: String, while action: String) -> WebImageError {
        var text = describe(result)
        if !diagnostics.isEmpty { text += ": \(diagnostics)" }
        if result == AVIF_RESULT_OUT_OF_MEMORY {
            return WebImageError(.imageTooLarge, "AVIF: \(text) while \(action)")
        }
        switch side {
        case .decoding:
            return .badImageData(.avif, "\(text) while \(action)")
        case .encoding:
            return WebImageError(.encodingFailed, "AVIF: \(text) while \(action)")
        }
    }

    /// libavif's own name for `result` ("BMFF parsing failed", "Truncated data").
    static func describe(_ result: avifResult) -> String {
        guard let name = avifResultToString(result) else { return "libavif failed with result \(result.rawValue)" }
        return String(cString: name)
    }

    /// The text of a decoder's or encoder's diagnostics, empty when it has none.
    static func text(of diagnostics: avifDiagnostics) -> String {
        withUnsafeBytes(of: diagnostics.error) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
