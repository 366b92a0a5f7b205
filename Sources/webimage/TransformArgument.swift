import ArgumentParser
import Foundation
import WebImage

/// `--transform CHAIN`: a chain of the built-in transformers, written as comma-separated steps applied in order.
///
/// ```
/// --transform 'resize=256x256:cover,round=16:border=2:#ffffff,blur=2'
/// ```
///
/// The grammar, one line per step (sizes and radii in points, which are pixels for the tool's images; numbers are
/// decimal, like `12` or `2.5`; a colour is `#RRGGBB` or `#RRGGBBAA`, the `#` optional):
///
/// ```
/// CHAIN  = STEP ("," STEP)*
/// STEP   = resize=WxH[:fill|fit|cover]         ImageTransformers.Resize; fill (stretch, the default as in
///                                              SDWebImage), fit (aspectFit), cover (aspectFill);
///                                              aspect-fit and aspect-fill are accepted too
///        | crop=WxH[+X+Y]                      ImageTransformers.Crop; the offset defaults to +0+0
///        | flip=h|v|hv                         ImageTransformers.Flip: horizontal, vertical or both
///        | rotate=DEGREES[:fit]                ImageTransformers.Rotate, counter-clockwise (negative turns
///                                              clockwise); fit grows the canvas to hold the turned image
///        | round=RADIUS[:CORNERS][:border=W[:COLOR]]
///                                              ImageTransformers.RoundCorner; CORNERS is all (the default) or
///                                              tl, tr, bl, br joined with +; without COLOR the image is inset by
///                                              W and no line is drawn, as SDWebImage with no border colour
///        | tint=COLOR[:MODE]                   ImageTransformers.Tint; MODE is one of the supported blend modes
///                                              in kebab case (source-in, the default, normal, multiply, ...)
///        | blur=RADIUS                         ImageTransformers.Blur; a radius below 1 keeps the image
///        | gray                                ImageTransformers.Grayscale (also grayscale)
/// ```
///
/// Numbers are at most 100000000 (either way for the angle), the longest side an image within the default pixel
/// limit can have, and a resize canvas at most 100 megapixels (``ImageTransformers/maxResultPixelCount``): larger
/// values can only mean a mistake, and a transformer asked for more would keep the image as it was.
///
/// One step becomes that transformer; several become an ``ImageTransformers/Pipeline``, so ``transformer``'s
/// `transformerKey` is SDWebImage's key for the same chain. A chain that does not parse throws a
/// `ValidationError` naming the step (its position and text) and what is wrong with it; the commands declare the
/// option with `@Option(transform: { try TransformArgument(chain: $0) })` so that this message reaches the user
/// (``init(argument:)`` can only say nil), as a usage error with ArgumentParser's validation exit code.
struct TransformArgument: ExpressibleByArgument, Sendable {
    /// The option's help: a summary and the grammar.
    static let help = ArgumentHelp(
        "Transformers to apply, as comma-separated steps run in order, e.g. 'resize=256x256:cover,round=16,blur=2'.",
        discussion: """
            Steps: resize=WxH[:fill|fit|cover] (fill stretches and is the default; fit and cover keep the aspect \
            ratio, inside or covering), crop=WxH[+X+Y], flip=h|v|hv, rotate=DEGREES[:fit] (counter-clockwise; fit \
            grows the canvas), round=RADIUS[:CORNERS][:border=W[:COLOR]] (CORNERS: all, or tl, tr, bl, br joined \
            with +), tint=COLOR[:MODE] (MODE: \(modeNames.keys.sorted().joined(separator: ", ")); default \
            source-in), blur=RADIUS, gray. Sizes and radii are in points, numbers at most \(Int(maxNumber)) and a \
            resize at most \(ImageTransformers.maxResultPixelCount) pixels; COLOR is #RRGGBB or #RRGGBBAA.
            """,
        valueName: "chain"
    )

    /// The steps, in order.
    let steps: [any ImageTransforming]

    /// The chain as one transformer: the step itself for one step, a pipeline for several.
    var transformer: any ImageTransforming {
        steps.count == 1 ? steps[0] : ImageTransformers.Pipeline(steps)
    }

    /// Parses a chain.
    ///
    /// - Throws: A `ValidationError` naming the first bad step, as `step N 'TEXT': reason`.
    init(chain: String) throws(ValidationError) {
        let texts = chain.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard texts.contains(where: { !$0.isEmpty }) else { throw ValidationError("the chain is empty") }
        var steps: [any ImageTransforming] = []
        for (index, text) in texts.enumerated() {
            do {
                steps.append(try Self.step(text))
            } catch {
                throw ValidationError("step \(index + 1) '\(text)': \(error.reason)")
            }
        }
        self.steps = steps
    }

