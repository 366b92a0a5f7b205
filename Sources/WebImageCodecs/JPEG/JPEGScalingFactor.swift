internal import CTurboJPEG

/// A factor libjpeg's DCT scaling can decode at (1/8, 1/4, 3/8 ... 1/1): the IDCT produces the smaller image
/// directly, so a reduced decode costs a fraction of a full one and never holds the full-size pixels.
struct JPEGScalingFactor: Sendable, Hashable, CustomStringConvertible {
    let numerator: Int
    let denominator: Int

    /// 1/1: no scaling.
    static let one = JPEGScalingFactor(numerator: 1, denominator: 1)

    /// The factors TurboJPEG offers that do not enlarge, smallest first; at least ``one``.
    static let reducing: [JPEGScalingFactor] = {
        var count: Int32 = 0
        guard let list = tjGetScalingFactors(&count), count > 0 else { return [.one] }
        var factors = Set<JPEGScalingFactor>()
        for i in 0..<Int(count) {
            let factor = JPEGScalingFactor(numerator: Int(list[i].num), denominator: Int(list[i].denom))
            if factor.numerator > 0, factor.denominator > 0, factor.numerator <= factor.denominator {
                factors.insert(factor)
            }
        }
        factors.insert(.one)
        return factors.sorted { $0.numerator * $1.denominator < $1.numerator * $0.denominator }
    }()

    /// The size libjpeg decodes `size` to at this factor: each side times the factor, rounded up.
    func scale(_ size: PixelSize) -> PixelSize {
        let factor = tjscalingfactor(num: Int32(numerator), denom: Int32(denominator))
        return PixelSize(
            width: Int(ctj_scaled(Int32(clamping: size.width), factor)),
            height: Int(ctj_scaled(Int32(clamping: size.height), factor))
        )
    }

    /// The smallest factor that decodes `size` to at least `target` on both sides (``one`` when none smaller
    /// does), with the size it gives.
    static func smallest(
        scaling size: PixelSize,
        toCover target: PixelSize
    ) -> (factor: JPEGScalingFactor, size: PixelSize) {
        for factor in reducing {
            let scaled = factor.scale(size)
            if scaled.width >= target.width, scaled.height >= target.height {
                return (factor, scaled)
            }
        }
        return (.one, size)
    }

    var description: String { "\(numerator)/\(denominator)" }
}
