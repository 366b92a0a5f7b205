import Foundation
import Testing
@testable import WebImageCore

/// The numbers in transformer keys, written as SDWebImage's `%f` writes them, whatever their magnitude.
@Suite struct ImageTransformersKeyTests {
    private typealias Key = ImageTransformers.Key

    @Test func ordinaryValuesHaveSixDecimals() {
        #expect(Key.float(0) == "0.000000")
        #expect(Key.float(256) == "256.000000")
        #expect(Key.float(12.5) == "12.500000")
        #expect(Key.float(.pi / 4) == "0.785398")
        #expect(Key.float(-1) == "-1.000000")
        #expect(Key.float(0.0000004) == "0.000000")
        #expect(Key.float(0.0000006) == "0.000001")
        #expect(Key.float(123_456_789.1234565) == "123456789.123456")
    }

    @Test func largeValuesKeepEveryDigit() {
        #expect(Key.float(1e13) == "10000000000000.000000")
        #expect(Key.float(9.3e18) == "9300000000000000000.000000")
        #expect(Key.float(-1e19) == "-10000000000000000000.000000")
        #expect(Key.float(1e300) == "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160.000000")
        #expect(Key.float(.greatestFiniteMagnitude) == "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.000000")
        #expect(Key.float(.leastNonzeroMagnitude) == "0.000000")
        // The radius the tool once took from `round=0777777777777777777777777770777777.`.
        #expect(
            ImageTransformers.RoundCorner(radius: 777_777_777_777_777_777_777_777_770_777_777.0).transformerKey
                == "SDImageRoundCornerTransformer(777777777777777751460200553906176.000000,18446744073709551615,0.000000,(null))"
        )
    }

    @Test func valuesThatAreNotFiniteAreNamed() {
        #expect(Key.float(.nan) == "nan")
        #expect(Key.float(.infinity) == "inf")
        #expect(Key.float(-.infinity) == "-inf")
        #expect(ImageTransformers.Crop(x: .nan, y: 0, width: .infinity, height: 1).transformerKey
            == "SDImageCroppingTransformer({nan,0.000000,inf,1.000000})")
        #expect(ImageTransformers.Resize(width: -.infinity, height: 2).transformerKey == "SDImageResizingTransformer({-inf,2.000000},0)")
    }

    @Test func halfwayValuesRoundToEvenAndNegativesKeepTheirSign() {
        // 1/128 and 3/128 are exactly halfway between two sixth decimals.
        #expect(Key.float(0.0078125) == "0.007812")
        #expect(Key.float(0.0234375) == "0.023438")
        #expect(Key.float(-0.0078125) == "-0.007812")
        #expect(Key.float(-1e-9) == "-0.000000")
        #expect(Key.float(-0.0) == "-0.000000")
    }

    /// Doubles of every magnitude, from their bits and from short decimals, against the C library's `%f`.
    @Test func agreesWithPrintf() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        var values: [Double] = [0.5, 1.5, 2.5, 1e-6, 5e-7, 4.5e-6, 9_007_199_254_740_994, 0x1p63, 0x1p64, 0x1p127, 0x1p128]
        for _ in 0..<2_000 {
            values.append(Double(bitPattern: next()))
            let exponent = Int(next() % 40) - 20
            values.append(Double(Int64(bitPattern: next()) % 10_000_000) * pow(10, Double(exponent)))
            values.append(Double(next() % 1_000_000) / 128)
        }
        var mismatches: [String] = []
        for value in values where value.isFinite {
            let expected = String(format: "%f", value)
            if Key.float(value) != expected { mismatches.append("\(value): \(Key.float(value)) != \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
