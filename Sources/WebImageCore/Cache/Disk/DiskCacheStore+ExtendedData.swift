#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DiskCacheStore {
    /// The extended attribute that holds an entry's extended data.
    package static let extendedAttributeName = "user.swift-web-image.extended"

    /// The extended data stored with `key`'s entry (HTTP validators and the like), or nil.
    ///
    /// Read from the entry file's extended attribute, else from its sidecar file (where it goes when the file
    /// system refuses extended attributes).
    package func extendedData(forKey key: String) -> Data? {
        let names = DiskCacheFileName.Names(key: key)
        do throws(DiskFileError) {
            if let value = try fileSystem.extendedAttribute(named: Self.extendedAttributeName, atPath: path(names.primary)) {
                return value
            }
        } catch {
            guard error.refusesExtendedAttributes else { return nil }
        }
        return try? fileSystem.readFile(atPath: path(DiskCacheFileName.sidecar(forDigest: names.digest))).0
    }

    /// Stores `data` as the extended data of `key`'s entry, or removes the extended data when `data` is nil.
    ///
    /// The data goes into the `user.swift-web-image.extended` attribute of the entry file. When the file system
    /// refuses it (no extended attributes, or not one this large), it goes into a hidden sidecar file next to the
    /// entry, written atomically as entries are, and removed with the entry. Sidecars do not count in the
    /// cache's size or count.
    ///
    /// - Throws: `diskIO` naming the key and the path when the entry does not exist or nothing can be written.
    package func setExtendedData(_ data: Data?, forKey key: String) throws(WebImageError) {
        let names = DiskCacheFileName.Names(key: key)
        let entryPath = path(names.primary)
        let sidecar = DiskCacheFileName.sidecar(forDigest: names.digest)
        do throws(DiskFileError) {
            if let data {
                do throws(DiskFileError) {
                    try fileSystem.setExtendedAttribute(named: Self.extendedAttributeName, to: data, atPath: entryPath)
                    if knownSidecars.remove(names.digest) != nil { try? fileSystem.removeFile(atPath: path(sidecar)) }
                } catch {
                    guard error.refusesExtendedAttributes else { throw error }
                    // The sidecar belongs to an entry: refuse one for a key that has none.
                    guard try fileSystem.status(atPath: entryPath).isRegularFile else {
                        throw DiskFileError(code: EISDIR, operation: "setxattr", path: entryPath)
                    }
                    _ = try writeAtomically(data, named: sidecar, digest: names.digest, counted: false)
                    knownSidecars.insert(names.digest)
                }
            } else {
                do throws(DiskFileError) {
                    try fileSystem.removeExtendedAttribute(named: Self.extendedAttributeName, atPath: entryPath)
                } catch {
                    guard error.refusesExtendedAttributes || error.isNotFound else { throw error }
                }
                do throws(DiskFileError) {
                    try fileSystem.removeFile(atPath: path(sidecar))
                } catch {
                    guard error.isNotFound else { throw error }
                }
                knownSidecars.remove(names.digest)
            }
        } catch {
            throw WebImageError(.diskIO, "cannot set the extended data of the key \"\(key)\": \(error)")
        }
    }
}