    init?(argument: String) {
        try? self.init(chain: argument)
    }

    static var defaultValueDescription: String { "none" }

    // MARK: Steps

    /// Why a step does not parse.
    private struct StepError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The names of the supported blend modes: each case name in kebab case (`sourceIn` is `source-in`).
    private static let modeNames: [String: ImageTransformers.Tint.BlendMode] = Dictionary(
        uniqueKeysWithValues: ImageTransformers.Tint.BlendMode.allCases.filter(\.isSupported).map { mode in
            (String(describing: mode).reduce(into: "") { name, c in name += c.isUppercase ? "-" + c.lowercased() : String(c) }, mode)
        }
    )

    private static let scaleModes: [String: ImageTransformers.Resize.ScaleMode] = [
        "fill": .fill, "fit": .aspectFit, "aspect-fit": .aspectFit, "cover": .aspectFill, "aspect-fill": .aspectFill,
    ]

    private static let cornerNames: [String: ImageTransformers.RoundCorner.Corners] = [
        "all": .all, "tl": .topLeft, "tr": .topRight, "bl": .bottomLeft, "br": .bottomRight,
    ]

    private static func step(_ text: String) throws(StepError) -> any ImageTransforming {
        guard !text.isEmpty else { throw StepError("the step is empty") }
        let name: String
        let value: String?
        if let equals = text.firstIndex(of: "=") {
            name = String(text[..<equals])
            value = String(text[text.index(after: equals)...])
        } else {
            name = text
            value = nil
        }
        if name == "gray" || name == "grayscale" {
            guard value == nil else { throw StepError("\(name) takes no value") }
            return ImageTransformers.Grayscale()
        }
        let known = ["resize", "crop", "flip", "rotate", "round", "tint", "blur"]
        guard known.contains(name) else {
            throw StepError("unknown step '\(name)'; use \(known.joined(separator: ", ")) or gray")
        }
        guard let value, !value.isEmpty else { throw StepError("\(name) needs a value, as \(name)=...") }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch name {
        case "resize": return try resize(parts)
        case "crop": return try crop(parts)
        case "flip": return try flip(parts)
        case "rotate": return try rotate(parts)
        case "round": return try round(parts)
        case "tint": return try tint(parts)
        default: return try blur(parts)
        }
    }

    /// `WxH[:fill|fit|cover]`, at most ``ImageTransformers/maxResultPixelCount`` pixels.
    private static func resize(_ parts: [String]) throws(StepError) -> any ImageTransforming {
        guard parts.count <= 2 else { throw StepError("resize is WxH[:fill|fit|cover]") }
        let (width, height) = try size(parts[0])
        guard width * height <= Double(ImageTransformers.maxResultPixelCount) else {
            throw StepError("the size '\(parts[0])' is over the limit of \(ImageTransformers.maxResultPixelCount) pixels")
        }
        var mode = ImageTransformers.Resize.ScaleMode.fill
        if parts.count == 2 {
            guard let named = scaleModes[parts[1]] else { throw StepError("unknown resize mode '\(parts[1])'; use fill, fit or cover") }
            mode = named
        }
        return ImageTransformers.Resize(width: width, height: height, scaleMode: mode)
    }

    /// `WxH[+X+Y]`.
    private static func crop(_ parts: [String]) throws(StepError) -> any ImageTransforming {
        let pieces = parts[0].split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 1, pieces.count == 1 || pieces.count == 3 else { throw StepError("crop is WxH[+X+Y]") }
        let (width, height) = try size(pieces[0])
        let x = pieces.count == 3 ? try number(pieces[1], "the x offset") : 0
        let y = pieces.count == 3 ? try number(pieces[2], "the y offset") : 0
        return ImageTransformers.Crop(x: x, y: y, width: width, height: height)
    }

    /// `h`, `v` or `hv`.
    private static func flip(_ parts: [String]) throws(StepError) -> any ImageTransforming {
        switch parts {
        case ["h"]: return ImageTransformers.Flip(horizontal: true)
        case ["v"]: return ImageTransformers.Flip(horizontal: false, vertical: true)
        case ["hv"], ["vh"]: return ImageTransformers.Flip(horizontal: true, vertical: true)
        default: throw StepError("flip is h, v or hv")
        }
    }

    /// `DEGREES[:fit]`.
    private static func rotate(_ parts: [String]) throws(StepError) -> any ImageTransforming {
        guard parts.count == 1 || parts == [parts[0], "fit"] else { throw StepError("rotate is DEGREES[:fit]") }
        let degrees = try number(parts[0], "the angle", allowsNegative: true)
        return ImageTransformers.Rotate(angle: degrees * .pi / 180, fitSize: parts.count == 2)
    }

