import WebImageCore

/// The sizes libheif 1.15 allocates when it decodes, read from the boxes because its API does not report them.
///
/// libheif reports an image's size from its `ispe` property, but allocates:
/// - for a grid (`grid`) or overlay (`iovl`) image, a canvas of the size its own descriptor gives, which a
///   hostile file sets far above `ispe` (a 600-byte file made libheif allocate 1.2 GB);
/// - for each coded (`hvc1`) image, the HEVC decoder's pictures at the size of the last sequence parameter set
///   it reads, from the `hvcC` property or from the image's own data.
///
/// The scan reads `pitm`, `iinf`, `iloc`, `idat`, `iprp`/`ipco`/`ipma` of the top-level `meta` box, and walks
/// the NAL units of each coded image's data for parameter sets (their length fields only). Where a descriptor
/// or parameter set libheif would use cannot be read, the scan says so (``isComplete``), and decoding refuses the
/// file rather than decode it without a bound.
struct HEIFItemSizes {
    /// The canvas of each grid and overlay image, by item ID.
    private(set) var canvases: [UInt32: PixelSize] = [:]
    /// The largest picture the parameter sets of each coded image declare, by item ID.
    private var pictures: [UInt32: PixelSize] = [:]
    /// The images each image is derived from (`dimg`: a grid's tiles), by item ID.
    private var sources: [UInt32: [UInt32]] = [:]
    /// The auxiliary images (alpha, depth) of each image, decoded with it (`auxl`, reversed), by item ID.
    private var auxiliaries: [UInt32: [UInt32]] = [:]
    /// False when a derived image's descriptor, or the data of a coded image, lies outside the file or cannot be
    /// read.
    private(set) var isComplete = true

    /// The largest picture the HEVC decoder is given while decoding item `id`: its own, its tiles', and those of
    /// its auxiliary images and their tiles; nil when none declares one.
    func largestCodedPicture(of id: UInt32) -> PixelSize? {
        var largest: PixelSize?
        var visited: Set<UInt32> = []
        var pending = [id]
        while let item = pending.popLast() {
            guard visited.insert(item).inserted else { continue }
            if let picture = pictures[item], picture.pixelCount > largest?.pixelCount ?? 0 {
                largest = picture
            }
            pending += sources[item] ?? []
            pending += auxiliaries[item] ?? []
        }
        return largest
    }

    /// Whether decoding item `id` meets an image again while decoding it: a tile or an auxiliary image that is,
    /// through its own tiles and auxiliary images, the image itself or one of those it is made of. libheif 1.15
    /// follows such a cycle until its stack overflows.
    func hasReferenceCycle(from id: UInt32) -> Bool {
        // Depth-first, with the items on the current path and those known to lead to no cycle.
        var onPath: Set<UInt32> = []
        var done: Set<UInt32> = []
        var stack: [(item: UInt32, next: [UInt32])] = [(id, (sources[id] ?? []) + (auxiliaries[id] ?? []))]
        onPath.insert(id)
        while !stack.isEmpty {
            guard let child = stack[stack.count - 1].next.popLast() else {
                let finished = stack.removeLast().item
                onPath.remove(finished)
                done.insert(finished)
                continue
            }
            if onPath.contains(child) { return true }
            guard !done.contains(child) else { continue }
            onPath.insert(child)
            stack.append((child, (sources[child] ?? []) + (auxiliaries[child] ?? [])))
        }
        return false
    }

    /// The size libheif allocates for the whole of item `id`'s image: its canvas for a grid or overlay, else
    /// `declared` (its `ispe` size).
    func canvas(of id: UInt32, declared: PixelSize) -> PixelSize {
        canvases[id] ?? declared
    }

