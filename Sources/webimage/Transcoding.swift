import Foundation
import WebImage

/// Decodes `file` with `options`, runs `transformer` on the image when one is given (nil from it keeps the
/// image), encodes the image as `encoding` says (or `preferred`, or the registry's choice), writes it to the path
/// `destination` gives for the chosen format, and reports what happened. `progress` shows each stage as it starts.
func transcode(
    _ file: String,
    decoding options: ImageDecodeOptions = ImageDecodeOptions(),
    transformer: (any ImageTransforming)? = nil,
    encoding: EncodeArguments,
    preferring preferred: ImageFormat? = nil,
    registry: ImageCoderRegistry,
    progress: StageProgress? = nil,
    destination: (ImageFormat) throws -> String
) -> Report {
    var report = Report(file: file)
    defer { progress?.finish() }
    let name = URL(fileURLWithPath: file).lastPathComponent
    do {
        progress?.stage("reading", of: name)
        let data = try readFile(file)
        let ((image, encoded, format), ms) = try measure {
            progress?.stage("decoding", of: name)
            let decoded = try registry.decode(data, options: options)
            if transformer != nil { progress?.stage("transforming", of: name) }
            let image = transformer.flatMap { $0.transform(image: decoded, key: file) } ?? decoded
            let format = encoding.outputFormat(for: image, registry: registry, preferring: preferred)
            progress?.stage("encoding \(format.name.uppercased())", of: name)
            return (image, try registry.encode(image, as: format, options: encoding.encodeOptions), format)
        }
        let path = try destination(format)
        progress?.stage("writing", of: name)
        try writeFile(encoded, to: path)
        report.ok = true
        report.describe(image)
        report.format = format.name
        report.ms = ms
        report.output = path
        report.bytes = encoded.count
    } catch {
        report.fail(error)
    }
    return report
}
