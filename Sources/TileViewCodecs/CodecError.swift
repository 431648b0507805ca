/// Why a file could not be read, decoded or encoded: a kind for programs and a message for people.
///
/// The message says what is wrong with the data and never names the file: callers add the
/// file name ("photo.jpg: truncated JPEG data: Premature end of JPEG file").
public struct CodecError: Error, CustomStringConvertible, Equatable {
    /// The class of failure.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The input holds no bytes at all.
        case empty
        /// The bytes are neither PNG nor JPEG.
        case unknownFormat
        /// The data breaks the format (bad checksum, bad Huffman code, impossible header, ...).
        case corrupt
        /// The data stops before the image does.
        case truncated
        /// A valid file of a kind the decoders do not handle (12-bit or lossless JPEG, ...).
        case unsupported
        /// The image is over the pixel limit, or needs more memory than there is.
        case tooLarge
        /// The file could not be opened or read.
        case io
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
