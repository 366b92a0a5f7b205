// What processes sharing a cache directory need of each other: the shared ledger.
extension POSIXFileSystem {
    package func openSharedCounter(atPath path: String) throws(DiskFileError) -> any DiskSharedCounter {
        try POSIXSharedCounter(path: path)
    }
}
