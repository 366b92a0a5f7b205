extension ImageTransformers {
    /// SDWebImage's formats for the parts of a `transformerKey`.
    enum Key {
        /// `%f` as C's `printf` writes it: the exact value of the double rounded to six decimals, halfway cases
        /// to even, every digit of the whole part however large (`1e300` has 301 digits), a minus sign on every
        /// negative value (`-0.000000` for `-1e-9`), and `nan`, `inf` or `-inf` for the values that are not
        /// finite.
        static func float(_ value: Double) -> String {
            guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
            let digits = millionths(value.magnitude)
            let padded = digits.count < 7 ? String(repeating: "0", count: 7 - digits.count) + digits : digits
            let point = padded.index(padded.endIndex, offsetBy: -6)
            return (value.sign == .minus ? "-" : "") + padded[..<point] + "." + padded[point...]
        }

        /// `{%f,%f}`.
        static func size(_ width: Double, _ height: Double) -> String {
            "{\(float(width)),\(float(height))}"
        }

        /// `#aarrggbb`, lowercase, alpha first (`sd_hexString`).
        static func color(_ color: RGBAColor) -> String {
            "#" + [color.alpha, color.red, color.green, color.blue].map { $0.hexDigits() }.joined()
        }

        /// The decimal digits of `value × 10⁶` rounded to a whole number, halfway cases to even, computed exactly
        /// for any finite `value` of 0 or more.
        private static func millionths(_ value: Double) -> String {
            // value = significand × 2^exponent exactly, and 10⁶ = 15625 × 2⁶.
            let subnormal = value.exponentBitPattern == 0
            let significand = subnormal ? value.significandBitPattern : value.significandBitPattern | 1 << 52
            let exponent = (subnormal ? -1074 : Int(value.exponentBitPattern) - 1075) + 6
            let scaled = UInt128(significand) * 15_625  // below 2^67
            if exponent <= 0 {
                let drop = -exponent
                guard drop > 0 else { return String(scaled) }
                // Below half of one unit once shifted: 2^(drop - 1) > 2^67 > scaled.
                guard drop <= 68 else { return "0" }
                let quotient = scaled >> drop
                let remainder = scaled & (1 << drop - 1)
                let half: UInt128 = 1 << (drop - 1)
                let roundsUp = remainder > half || (remainder == half && quotient & 1 == 1)
                return String(roundsUp ? quotient + 1 : quotient)
            }
            if exponent <= 60 { return String(scaled << exponent) }
            return decimalDigits(of: scaled, timesPowerOfTwo: exponent)
        }

        /// The decimal digits of `value × 2^power`, for products beyond 128 bits: limbs of nine decimal digits,
        /// least significant first, doubled up to 29 times a step (a limb times 2^29 stays below 2^59).
        private static func decimalDigits(of value: UInt128, timesPowerOfTwo power: Int) -> String {
            let base: UInt64 = 1_000_000_000
            var limbs: [UInt64] = []
            var rest = value
            while rest > 0 {
                limbs.append(UInt64(rest % UInt128(base)))
                rest /= UInt128(base)
            }
            var remaining = power
            while remaining > 0 {
                let step = min(remaining, 29)
                var carry: UInt64 = 0
                for index in limbs.indices {
                    let product = limbs[index] << step + carry
                    limbs[index] = product % base
                    carry = product / base
                }
                while carry > 0 {
                    limbs.append(carry % base)
                    carry /= base
                }
                remaining -= step
            }
            guard let top = limbs.last else { return "0" }
            var text = String(top)
            for limb in limbs.dropLast().reversed() {
                let digits = String(limb)
                text += String(repeating: "0", count: 9 - digits.count) + digits
            }
            return text
        }
    }
}
