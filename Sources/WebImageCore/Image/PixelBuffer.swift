#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A block of pixels: RGBA, 8 bits a channel, straight (not premultiplied) alpha, rows from top to bottom.
///
/// A pixel buffer owns its memory and frees it when the last reference goes. Decoders write into a new
/// buffer before they publish it; from then on it is only read, so a buffer can be shared freely between
/// threads and between images (animation frames that do not change share one buffer).
///
/// ```swift
/// let pixel = image.pixels[x: 10, y: 20]   // RGBAColor
/// image.pixels.withUnsafeBytes { bytes in upload(bytes, image.bytesPerRow) }
/// ```
public final class PixelBuffer: @unchecked Sendable {
    // Sendable because the bytes are written only by the code that allocates the buffer, before the buffer is
    // handed to anyone else (wrapped in an `Image`, returned, or sent to another thread); after that, every
    // access reads. The pointer is owned by this object and released exactly once, in `deinit`.

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from the start of one row to the start of the next, at least `width * 4`.
    public let bytesPerRow: Int

    private let base: UnsafeMutableRawPointer
    private let release: (@Sendable (UnsafeMutableRawPointer) -> Void)?

    /// The number of bytes of pixel memory: `bytesPerRow * height`.
    public var byteCount: Int { bytesPerRow * height }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Allocates an uninitialised buffer with tightly packed rows (`bytesPerRow == width * 4`).
    ///
    /// The caller must write every byte before it publishes the buffer.
    /// - Throws: `WebImageError` `imageTooLarge` when the size overflows or the memory cannot be had.
    package init(uninitializedWidth width: Int, height: Int) throws(WebImageError) {
        guard width > 0, height > 0 else {
            throw WebImageError(.imageTooLarge, "a pixel buffer of \(width) x \(height) pixels is empty")
        }
        let (rowBytes, o1) = width.multipliedReportingOverflow(by: 4)
        let (total, o2) = rowBytes.multipliedReportingOverflow(by: height)
        guard !o1, !o2, let memory = malloc(total) else {
            throw WebImageError(.imageTooLarge, "cannot allocate pixels for \(width) x \(height)")
        }
        self.width = width
        self.height = height
        self.bytesPerRow = rowBytes
        self.base = memory
        self.release = nil
    }

    /// Adopts memory that C code allocated, with the function that frees it.
    ///
    /// The memory must hold `bytesPerRow * height` bytes of RGBA pixels and must not be written after this call.
    package init(
        adopting memory: UnsafeMutableRawPointer,
        width: Int,
        height: Int,
        bytesPerRow: Int,
        release: @escaping @Sendable (UnsafeMutableRawPointer) -> Void
    ) {
        precondition(width > 0 && height > 0 && bytesPerRow >= width * 4)
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.base = memory
        self.release = release
    }

    deinit {
        if let release {
            release(base)
        } else {
            free(base)
        }
    }

    /// Creates a buffer and fills it from a closure that receives the uninitialised memory.
    ///
    /// - Parameters:
    ///   - width: Width in pixels, above zero.
    ///   - height: Height in pixels, above zero.
    ///   - fill: Called once, synchronously, with the buffer's memory (`width * 4` bytes a row); it must write
    ///     every byte. The pointer must not escape the closure.
    public convenience init(
        width: Int,
        height: Int,
        fill: (UnsafeMutableRawBufferPointer) throws(WebImageError) -> Void
    ) throws(WebImageError) {
        try self.init(uninitializedWidth: width, height: height)
        try fill(UnsafeMutableRawBufferPointer(start: base, count: byteCount))
    }

    /// Creates a buffer with every pixel set to one colour.
    public convenience init(width: Int, height: Int, color: RGBAColor) throws(WebImageError) {
        try self.init(uninitializedWidth: width, height: height)
        let value = color.packed
        let pixels = base.bindMemory(to: UInt32.self, capacity: width * height)
        pixels.initialize(repeating: value, count: width * height)
    }

    /// The memory, for writing while the buffer is still private to its creator.
    package var mutableBaseAddress: UnsafeMutableRawPointer { base }

    /// The memory, for reading.
    package var baseAddress: UnsafeRawPointer { UnsafeRawPointer(base) }

    /// Calls `body` with the pixel bytes (`bytesPerRow * height` of them).
    ///
    /// The pointer is valid only inside the closure.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: byteCount))
    }

    /// The pixel at column `x`, row `y` (both from zero, from the top left).
    public subscript(x x: Int, y y: Int) -> RGBAColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width) x \(height)")
        let p = base.advanced(by: y * bytesPerRow + x * 4).assumingMemoryBound(to: UInt8.self)
        return RGBAColor(red: p[0], green: p[1], blue: p[2], alpha: p[3])
    }

    /// Whether every pixel has alpha 255. Reads the whole buffer.
    public var isOpaque: Bool {
        for y in 0..<height {
            let row = base.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            var x = 3
            let end = width * 4
            while x < end {
                if row[x] != 255 { return false }
                x += 4
            }
        }
        return true
    }
}

extension PixelBuffer: Equatable {
    /// Two buffers are equal when they have the same size and the same pixels (row padding is ignored).
    public static func == (lhs: PixelBuffer, rhs: PixelBuffer) -> Bool {
        if lhs === rhs { return true }
        guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
        for y in 0..<lhs.height where memcmp(
            lhs.base.advanced(by: y * lhs.bytesPerRow),
            rhs.base.advanced(by: y * rhs.bytesPerRow),
            lhs.width * 4
        ) != 0 {
            return false
        }
        return true
    }
}
