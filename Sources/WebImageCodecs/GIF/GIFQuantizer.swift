import WebImageCore

/// Chooses a colour table of at most 256 entries for one frame and maps the frame's pixels to it.
///
/// A frame with few enough colours keeps them exactly, in order of first appearance. Otherwise colours are
/// counted in a histogram of 5 bits a channel and reduced by median cut (see `GIFQuantizer+MedianCut.swift`);
/// each table entry is the mean of the colours it stands for, and every pixel maps to the entry nearest to its
/// histogram cell. There is no dithering: flat areas stay flat, gradients band. The result depends only on the
/// pixels, so encoding is deterministic.
///
/// When alpha is used, pixels with alpha under 128 map to a transparent entry after the colours, which exists
/// only when some pixel needs it; the others count as opaque.
///
/// The working memory (histogram, lookup tables) is one scratch buffer of ``scratchByteCount`` bytes.
struct GIFQuantizer {
    /// A frame's colour table.
    struct Palette {
        /// The opaque colours, at most 256 (255 with a transparent entry).
        var colors: [RGBAColor]
        /// The index of the transparent entry (`colors.count`), if the frame has transparent pixels.
        var transparentIndex: Int?
        /// Whether `colors` are the frame's exact colours (mapped through the exact table).
        var isExact: Bool

        /// Entries in the table giflib writes: a power of two, at least 2.
        var tableSize: Int {
            let used = colors.count + (transparentIndex == nil ? 0 : 1)
            var size = 2
            while size < used { size <<= 1 }
            return size
        }
    }

    /// Cells of the histogram: 5 bits of red, green and blue.
    static let cellCount = 1 << 15
    /// Slots of the exact-colour table (twice the most colours it holds).
    static let exactSlots = 512
    /// The bytes of scratch memory one quantizer needs.
    static let scratchByteCount = cellCount * (4 + 3 * 8 + 2) + exactSlots * (4 + 1)

    let counts: UnsafeMutablePointer<UInt32>
    let sums: UnsafeMutablePointer<UInt64>
    let nearest: UnsafeMutablePointer<Int16>
    private let exactKeys: UnsafeMutablePointer<UInt32>
    private let exactValues: UnsafeMutablePointer<UInt8>

    /// A quantizer working in `scratch`, which must hold ``scratchByteCount`` bytes and outlive it.
    init(scratch: UnsafeMutableRawPointer) {
        var p = scratch
        sums = p.bindMemory(to: UInt64.self, capacity: 3 * Self.cellCount)
        p += 3 * 8 * Self.cellCount
        counts = p.bindMemory(to: UInt32.self, capacity: Self.cellCount)
        p += 4 * Self.cellCount
        exactKeys = p.bindMemory(to: UInt32.self, capacity: Self.exactSlots)
        p += 4 * Self.exactSlots
        nearest = p.bindMemory(to: Int16.self, capacity: Self.cellCount)
        p += 2 * Self.cellCount
        exactValues = p.bindMemory(to: UInt8.self, capacity: Self.exactSlots)
    }

    /// Whether any pixel of `pixels` has alpha under 128.
    static func hasTransparentPixels(_ pixels: PixelBuffer) -> Bool {
        for y in 0..<pixels.height {
            let row = (pixels.baseAddress + y * pixels.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<pixels.width where row[x * 4 + 3] < 128 {
                return true
            }
        }
        return false
    }

    /// Chooses the colour table of `pixels`.
    ///
    /// - Parameter usesAlpha: Whether pixels with alpha under 128 are transparent; when false every pixel is
    ///   opaque.
    func makePalette(for pixels: PixelBuffer, usesAlpha: Bool) -> Palette {
        let transparent = usesAlpha && Self.hasTransparentPixels(pixels)
        let limit = transparent ? 255 : 256
        if let colors = exactColors(of: pixels, usesAlpha: usesAlpha, limit: limit) {
            return Palette(colors: colors, transparentIndex: transparent ? colors.count : nil, isExact: true)
        }
        let colors = medianCut(pixels, usesAlpha: usesAlpha, limit: limit)
        return Palette(colors: colors, transparentIndex: transparent ? colors.count : nil, isExact: false)
    }

    /// Writes the table indices of row `y` of `pixels` into `destination`.
    func mapRow(_ y: Int, of pixels: PixelBuffer, palette: Palette, usesAlpha: Bool, into destination: UnsafeMutablePointer<UInt8>) {
        let row = (pixels.baseAddress + y * pixels.bytesPerRow).assumingMemoryBound(to: UInt8.self)
        let transparent = UInt8(truncatingIfNeeded: palette.transparentIndex ?? 0)
        for x in 0..<pixels.width {
            let p = row + x * 4
            if usesAlpha, p[3] < 128, palette.transparentIndex != nil {
                destination[x] = transparent
            } else if palette.isExact {
                destination[x] = exactValues[slot(of: Self.key(p))]
            } else {
                destination[x] = UInt8(truncatingIfNeeded: nearestEntry(cell: Self.cell(p), colors: palette.colors))
            }
        }
    }

    // MARK: Exact colours

    /// The key of a pixel's colour in the exact table: never 0, which marks an empty slot.
    @inline(__always)
    static func key(_ p: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | 1 << 24
    }

    /// The histogram cell of a pixel's colour.
    @inline(__always)
    static func cell(_ p: UnsafePointer<UInt8>) -> Int {
        Int(p[0] >> 3) << 10 | Int(p[1] >> 3) << 5 | Int(p[2] >> 3)
    }

    /// The slot holding `key`, or the empty slot where it would go.
    @inline(__always)
    private func slot(of key: UInt32) -> Int {
        var i = Int((key &* 0x9E37_79B1) >> 23)
        while exactKeys[i] != 0, exactKeys[i] != key {
            i = (i + 1) & (Self.exactSlots - 1)
        }
        return i
    }

    /// The distinct opaque colours of `pixels` in order of first appearance, or nil when there are more than
    /// `limit`.
    private func exactColors(of pixels: PixelBuffer, usesAlpha: Bool, limit: Int) -> [RGBAColor]? {
        exactKeys.update(repeating: 0, count: Self.exactSlots)
        var colors: [RGBAColor] = []
        var lastKey: UInt32 = 0
        for y in 0..<pixels.height {
            let row = (pixels.baseAddress + y * pixels.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<pixels.width {
                let p = row + x * 4
                if usesAlpha, p[3] < 128 { continue }
                let key = Self.key(p)
                if key == lastKey { continue }
                lastKey = key
                let i = slot(of: key)
                if exactKeys[i] == key { continue }
                guard colors.count < limit else { return nil }
                exactKeys[i] = key
                exactValues[i] = UInt8(truncatingIfNeeded: colors.count)
                colors.append(RGBAColor(red: p[0], green: p[1], blue: p[2]))
            }
        }
        return colors
    }
}
