import Foundation
import WebImage

/// One line of output: what happened to one input.
struct Report: Encodable {
    struct Failure: Encodable {
        var code: String
        var number: Int
        var message: String
    }

    var file: String
    var ok: Bool
    var format: String?
    var width: Int?
    var height: Int?
    var frames: Int?
    var ms: Double?
    var loopCount: Int?
    /// How long each frame of an animation is shown, in seconds (`info`, `frames`).
    var durations: [Double]?
    var hasAlpha: Bool?
    var orientation: String?
    var megapixelsPerSecond: Double?
    var output: String?
    var bytes: Int?
    var status: Int?
    /// Where a loaded image came from: `none` (the loader; text says `network`, see ``LoadSource``), `memory` or
    /// `disk`.
    var source: String?
    var error: Failure?

    init(file: String) {
        self.file = file
        self.ok = false
    }

    /// Fills format, size and frames from a decoded image.
    mutating func describe(_ image: Image) {
        format = image.format.name
        width = image.width
        height = image.height
        frames = image.frames.count
        hasAlpha = image.hasAlpha
        if image.isAnimated { loopCount = image.loopCount }
    }

    mutating func fail(_ error: any Error) {
        ok = false
        if let error = (error as? WebImageError)?.classedAsTheToolDoes {
            self.error = Failure(code: error.code.name, number: error.code.rawValue, message: error.message)
        } else {
            self.error = Failure(code: "ioError", number: 0, message: "\(error)")
        }
    }
}
