import Testing
@testable import WebImageCurl

@Suite struct CurlRuntimeTests {
    @Test func initialisesOnceFromManyThreads() async {
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 { group.addTask { CurlRuntime.initialize() } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 })
    }

    @Test func reportsTheLibraryVersion() {
        let parts = CurlRuntime.version.split(separator: ".")
        #expect(parts.count >= 2, "a dotted version, not \(CurlRuntime.version)")
        #expect(Int(parts[0]).map { $0 >= 7 } == true)
    }
}
