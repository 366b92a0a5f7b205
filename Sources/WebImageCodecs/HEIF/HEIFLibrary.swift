internal import CHEIF
import WebImageCore

/// The one place where libheif's results become ``WebImageError``s, and where libheif is initialised.
///
/// libheif reports every failure as a `heif_error`: a code, a subcode and a message that is always set. Calls
/// that return a pointer and no error (allocators) are checked with ``failure(_:while:format:)``.
enum HEIFLibrary {
    /// What a call was part of, which decides the error a failure becomes.
    enum Stage {
        /// Reading the file or decoding its pixels: malformed data is `badImageData`.
        case decoding
        /// Encoding: failures are `encodingFailed`.
        case encoding
    }

    /// `heif_init` runs once, before the first context, so that libheif registers its decoders and encoders
    /// (and any plugins of its plugin directory) exactly once, however many threads start decoding together.
    /// libheif counts `heif_init` calls; the matching `heif_deinit` is never called, which keeps the plugins
    /// for the life of the process.
    static let isInitialised: Bool = {
        heif_init(nil).code == heif_error_Ok
    }()

    /// Returns when `error` is a success; throws the matching ``WebImageError`` otherwise.
    ///
    /// Memory errors (including libheif's security limits, which refuse absurd sizes read from the file) are
    /// `imageTooLarge`; while decoding, everything else is `badImageData` ("HEIC: <libheif's message> while
    /// <action>"); while encoding, `encodingFailed`.
    ///
    /// - Parameters:
    ///   - error: What the call returned.
    ///   - stage: Decoding or encoding.
    ///   - format: Named in the message (`.heic` or `.heif`).
    ///   - action: What was being done, for the message; built only on failure.
    static func check(
        _ error: heif_error,
        _ stage: Stage,
        format: ImageFormat,
        while action: @autoclosure () -> String
    ) throws(WebImageError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? ""
        let text = message.isEmpty || message == "Success"
            ? "libheif failed with code \(error.code.rawValue).\(error.subcode.rawValue)"
            : message
        throw self.error(code: error.code, text: text, stage, format: format, while: action())
    }

    /// The error for a call that failed without a `heif_error` (it returned NULL or an impossible value).
    static func failure(_ what: String, _ stage: Stage, format: ImageFormat, while action: String) -> WebImageError {
        error(code: heif_error_Invalid_input, text: what, stage, format: format, while: action)
    }

    private static func error(
        code: heif_error_code,
        text: String,
        _ stage: Stage,
        format: ImageFormat,
        while action: String
    ) -> WebImageError {
        let name = format.name.uppercased()
        if code == heif_error_Memory_allocation_error {
            return WebImageError(.imageTooLarge, "\(name): \(text) while \(action)")
        }
        switch stage {
        case .decoding:
            return .badImageData(format, "\(text) while \(action)")
        case .encoding:
            return WebImageError(.encodingFailed, "\(name): \(text) while \(action)")
        }
    }
}
