import Foundation
import Testing
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

@Suite struct DownloadCallerTableTests {
    private func caller(_ id: Int, progress: Bool = false) -> DownloadCaller {
        let latch = CompletionLatch<DownloadedImageData>(callbackQueue: .inline, handler: { _ in })
        let url = URL(string: "https://x.org/\(id).png")!
        let token = ImageDownloadToken(url: url, delivery: .data(latch))
        let ignore: ImageLoadProgressHandler = { _ in }
        let listener: ImageLoadProgressHandler? = progress ? ignore : nil
        return DownloadCaller(
            id: id,
            token: token,
            progress: listener,
            callbackQueue: .inline,
            decodeKey: DownloadCaller.DecodeKey(options: ImageDecodeOptions(), soleCaller: nil, dataOnly: true),
            coder: MockCoder(magic: "M", format: .png),
            decryptor: nil,
            responseModifier: nil,
            priority: .normal,
            wantsPartialImages: false
        )
    }

    @Test func holdsOneCallerAndThenMany() {
        var table = DownloadCallerTable()
        #expect(table.isEmpty && table.count == 0 && table.soleCaller == nil && table.all.isEmpty)

        let first = caller(1)
        #expect(table.insert(first) == nil)
        #expect(!table.isEmpty && table.count == 1)
        #expect(table[1] === first && table[2] == nil)
        #expect(table.soleCaller === first)

        let second = caller(2, progress: true)
        #expect(table.insert(second) == nil)
        #expect(table.count == 2 && table.soleCaller == nil)
        #expect(table[1] === first && table[2] === second)
        #expect(Set(table.all.map(\.id)) == [1, 2])
        #expect(table.filter { $0.progress != nil }.map(\.id) == [2])

        #expect(table.remove(1) === first)
        #expect(table.remove(1) == nil, "a caller leaves once")
        #expect(table.count == 1 && table.soleCaller === second)

        #expect(table.remove(2) === second)
        #expect(table.isEmpty)
        let third = caller(3)
        #expect(table.insert(third) == nil)
        #expect(table.soleCaller === third && table[3] === third)
    }

    @Test func aCallerWithTheSameNumberReplacesTheOldOne() {
        var table = DownloadCallerTable()
        let old = caller(7)
        let new = caller(7)
        _ = table.insert(old)
        #expect(table.insert(new) === old)
        #expect(table.count == 1 && table[7] === new)
        _ = table.insert(caller(8))
        let newer = caller(8)
        #expect(table.insert(newer) != nil)
        #expect(table.count == 2 && table[8] === newer)
    }

    @Test func removingAllEmptiesTheTable() {
        var table = DownloadCallerTable()
        #expect(table.removeAll().isEmpty)
        _ = table.insert(caller(1))
        #expect(table.removeAll().map(\.id) == [1])
        #expect(table.isEmpty && table[1] == nil)
        for id in 1...5 { _ = table.insert(caller(id)) }
        #expect(Set(table.removeAll().map(\.id)) == Set(1...5))
        #expect(table.isEmpty && table.count == 0 && table.all.isEmpty)
        #expect(table.filter { _ in true }.isEmpty)
    }
}
