#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CGIF
import WebImageCore

/// giflib's writer (`EGifOpen`) with an output callback that appends to `Data`; one open file for the span of
/// ``write(gif89:_:)``, which closes it exactly once.
struct GIFWriter: ~Copyable {
    private let file: UnsafeMutablePointer<GifFileType>
    /// Colour table entries for ``putImage(_:palette:rows:)``; giflib copies them.
    private let colors: UnsafeMutablePointer<GifColorType>

    private init(file: UnsafeMutablePointer<GifFileType>, colors: UnsafeMutablePointer<GifColorType>) {
        self.file = file
        self.colors = colors
    }

    /// Opens a writer, calls `body` with it, closes it (which writes the trailer) and returns the bytes.
    ///
    /// - Parameter gif89: Write the GIF89a signature (needed for extensions) rather than GIF87a.
    /// - Throws: `encodingFailed` when giflib fails; whatever `body` throws.
    static func write(gif89: Bool, _ body: (inout GIFWriter) throws(WebImageError) -> Void) throws(WebImageError) -> Data {
        let output = UnsafeMutablePointer<Data>.allocate(capacity: 1)
        output.initialize(to: Data())
        defer { output.deinitialize(count: 1); output.deallocate() }
        let colors = UnsafeMutablePointer<GifColorType>.allocate(capacity: 256)
        colors.initialize(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 256)
        defer { colors.deallocate() }

        var error: Int32 = 0
        guard let file = EGifOpen(output, GIFWriter.outputFunction, &error) else {
            try GIFLibrary.check(cgif_error, code: error, "opening the writer", .encoding)
            throw WebImageError(.encodingFailed, "GIF: opening the writer failed")
        }
        EGifSetGifVersion(file, gif89)
        var writer = GIFWriter(file: file, colors: colors)
        var failure: WebImageError?
        do {
            try body(&writer)
        } catch {
            failure = error
        }
        // Closing writes the trailer and frees the file, on every path.
        var closeError: Int32 = 0
        let closed = EGifCloseFile(file, &closeError)
        if let failure { throw failure }
        try GIFLibrary.check(closed, code: closeError, "finishing the file", .encoding)
        return output.pointee
    }

    /// giflib's output callback (`OutputFunc`): appends to the `Data` its file's `UserData` points to.
    private static let outputFunction: OutputFunc = { file, bytes, count in
        guard let file, let bytes, count > 0, let output = file.pointee.UserData else { return 0 }
        output.assumingMemoryBound(to: Data.self).pointee.append(bytes, count: Int(count))
        return count
    }

    /// Writes the logical screen descriptor: the canvas size, no global colour table.
    func putScreen(_ size: PixelSize) throws(WebImageError) {
        try GIFLibrary.check(
            EGifPutScreenDesc(file, Int32(size.width), Int32(size.height), 8, 0, nil),
            code: file.pointee.Error,
            "writing the logical screen descriptor",
            .encoding
        )
    }

    /// Writes the NETSCAPE2.0 application extension with a loop count (0 = forever).
    func putLoopExtension(count: Int) throws(WebImageError) {
        let identifier = Array("NETSCAPE2.0".utf8)
        let loop: [UInt8] = [1, UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8)]
        try GIFLibrary.check(EGifPutExtensionLeader(file, cgif_application_ext_func_code), code: file.pointee.Error, "writing the loop extension", .encoding)
        try GIFLibrary.check(EGifPutExtensionBlock(file, Int32(identifier.count), identifier), code: file.pointee.Error, "writing the loop extension", .encoding)
        try GIFLibrary.check(EGifPutExtensionBlock(file, Int32(loop.count), loop), code: file.pointee.Error, "writing the loop extension", .encoding)
        try GIFLibrary.check(EGifPutExtensionTrailer(file), code: file.pointee.Error, "writing the loop extension", .encoding)
    }

    /// Writes a graphic control extension.
    ///
    /// - Parameters:
    ///   - disposal: giflib's disposal mode.
    ///   - delay: The delay in centiseconds, 0 to 65535.
    ///   - transparentIndex: The transparent colour index, if any.
    func putGraphicControl(disposal: Int32, delay: Int, transparentIndex: Int?) throws(WebImageError) {
        let flags = UInt8(truncatingIfNeeded: disposal << 2) | (transparentIndex == nil ? 0 : 1)
        let block: [UInt8] = [
            flags,
            UInt8(truncatingIfNeeded: delay),
            UInt8(truncatingIfNeeded: delay >> 8),
            UInt8(truncatingIfNeeded: transparentIndex ?? 0),
        ]
        try GIFLibrary.check(
            EGifPutExtension(file, cgif_graphics_ext_func_code, Int32(block.count), block),
            code: file.pointee.Error,
            "writing a graphic control extension",
            .encoding
        )
    }

    /// Writes a full-canvas image with a local colour table; `rows(y)` gives the indices of row `y` (giflib
    /// may change them in place).
    func putImage(
        _ size: PixelSize,
        palette: GIFQuantizer.Palette,
        rows: (Int) -> UnsafeMutablePointer<UInt8>
    ) throws(WebImageError) {
        let tableSize = palette.tableSize
        colors.update(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 256)
        for (i, color) in palette.colors.enumerated() {
            colors[i] = GifColorType(Red: color.red, Green: color.green, Blue: color.blue)
        }
        var map = ColorMapObject(
            ColorCount: Int32(tableSize),
            BitsPerPixel: Int32(tableSize.trailingZeroBitCount),
            SortFlag: false,
            Colors: colors
        )
        try GIFLibrary.check(
            EGifPutImageDesc(file, 0, 0, Int32(size.width), Int32(size.height), false, &map),
            code: file.pointee.Error,
            "writing an image descriptor",
            .encoding
        )
        for y in 0..<size.height {
            try GIFLibrary.check(
                EGifPutLine(file, rows(y), Int32(size.width)),
                code: file.pointee.Error,
                "compressing row \(y)",
                .encoding
            )
        }
    }
}
