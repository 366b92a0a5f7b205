import Testing
import WebImageCore

@Suite("Decode memory budget")
struct ImageDecodeOptionsMemoryTests {
    @Test func theDefaultBudgetIs512MiB() {
        #expect(ImageDecodeOptions().maxDecodeMemory == 512 << 20)
        #expect(ImageDecodeOptions(firstFrameOnly: true).maxDecodeMemory == ImageDecodeOptions.defaultMaxDecodeMemory)
        #expect(ImageDecodeOptions(maxDecodeMemory: 1 << 20).maxDecodeMemory == 1 << 20)
    }

    @Test func partsAddUpAndPartsOfOneNameMerge() {
        var estimate = DecodeMemoryEstimate()
        estimate.add("output", pixels: PixelSize(width: 100, height: 50))
        estimate.add("scratch", bytes: 1000)
        estimate.add("output", bytes: 24)
        estimate.add("nothing", bytes: 0)
        estimate.add("empty", pixels: .zero)
        #expect(estimate.parts.map(\.name) == ["output", "scratch"])
        #expect(estimate.parts[0].bytes == 20_024)
        #expect(estimate.totalBytes == 21_024)

        var other = DecodeMemoryEstimate()
        other.add("frames", pixels: PixelSize(square: 10), count: 3)
        other.add("scratch", bytes: 1)
        estimate.add(other)
        #expect(estimate.parts.map(\.name) == ["output", "scratch", "frames"])
        #expect(estimate.totalBytes == 21_024 + 1200 + 1)
    }

    @Test func sizesFromHostileHeadersSaturateInsteadOfOverflowing() {
        var estimate = DecodeMemoryEstimate()
        estimate.add("canvas", pixels: PixelSize(width: Int.max / 2, height: 3))
        estimate.add("frames", pixels: PixelSize(square: 1 << 20), count: Int.max)
        estimate.add("more", bytes: Int.max)
        #expect(estimate.totalBytes == Int.max)
        #expect(DecodeMemoryEstimate.product(1 << 40, 1 << 40) == Int.max)
        #expect(DecodeMemoryEstimate.sum(Int.max, 1) == Int.max)
        #expect(DecodeMemoryEstimate.format(bytes: Int.max).hasSuffix(" MiB"))
    }

    @Test func bytesAreWrittenForPeople() {
        #expect(DecodeMemoryEstimate.format(bytes: 1) == "1 KiB")
        #expect(DecodeMemoryEstimate.format(bytes: 12 << 10) == "12 KiB")
        #expect(DecodeMemoryEstimate.format(bytes: 5 << 19) == "2.5 MiB")
        #expect(DecodeMemoryEstimate.format(bytes: 512 << 20) == "512 MiB")
        #expect(DecodeMemoryEstimate.format(bytes: 1_200_000_000) == "1,144 MiB")
    }

    @Test func theMessageGivesTheEstimateItsLargestPartsAndTheBudget() {
        var estimate = DecodeMemoryEstimate()
        estimate.add("output", bytes: 400_000_000)
        estimate.add("whole-image coefficients", bytes: 800_000_000)
        let options = ImageDecodeOptions()
        #expect(!options.allowsDecodeMemory(estimate))
        let error = #expect(throws: WebImageError.self) { try options.checkDecodeMemory(estimate, format: .jpeg) }
        #expect(error?.code == .imageTooLarge)
        #expect(
            error?.message
                == "JPEG: the decode would hold about 1,144 MiB (whole-image coefficients 763 MiB, output 381 MiB), over the decode memory budget of 512 MiB"
        )
    }

    @Test func anEstimateAtTheBudgetPassesAndNoBudgetPassesAll() throws {
        var estimate = DecodeMemoryEstimate()
        estimate.add("output", bytes: 1 << 20)
        try ImageDecodeOptions(maxDecodeMemory: 1 << 20).checkDecodeMemory(estimate, format: .png)
        #expect(throws: WebImageError.self) {
            try ImageDecodeOptions(maxDecodeMemory: (1 << 20) - 1).checkDecodeMemory(estimate, format: .png)
        }
        estimate.add("more", bytes: Int.max)
        try ImageDecodeOptions(maxDecodeMemory: 0).checkDecodeMemory(estimate, format: .png)
        #expect(ImageDecodeOptions(maxDecodeMemory: -1).allowsDecodeMemory(estimate))
    }

    @Test func theBudgetIsPartOfTheOptionsIdentity() {
        // Decodes are shared by equal options: a caller with another budget must not get another's result.
        #expect(ImageDecodeOptions() != ImageDecodeOptions(maxDecodeMemory: 1 << 30))
    }
}