    /// `RADIUS[:CORNERS][:border=W[:COLOR]]`.
    private static func round(_ parts: [String]) throws(StepError) -> any ImageTransforming {
        let radius = try number(parts[0], "the radius")
        var corners: ImageTransformers.RoundCorner.Corners?
        var borderWidth: Double?
        var borderColor: RGBAColor?
        for part in parts.dropFirst() {
            if part.hasPrefix("border=") {
                guard borderWidth == nil else { throw StepError("border is given twice") }
                borderWidth = try number(String(part.dropFirst("border=".count)), "the border width")
            } else if borderWidth != nil {
                guard borderColor == nil else { throw StepError("round is RADIUS[:CORNERS][:border=W[:COLOR]]") }
                borderColor = try color(part)
            } else {
                guard corners == nil else { throw StepError("round is RADIUS[:CORNERS][:border=W[:COLOR]]") }
                corners = try cornerSet(part)
            }
        }
        return ImageTransformers.RoundCorner(
            radius: radius, corners: corners ?? .all, borderWidth: borderWidth ?? 0, borderColor: borderColor
        )
    }

    /// `all`, or corner names joined with `+`.
    private static func cornerSet(_ text: String) throws(StepError) -> ImageTransformers.RoundCorner.Corners {
        var corners: ImageTransformers.RoundCorner.Corners = []
        for name in text.split(separator: "+", omittingEmptySubsequences: false) {
            guard let corner = cornerNames[String(name)] else {
                throw StepError("unknown corner '\(name)'; use all, or tl, tr, bl, br joined with +, or border=W")
            }
            corners.formUnion(corner)
        }
        return corners
    }

    /// `COLOR[:MODE]`.
    private static func tint(_ parts: [String]) throws(StepError) -> any ImageTransforming {
        guard parts.count <= 2 else { throw StepError("tint is COLOR[:MODE]") }
        let tint = try color(parts[0])
        var mode = ImageTransformers.Tint.BlendMode.sourceIn
        if parts.count == 2 {
            guard let named = modeNames[parts[1]] else {
                throw StepError("unknown blend mode '\(parts[1])'; use \(modeNames.keys.sorted().joined(separator: ", "))")
            }
            mode = named
        }
        return ImageTransformers.Tint(color: tint, blendMode: mode)
    }

    /// `RADIUS`.
    private static func blur(_ parts: [String]) throws(StepError) -> any ImageTransforming {
        guard parts.count == 1 else { throw StepError("blur is RADIUS") }
        return ImageTransformers.Blur(radius: try number(parts[0], "the radius"))
    }

    // MARK: Values

    /// `WxH`, both above 0.
    private static func size(_ text: String) throws(StepError) -> (Double, Double) {
        let sides = text.split(separator: "x", omittingEmptySubsequences: false).map(String.init)
        guard sides.count == 2 else { throw StepError("'\(text)' is not WxH") }
        let width = try number(sides[0], "the width")
        let height = try number(sides[1], "the height")
        guard width > 0, height > 0 else { throw StepError("the size '\(text)' must be more than 0 on both sides") }
        return (width, height)
    }

    /// The largest number a step takes, either way: the longest side an image within the default pixel limit can
    /// have. Sizes, offsets, radii and angles beyond it mean nothing.
    static let maxNumber = Double(ImageDecodeOptions.defaultMaxPixelCount)

    /// A decimal number (digits with at most one point), 0 or more unless `allowsNegative`, at most ``maxNumber``
    /// either way.
    private static func number(_ text: String, _ what: String, allowsNegative: Bool = false) throws(StepError) -> Double {
        let digits = allowsNegative && text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard digits.contains(where: { ("0"..."9").contains($0) }),
              digits.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }),
              digits.filter({ $0 == "." }).count <= 1,
              let value = Double(text), value.isFinite
        else {
            throw StepError("\(what) '\(text)' is not a\(allowsNegative ? "" : " non-negative") number")
        }
        guard value.magnitude <= maxNumber else {
            throw StepError("\(what) '\(text)' is too large; the limit is \(Int(maxNumber))")
        }
        return value
    }

    /// `#RRGGBB` or `#RRGGBBAA`, the `#` optional.
    private static func color(_ text: String) throws(StepError) -> RGBAColor {
        let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else {
            throw StepError("the colour '\(text)' is not #RRGGBB or #RRGGBBAA")
        }
        let rgba = hex.count == 6 ? value << 8 | 0xff : value
        return RGBAColor(
            red: UInt8(truncatingIfNeeded: rgba >> 24),
            green: UInt8(truncatingIfNeeded: rgba >> 16),
            blue: UInt8(truncatingIfNeeded: rgba >> 8),
            alpha: UInt8(truncatingIfNeeded: rgba)
        )
    }
}
