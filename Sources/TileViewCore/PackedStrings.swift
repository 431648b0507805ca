/// Strings kept end to end in one buffer, each read back as a `String` when it is asked for.
///
/// A gallery's page names and paths: an array of strings holds 16 bytes a string and, for each string over 15 bytes
/// of UTF-8 (most paths), a heap object of 48 bytes or more besides; here a string costs its UTF-8 and 4 bytes. A
/// server's gallery of 100,000 photos holds 3 MB of them instead of about 20, and is kept between steps.
public struct PackedStrings: RandomAccessCollection, Hashable, Sendable {
    /// Every string's UTF-8, one after another.
    private var utf8: [UInt8] = []
    /// Where each string ends in `utf8`.
    private var ends: [UInt32] = []

    public init() {}

    /// `strings` in order. Their UTF-8 together must stay under 4 GiB (a folder's names are a few MB).
    public init(_ strings: some Sequence<some StringProtocol>) {
        for string in strings { append(string) }
    }

    public mutating func append(_ string: some StringProtocol) {
        utf8.append(contentsOf: string.utf8)
        precondition(utf8.count <= UInt32.max, "packed strings over 4 GiB")
        ends.append(UInt32(utf8.count))
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count }

    public subscript(index: Int) -> String {
        let start = index == 0 ? 0 : Int(ends[index - 1])
        return String(decoding: utf8[start..<Int(ends[index])], as: UTF8.self)
    }

    /// The bytes the strings hold: their UTF-8 and their ends.
    public var byteCount: Int { utf8.count + ends.count * MemoryLayout<UInt32>.stride }
}
