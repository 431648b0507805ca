import Foundation
import Glibc
import Testing
import TileViewSystem
import TileViewTestSupport

/// The one folder lister: names read where readdir leaves them, never past a record's end.
@Suite("Folder entries")
struct FolderEntriesTests {
    @Test("a short record last before an unmapped page is read up to its name's end (the whole dirent was copied)")
    func recordBeforeAGuardPage() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapped = try #require(
            mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), "mmap")
        #expect(mapped != MAP_FAILED)
        defer { munmap(mapped, 2 * page) }
        #expect(mprotect(mapped + page, page, PROT_NONE) == 0)
        // A record of the name "a" ending where the readable page ends, as getdents64 packs records: the fields
        // before the name, the name and its NUL, rounded up to 8 bytes. A whole dirent there reaches 255 bytes
        // into the page that cannot be read.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let length = (nameOffset + 2 + 7) / 8 * 8
        let record = mapped + page - length
        record.storeBytes(
            of: UInt16(length), toByteOffset: MemoryLayout<dirent>.offset(of: \dirent.d_reclen)!, as: UInt16.self)
        record.storeBytes(of: UInt8(ascii: "a"), toByteOffset: nameOffset, as: UInt8.self)
        record.storeBytes(of: UInt8(0), toByteOffset: nameOffset + 1, as: UInt8.self)
        let name = FolderEntries.name(of: record.assumingMemoryBound(to: dirent.self))
        #expect(Array(name) == [UInt8(ascii: "a")])
    }

    @Test("a folder of many entries lists every name once, without . and ..")
    func manyEntries() throws {
        try TemporaryFolder.with("folder-entries") { folder in
            let made = Set((0..<3000).map { "entry-\($0)-" + String(repeating: "x", count: $0 % 200) })
            for name in made {
                #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil))
            }
            let names = try FolderEntries.names(in: folder.path)
            #expect(names.count == made.count && Set(names) == made)
        }
    }
}
