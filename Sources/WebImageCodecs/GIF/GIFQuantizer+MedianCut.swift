import WebImageCore

extension GIFQuantizer {
    /// A box of histogram cells: a range of `cells`, with the axis it would be cut along.
    private struct Box {
        var range: Range<Int>
        var pixels: UInt64 = 0
        /// The channel (0 red, 1 green, 2 blue) with the widest spread of cells.
        var axis = 0
        /// Pixels times the squared spread along `axis`: the box with the largest is cut next; 0 when the box
        /// holds a single cell.
        var score: UInt64 = 0
    }

    /// The 5-bit coordinate of `cell` along `axis`.
    @inline(__always)
    private static func coordinate(_ cell: Int32, _ axis: Int) -> Int32 {
        (cell >> Int32(10 - 5 * axis)) & 31
    }

    /// Counts the opaque pixels of `pixels` into the histogram and cuts it into at most `limit` boxes, always
    /// cutting the box with the most pixels times squared spread at its median along its widest channel. Returns
    /// the mean colour of each box.
    func medianCut(_ pixels: PixelBuffer, usesAlpha: Bool, limit: Int) -> [RGBAColor] {
        counts.update(repeating: 0, count: Self.cellCount)
        sums.update(repeating: 0, count: 3 * Self.cellCount)
        nearest.update(repeating: -1, count: Self.cellCount)
        for y in 0..<pixels.height {
            let row = (pixels.baseAddress + y * pixels.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<pixels.width {
                let p = row + x * 4
                if usesAlpha, p[3] < 128 { continue }
                let c = Self.cell(p)
                counts[c] += 1
                sums[3 * c] += UInt64(p[0])
                sums[3 * c + 1] += UInt64(p[1])
                sums[3 * c + 2] += UInt64(p[2])
            }
        }
        var cells: [Int32] = []
        for c in 0..<Self.cellCount where counts[c] > 0 {
            cells.append(Int32(c))
        }
        var boxes = [measure(Box(range: 0..<cells.count), cells)]
        while boxes.count < limit {
            var chosen = -1
            for (i, box) in boxes.enumerated() where box.score > 0 && (chosen < 0 || box.score > boxes[chosen].score) {
                chosen = i
            }
            guard chosen >= 0 else { break }
            let box = boxes[chosen]
            let axis = box.axis
            cells[box.range].sort { a, b in
                let ca = Self.coordinate(a, axis)
                let cb = Self.coordinate(b, axis)
                return ca != cb ? ca < cb : a < b
            }
            // The first cell at which half the pixels are passed; both halves keep at least one cell.
            var seen: UInt64 = 0
            var cut = box.range.lowerBound + 1
            for i in box.range {
                seen += UInt64(counts[Int(cells[i])])
                if seen * 2 >= box.pixels {
                    cut = i + 1
                    break
                }
            }
            cut = min(max(cut, box.range.lowerBound + 1), box.range.upperBound - 1)
            boxes[chosen] = measure(Box(range: box.range.lowerBound..<cut), cells)
            boxes.append(measure(Box(range: cut..<box.range.upperBound), cells))
        }
        return refine(boxes.map { mean(of: $0, cells) }, cells)
    }

    /// Fills in a box's pixel count, widest axis and score.
    private func measure(_ box: Box, _ cells: [Int32]) -> Box {
        var box = box
        var low: SIMD3<Int32> = [31, 31, 31]
        var high: SIMD3<Int32> = [0, 0, 0]
        for i in box.range {
            let c = cells[i]
            let point = SIMD3(Self.coordinate(c, 0), Self.coordinate(c, 1), Self.coordinate(c, 2))
            low = pointwiseMin(low, point)
            high = pointwiseMax(high, point)
            box.pixels += UInt64(counts[Int(c)])
        }
        let spread = high &- low
        box.axis = spread[1] >= spread[0] && spread[1] >= spread[2] ? 1 : (spread[0] >= spread[2] ? 0 : 2)
        let width = UInt64(max(0, spread[box.axis]))
        box.score = box.range.count > 1 ? box.pixels * (width * width + 1) : 0
        return box
    }

    /// The pixel-weighted mean colour of a box.
    private func mean(of box: Box, _ cells: [Int32]) -> RGBAColor {
        var total: SIMD3<UInt64> = .zero
        var count: UInt64 = 0
        for i in box.range {
            let c = Int(cells[i])
            total &+= SIMD3(sums[3 * c], sums[3 * c + 1], sums[3 * c + 2])
            count += UInt64(counts[c])
        }
        guard count > 0 else { return .black }
        let half = count / 2
        return RGBAColor(
            red: UInt8(min(255, (total[0] + half) / count)),
            green: UInt8(min(255, (total[1] + half) / count)),
            blue: UInt8(min(255, (total[2] + half) / count))
        )
    }

    /// Moves each colour to the mean of the cells nearest to it, a few times (Lloyd's iterations over the
    /// histogram), which lowers the error median cut leaves at the edges of its boxes.
    private func refine(_ colors: [RGBAColor], _ cells: [Int32], iterations: Int = 4) -> [RGBAColor] {
        var colors = colors
        for _ in 0..<iterations {
            var totals = [UInt64](repeating: 0, count: 3 * colors.count)
            var weights = [UInt64](repeating: 0, count: colors.count)
            for c in cells {
                let cell = Int(c)
                let entry = nearest(toCell: cell, in: colors)
                totals[3 * entry] += sums[3 * cell]
                totals[3 * entry + 1] += sums[3 * cell + 1]
                totals[3 * entry + 2] += sums[3 * cell + 2]
                weights[entry] += UInt64(counts[cell])
            }
            for i in colors.indices where weights[i] > 0 {
                let half = weights[i] / 2
                colors[i] = RGBAColor(
                    red: UInt8(min(255, (totals[3 * i] + half) / weights[i])),
                    green: UInt8(min(255, (totals[3 * i + 1] + half) / weights[i])),
                    blue: UInt8(min(255, (totals[3 * i + 2] + half) / weights[i]))
                )
            }
        }
        return colors
    }

    /// The index of the colour nearest to the mean colour of histogram cell `cell` (squared distance; the
    /// first on a tie).
    private func nearest(toCell cell: Int, in colors: [RGBAColor]) -> Int {
        let count = max(1, UInt64(counts[cell]))
        let r = Int((sums[3 * cell] + count / 2) / count)
        let g = Int((sums[3 * cell + 1] + count / 2) / count)
        let b = Int((sums[3 * cell + 2] + count / 2) / count)
        return colors.withUnsafeBufferPointer { table in
            var best = 0
            var bestDistance = Int.max
            for i in 0..<table.count {
                let dr = r &- Int(table[i].red)
                let dg = g &- Int(table[i].green)
                let db = b &- Int(table[i].blue)
                let distance = dr &* dr &+ dg &* dg &+ db &* db
                if distance < bestDistance {
                    best = i
                    bestDistance = distance
                }
            }
            return best
        }
    }

    /// The table entry nearest to the mean colour of histogram cell `cell`, remembered per cell.
    func nearestEntry(cell: Int, colors: [RGBAColor]) -> Int {
        let known = nearest[cell]
        if known >= 0 { return Int(known) }
        let best = nearest(toCell: cell, in: colors)
        nearest[cell] = Int16(best)
        return best
    }
}