    /// Scans the file in `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        var top = HEIFByteCursor(bytes, range: 0..<bytes.count)
        while let box = top.nextBox() {
            if box.type == HEIFByteCursor.type("meta") {
                scanMeta(bytes, box.payload)
                return
            }
        }
    }

    private struct Extent {
        var offset: Int
        var length: Int
    }

    private struct Location {
        var inItemData: Bool
        var extents: [Extent]
    }

    private mutating func scanMeta(_ bytes: UnsafeRawBufferPointer, _ payload: Range<Int>) {
        var meta = HEIFByteCursor(bytes, range: payload)
        guard meta.readFullBoxVersion() != nil else { return }
        var types: [UInt32: UInt32] = [:]
        var locations: [UInt32: Location] = [:]
        var itemData: Range<Int>?
        var properties: [Range<Int>?] = []
        var associations: [UInt32: [Int]] = [:]
        while let box = meta.nextBox() {
            switch box.type {
            case HEIFByteCursor.type("iinf"): Self.readItemTypes(bytes, box.payload, into: &types)
            case HEIFByteCursor.type("iloc"): Self.readLocations(bytes, box.payload, into: &locations)
            case HEIFByteCursor.type("idat"): itemData = box.payload
            case HEIFByteCursor.type("iprp"): Self.readProperties(bytes, box.payload, into: &properties, &associations)
            case HEIFByteCursor.type("iref"): readReferences(bytes, box.payload)
            default: break
            }
        }

        let grid = HEIFByteCursor.type("grid")
        let overlay = HEIFByteCursor.type("iovl")
        let coded = HEIFByteCursor.type("hvc1")
        for (id, type) in types.sorted(by: { $0.key < $1.key }) where type == grid || type == overlay || type == coded {
            let lengthSize = type == coded ? scanParameterSets(bytes, properties: properties, of: associations[id] ?? [], item: id) : 0
            let read = locations[id].map { location in
                Self.withData(of: location, in: bytes, itemData: itemData) { data in
                    if type == coded {
                        // libheif 1.15 hands the decoder NAL units after 4-byte lengths, whatever `hvcC` says.
                        scanCodedData(data, lengthSize: 4, of: id)
                        if lengthSize != 4 { scanCodedData(data, lengthSize: lengthSize, of: id) }
                    } else if let size = Self.canvas(data, isGrid: type == grid) {
                        canvases[id] = size
                    } else {
                        isComplete = false
                    }
                }
            }
            if read != true { isComplete = false }
        }
    }

    /// `infe` entries of versions 2 and 3 (the ones with an item type).
    private static func readItemTypes(_ bytes: UnsafeRawBufferPointer, _ payload: Range<Int>, into types: inout [UInt32: UInt32]) {
        var cursor = HEIFByteCursor(bytes, range: payload)
        guard let version = cursor.readFullBoxVersion(), cursor.skip(version == 0 ? 2 : 4) else { return }
        while let box = cursor.nextBox() {
            guard box.type == HEIFByteCursor.type("infe") else { continue }
            var entry = HEIFByteCursor(bytes, range: box.payload)
            guard let entryVersion = entry.readFullBoxVersion(), entryVersion >= 2,
                  let id = entry.read(entryVersion == 2 ? 2 : 4), entry.skip(2),
                  let type = entry.read(4) else { continue }
            types[UInt32(truncatingIfNeeded: id)] = UInt32(type)
        }
    }

    /// `iloc`, versions 0 to 2.
    private static func readLocations(_ bytes: UnsafeRawBufferPointer, _ payload: Range<Int>, into locations: inout [UInt32: Location]) {
        var cursor = HEIFByteCursor(bytes, range: payload)
        guard let version = cursor.readFullBoxVersion(), version <= 2,
              let sizes = cursor.read(2) else { return }
        let offsetSize = Int(sizes >> 12 & 0xF)
        let lengthSize = Int(sizes >> 8 & 0xF)
        let baseOffsetSize = Int(sizes >> 4 & 0xF)
        let indexSize = version >= 1 ? Int(sizes & 0xF) : 0
        guard let count = cursor.readInt(version < 2 ? 2 : 4) else { return }
        for _ in 0..<count {
            guard let id = cursor.read(version < 2 ? 2 : 4) else { return }
            var method = 0
            if version >= 1 {
                guard let field = cursor.readInt(2) else { return }
                method = field & 0xF
            }
            guard cursor.skip(2), let base = cursor.readInt(baseOffsetSize),
                  let extentCount = cursor.readInt(2) else { return }
            var extents: [Extent] = []
            for _ in 0..<extentCount {
                guard cursor.skip(indexSize), let offset = cursor.readInt(offsetSize),
                      let length = cursor.readInt(lengthSize) else { return }
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow else { return }
                extents.append(Extent(offset: start, length: length))
            }
            // Construction method 0 is the file, 1 the `idat` box; 2 (item offsets) is not read by libheif 1.15.
            if method <= 1 {
                locations[UInt32(truncatingIfNeeded: id)] = Location(inItemData: method == 1, extents: extents)
            }
        }
    }

    /// The properties of `ipco` in order (the range of each `hvcC`'s payload, nil for other properties), and each
    /// item's associated property indices (1-based, as `ipma` gives them).
    private static func readProperties(
        _ bytes: UnsafeRawBufferPointer,
        _ payload: Range<Int>,
        into properties: inout [Range<Int>?],
        _ associations: inout [UInt32: [Int]]
    ) {
        var cursor = HEIFByteCursor(bytes, range: payload)
        while let box = cursor.nextBox() {
            if box.type == HEIFByteCursor.type("ipco") {
                var container = HEIFByteCursor(bytes, range: box.payload)
                while let property = container.nextBox() {
                    properties.append(property.type == HEIFByteCursor.type("hvcC") ? property.payload : nil)
                }
            } else if box.type == HEIFByteCursor.type("ipma") {
                var map = HEIFByteCursor(bytes, range: box.payload)
                guard let header = map.read(4), let count = map.readInt(4) else { continue }
                let version = Int(header >> 24)
                let wideIndices = header & 1 == 1
                for _ in 0..<count {
                    guard let id = map.read(version < 1 ? 2 : 4), let n = map.readInt(1) else { break }
                    var indices: [Int] = []
                    for _ in 0..<n {
                        guard let field = map.readInt(wideIndices ? 2 : 1) else { break }
                        indices.append(field & (wideIndices ? 0x7FFF : 0x7F))
                    }
                    associations[UInt32(truncatingIfNeeded: id), default: []].append(contentsOf: indices)
                }
            }
        }
    }

    /// Calls `body` with the bytes of an item: in place for one extent, its extents joined for more. False, and
    /// `body` not called, when an extent lies outside the file or its `idat`.
    private static func withData(
        of location: Location,
        in bytes: UnsafeRawBufferPointer,
        itemData: Range<Int>?,
        _ body: (UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        // libheif 1.15 checks an `idat` extent against the box's size with its header, so an extent may run up to
        // 8 bytes past the box into what follows: the container of `idat` data runs to the end of the file.
        guard let container = location.inItemData ? itemData.map({ $0.lowerBound..<bytes.count }) : 0..<bytes.count else {
            return false
        }
        var ranges: [Range<Int>] = []
        for extent in location.extents {
            let (start, overflow) = container.lowerBound.addingReportingOverflow(extent.offset)
            guard !overflow, start <= container.upperBound else { return false }
            // A length of 0 runs to the end of the container, as ISO-BMFF says of a single extent.
            let length = extent.length == 0 ? container.upperBound - start : extent.length
            guard length <= container.upperBound - start else { return false }
            ranges.append(start..<(start + length))
        }
        if ranges.count == 1 {
            body(UnsafeRawBufferPointer(rebasing: bytes[ranges[0]]))
        } else {
            var joined: [UInt8] = []
            for range in ranges { joined.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range])) }
            joined.withUnsafeBytes(body)
        }
        return true
    }

    /// The canvas size of a grid (`ImageGrid`) or overlay (`ImageOverlay`) descriptor (ISO/IEC 23008-12, 6.6.2).
    private static func canvas(_ bytes: UnsafeRawBufferPointer, isGrid: Bool) -> PixelSize? {
        var cursor = HEIFByteCursor(bytes, range: 0..<bytes.count)
        guard let version = cursor.read(1), version == 0, let flags = cursor.read(1) else { return nil }
        // A grid's rows and columns; an overlay's four 16-bit fill values.
        guard cursor.skip(isGrid ? 2 : 8) else { return nil }
        let fieldSize = flags & 1 == 1 ? 4 : 2
        guard let width = cursor.readInt(fieldSize), let height = cursor.readInt(fieldSize) else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// Reads the sequence parameter sets of the `hvcC` properties among `indices`, and returns the size of the
    /// length field before each NAL unit of the image's data (1, 2 or 4 bytes; 4 when no `hvcC` says).
    private mutating func scanParameterSets(
        _ bytes: UnsafeRawBufferPointer,
        properties: [Range<Int>?],
        of indices: [Int],
        item: UInt32
    ) -> Int {
        var lengthSize = 4
        for index in indices where index >= 1 && index <= properties.count {
            guard let payload = properties[index - 1] else { continue }
            var cursor = HEIFByteCursor(bytes, range: payload)
            // 21 bytes of profile, level and format fields, then lengthSizeMinusOne in the low two bits.
            guard cursor.skip(21), let sizeField = cursor.read(1), let arrays = cursor.read(1) else {
                isComplete = false
                continue
            }
            lengthSize = Int(sizeField & 3) + 1
            for _ in 0..<arrays {
                guard cursor.skip(1), let count = cursor.read(2) else { break }
                for _ in 0..<count {
                    guard let length = cursor.readInt(2), cursor.remaining >= length else { break }
                    let start = cursor.offset
                    _ = cursor.skip(length)
                    note(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]), of: item)
                }
            }
        }
        return lengthSize
    }

    /// Walks the length-prefixed NAL units of a coded image's data for parameter sets.
    private mutating func scanCodedData(_ bytes: UnsafeRawBufferPointer, lengthSize: Int, of item: UInt32) {
        var cursor = HEIFByteCursor(bytes, range: 0..<bytes.count)
        while cursor.remaining > 0 {
            guard let length = cursor.readInt(lengthSize), cursor.remaining >= length else { return }
            let start = cursor.offset
            _ = cursor.skip(length)
            note(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]), of: item)
        }
    }

    /// Keeps the picture size of `nal` for `item` when it is a sequence parameter set larger than any seen.
    private mutating func note(_ nal: UnsafeRawBufferPointer, of item: UInt32) {
        guard HEVCPictureSize.nalType(nal) == HEVCPictureSize.sequenceParameterSetType else { return }
        guard let size = HEVCPictureSize.ofSequenceParameterSet(nal) else {
            isComplete = false
            return
        }
        if size.pixelCount > pictures[item]?.pixelCount ?? 0 {
            pictures[item] = size
        }
    }

    /// `iref`: the `dimg` references of derived images to their sources, and the `auxl` references of auxiliary
    /// images to the image they belong to.
    private mutating func readReferences(_ bytes: UnsafeRawBufferPointer, _ payload: Range<Int>) {
        var cursor = HEIFByteCursor(bytes, range: payload)
        guard let version = cursor.readFullBoxVersion() else { return }
        let idSize = version == 0 ? 2 : 4
        // libheif 1.15 reads each reference's header, then its fields in sequence, whatever size the header
        // gives: so does this.
        while cursor.remaining > 0 {
            guard let size = cursor.read(4), let type = cursor.read(4) else { break }
            if size == 1, cursor.read(8) == nil { break }
            let isDerivation = UInt32(type) == HEIFByteCursor.type("dimg")
            guard let fromField = cursor.read(idSize), let count = cursor.readInt(2) else { break }
            let from = UInt32(truncatingIfNeeded: fromField)
            for _ in 0..<count {
                guard let toField = cursor.read(idSize) else { break }
                let to = UInt32(truncatingIfNeeded: toField)
                if isDerivation {
                    sources[from, default: []].append(to)
                } else if UInt32(type) == HEIFByteCursor.type("auxl") {
                    auxiliaries[to, default: []].append(from)
                }
            }
        }
    }
}
